#include "cluster/internal_topics.hpp"

#include <algorithm>

#include "cluster/offset_records.hpp"
#include "cluster/txn_metadata.hpp"

namespace cafka::cluster {

bool is_internal_topic(std::string_view name) noexcept {
  return name == offsets_topic_name || name == transaction_state_topic;
}

std::map<std::string, std::string> txn_topic_configs(int32_t replicas, int32_t min_isr, int32_t segment_bytes) {
  return {{"cleanup.policy", "compact"},
          {"segment.bytes", std::to_string(segment_bytes)},
          {"min.insync.replicas", std::to_string(std::max(1, std::min(min_isr, replicas)))},
          {"unclean.leader.election.enable", "false"}};
}

} // namespace cafka::cluster
