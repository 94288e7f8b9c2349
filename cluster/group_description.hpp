#pragma once
// A consumer group's states (Kafka's GroupState) and what DescribeGroups, ListGroups and
// cafka-consumer-groups show of a group.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/member_metadata.hpp"

namespace cafka::cluster {

enum class group_phase : uint8_t {
  empty,                ///< no members (possibly only committed offsets)
  preparing_rebalance,  ///< collecting JoinGroups
  completing_rebalance, ///< generation chosen, waiting for the leader's assignments
  stable,               ///< assignments handed out
  dead,                 ///< removed or moved away; every request is refused
};

/// Kafka's state name as DescribeGroups and ListGroups show it, e.g. "PreparingRebalance".
const char* to_string(group_phase p) noexcept;

struct member_description {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string client_id;
  std::string client_host;
  group_bytes metadata;   ///< for the chosen protocol; only when the group is stable
  group_bytes assignment; ///< only when the group is stable
};

struct group_description {
  group_phase state = group_phase::empty;
  std::string protocol_type;
  std::string protocol; ///< the chosen protocol; only when the group is stable (as Kafka)
  std::vector<member_description> members;
};

} // namespace cafka::cluster
