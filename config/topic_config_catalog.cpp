#include "config/topic_config_catalog.hpp"

#include <algorithm>
#include <sstream>

namespace cafka::config {

namespace {

const std::string long_max = "9223372036854775807";

} // namespace

const std::vector<topic_key>& topic_keys() {
  static const std::vector<topic_key> keys{
    {"cleanup.policy", "delete", {"log.cleanup.policy"}},
    {"compression.type", "producer", {"compression.type"}},
    {"delete.retention.ms", "86400000", {"log.cleaner.delete.retention.ms"}},
    {"file.delete.delay.ms", "60000", {"log.segment.delete.delay.ms"}},
    {"flush.messages", long_max, {"log.flush.interval.messages"}},
    {"flush.ms", long_max, {"log.flush.interval.ms"}},
    {"follower.replication.throttled.replicas", "", {}},
    {"index.interval.bytes", "4096", {"log.index.interval.bytes"}},
    {"leader.replication.throttled.replicas", "", {}},
    {"local.retention.bytes", "-2", {"log.local.retention.bytes"}},
    {"local.retention.ms", "-2", {"log.local.retention.ms"}},
    {"max.compaction.lag.ms", long_max, {"log.cleaner.max.compaction.lag.ms"}},
    {"max.message.bytes", "1048588", {"message.max.bytes"}},
    {"message.downconversion.enable", "true", {"log.message.downconversion.enable"}},
    {"message.format.version", "3.0-IV1", {"log.message.format.version"}},
    {"message.timestamp.after.max.ms", long_max, {"log.message.timestamp.after.max.ms"}},
    {"message.timestamp.before.max.ms", long_max, {"log.message.timestamp.before.max.ms"}},
    {"message.timestamp.difference.max.ms", long_max, {"log.message.timestamp.difference.max.ms"}},
    {"message.timestamp.type", "CreateTime", {"log.message.timestamp.type"}},
    {"min.cleanable.dirty.ratio", "0.5", {"log.cleaner.min.cleanable.ratio"}},
    {"min.compaction.lag.ms", "0", {"log.cleaner.min.compaction.lag.ms"}},
    {"min.insync.replicas", "1", {"min.insync.replicas"}},
    {"preallocate", "false", {"log.preallocate"}},
    {"remote.storage.enable", "false", {}},
    {"retention.bytes", "-1", {"log.retention.bytes"}},
    {"retention.ms", "604800000", {"log.retention.ms", "log.retention.minutes", "log.retention.hours"}},
    {"segment.bytes", "1073741824", {"log.segment.bytes"}},
    {"segment.index.bytes", "10485760", {"log.index.size.max.bytes"}},
    {"segment.jitter.ms", "0", {"log.roll.jitter.ms", "log.roll.jitter.hours"}},
    {"segment.ms", "604800000", {"log.roll.ms", "log.roll.hours"}},
    {"unclean.leader.election.enable", "false", {"unclean.leader.election.enable"}},
  };
  return keys;
}

const topic_key* find_topic_key(std::string_view name) {
  auto& keys = topic_keys();
  auto it = std::find_if(keys.begin(), keys.end(), [&](const topic_key& k) { return k.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

std::string broker_default(const topic_key& key, const server_config& cfg) {
  auto& n = key.name;
  if (n == "cleanup.policy")
    return "delete"; // log.cleanup.policy is not a cafka broker key
  if (n == "flush.messages")
    return std::to_string(cfg.log_flush_interval_messages);
  if (n == "flush.ms")
    return std::to_string(cfg.log_flush_interval_ms);
  if (n == "index.interval.bytes")
    return std::to_string(cfg.log_index_interval_bytes);
  if (n == "max.message.bytes")
    return std::to_string(cfg.message_max_bytes);
  if (n == "min.insync.replicas")
    return std::to_string(cfg.min_insync_replicas);
  if (n == "retention.bytes")
    return std::to_string(cfg.log_retention_bytes);
  if (n == "retention.ms")
    return std::to_string(cfg.log_retention_ms);
  if (n == "segment.bytes")
    return std::to_string(cfg.log_segment_bytes);
  if (n == "segment.index.bytes")
    return std::to_string(cfg.log_index_size_max_bytes);
  if (n == "segment.ms")
    return std::to_string(cfg.log_roll_ms);
  if (n == "unclean.leader.election.enable")
    return cfg.unclean_leader_election_enable ? "true" : "false";
  if (n == "delete.retention.ms")
    return std::to_string(cfg.log_cleaner_delete_retention_ms);
  if (n == "min.compaction.lag.ms")
    return std::to_string(cfg.log_cleaner_min_compaction_lag_ms);
  if (n == "max.compaction.lag.ms")
    return std::to_string(cfg.log_cleaner_max_compaction_lag_ms);
  if (n == "min.cleanable.dirty.ratio") {
    std::ostringstream text;
    text << cfg.log_cleaner_min_cleanable_ratio;
    return text.str();
  }
  return key.default_value;
}

} // namespace cafka::config
