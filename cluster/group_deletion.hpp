#pragma once
// Whether a group, or some of its committed offsets, may be deleted (DeleteGroups,
// OffsetDelete), by Kafka's GroupCoordinator rules:
//   - DeleteGroups removes only a group without members (Empty): otherwise NON_EMPTY_GROUP;
//     a Dead group is GROUP_ID_NOT_FOUND.
//   - OffsetDelete: a Dead group is GROUP_ID_NOT_FOUND. An Empty group loses every offset
//     asked for. A consumer group with members keeps the offsets of the topics its members
//     subscribe to (GROUP_SUBSCRIBED_TO_TOPIC for those partitions) and loses the others. A
//     group of another protocol type with members refuses it all (NON_EMPTY_GROUP).
// A member's subscription is read from its metadata for the group's chosen protocol (every
// protocol it offered before the first generation); metadata that does not decode
// subscribes to nothing, as Kafka's (its subscribedTopics are then unknown).

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cluster/group_state.hpp"
#include "protocol/kafka_error.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::cluster {

/// none if DeleteGroups may remove the group now, else the error to answer.
protocol::kafka_error group_deletion_error(const group_state& group);

struct offset_deletion {
  protocol::kafka_error group_error = protocol::kafka_error::none;
  /// Every partition asked for with its error (none: deleted), in the order asked; empty
  /// with a group error.
  std::vector<std::pair<storage::topic_partition, protocol::kafka_error>> partitions;
  /// The partitions whose offsets go.
  std::vector<storage::topic_partition> to_delete;
};

offset_deletion plan_offset_deletion(const group_state& group, const std::vector<storage::topic_partition>& asked);

/// The topics the members of a "consumer" group subscribe to.
std::set<std::string> subscribed_topics(const group_state& group);

} // namespace cafka::cluster
