#include "config/to_log_config.hpp"

namespace cafka::config {

storage::log_config to_log_config(const server_config& cfg) {
  storage::log_config result;
  result.segment_bytes = cfg.log_segment_bytes;
  result.roll_ms = cfg.log_roll_ms;
  result.index_interval_bytes = cfg.log_index_interval_bytes;
  result.index_max_bytes = cfg.log_index_size_max_bytes;
  result.retention_ms = cfg.log_retention_ms;
  result.retention_bytes = cfg.log_retention_bytes;
  result.flush_interval_messages = cfg.log_flush_interval_messages;
  result.flush_interval_ms = cfg.log_flush_interval_ms;
  result.max_message_bytes = cfg.message_max_bytes;
  result.producer_id_expiration_ms = cfg.producer_id_expiration_ms;
  result.min_cleanable_dirty_ratio = cfg.log_cleaner_min_cleanable_ratio;
  result.min_compaction_lag_ms = cfg.log_cleaner_min_compaction_lag_ms;
  result.max_compaction_lag_ms = cfg.log_cleaner_max_compaction_lag_ms;
  result.delete_retention_ms = cfg.log_cleaner_delete_retention_ms;
  return result;
}

} // namespace cafka::config
