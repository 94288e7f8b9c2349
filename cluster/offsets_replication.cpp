#include "cluster/offsets_replication.hpp"

#include <algorithm>

namespace cafka::cluster {

offsets_topic_replicas replicas_for_offsets_topic(int32_t configured, size_t live_brokers) noexcept {
  auto wanted = static_cast<size_t>(std::max<int32_t>(configured, 1));
  auto count = std::max<size_t>(std::min(wanted, live_brokers), 1);
  count = std::min<size_t>(count, INT16_MAX);
  return {static_cast<int16_t>(count), count < wanted};
}

std::string capped_replicas_warning(int32_t configured, offsets_topic_replicas replicas, std::string_view topic,
                                    std::string_view key) {
  return "creating " + std::string{topic} + " with replication factor " + std::to_string(replicas.count) + ": "
         + std::string{key} + " is " + std::to_string(configured) + ", but only "
         + std::to_string(replicas.count) + " broker(s) are live";
}

protocol::kafka_error offset_commit_error(protocol::kafka_error append_error) noexcept {
  using e = protocol::kafka_error;
  switch (append_error) {
    case e::unknown_topic_or_partition:
    case e::not_enough_replicas:
    case e::not_enough_replicas_after_append:
      return e::coordinator_not_available;
    case e::not_leader_or_follower:
    case e::kafka_storage_error:
      return e::not_coordinator;
    case e::message_too_large:
    case e::record_list_too_large:
    case e::invalid_fetch_size:
      return e::invalid_commit_offset_size;
    default:
      return append_error;
  }
}

} // namespace cafka::cluster
