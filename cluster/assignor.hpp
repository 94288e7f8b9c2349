#pragma once
// What every partition assignor of the consumer protocol takes and gives (Kafka's
// ConsumerPartitionAssignor): the group's members with their subscriptions (and, for the sticky
// assignor, what each owned before), the partition count of each topic, and the resulting plan
// member -> partitions. The broker runs one when a member lets it assign (cafka's native
// consumer); Kafka clients assign on their leader, and range and round-robin here give exactly
// their results so that mixed tooling agrees.
//
// Plain values: the subscription and assignment bytes are read and written by
// protocol/wire/consumer_protocol.hpp, and the caller turns them into these.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "protocol/topic_partition.hpp"

namespace cafka::cluster {

/// One partition of a topic (Kafka's TopicPartition); ordered by topic, then partition.
using topic_partition = protocol::topic_partition;

/// Kafka's DEFAULT_GENERATION: owned partitions whose generation the member did not say.
inline constexpr int32_t unknown_generation = -1;

/// A group member as an assignor sees it. Member ids are unique in a group; should one repeat,
/// its first entry counts and the others are ignored.
struct assignor_member {
  std::string member_id;
  /// Static membership (group.instance.id): range and round-robin order such members first, by
  /// this id, so that their plan survives restarts that change member ids.
  std::optional<std::string> group_instance_id;
  std::vector<std::string> topics; ///< the subscription; order and repeats do not matter
  /// Sticky only: what the member held before this rebalance (subscription v1+
  /// owned_partitions, or what the caller decoded from a StickyAssignor's user data).
  std::vector<topic_partition> owned_partitions;
  int32_t generation = unknown_generation; ///< sticky only: the generation owned_partitions is from
};

/// Topic -> partition count (partitions 0 .. count-1), from the broker's metadata. A subscribed
/// topic that is missing here, or whose count is below 1, does not exist: it is not assigned.
using partition_counts = std::map<std::string, int32_t>;

/// Member id -> its partitions, sorted by topic then partition. Every member is listed, also
/// one that gets nothing.
using assignment_plan = std::map<std::string, std::vector<topic_partition>>;

/// Java's String.compareTo order (UTF-16 code units), which Kafka sorts member ids, instance ids
/// and topics by. It equals byte order except that a character above U+FFFF sorts before one in
/// U+E000..U+FFFF (a surrogate pair starts with 0xD800..0xDBFF). Inputs are taken as UTF-8.
bool java_string_less(std::string_view a, std::string_view b);

/// Kafka's MemberInfo order: members with a group_instance_id first, ordered by it; then the
/// others by member id.
bool kafka_member_less(const assignor_member& a, const assignor_member& b);

/// The members once each (first entry of a repeated member id), in kafka_member_less order.
std::vector<const assignor_member*> sorted_members(const std::vector<assignor_member>& members);

/// A plan that lists every member with nothing assigned.
assignment_plan empty_plan(const std::vector<assignor_member>& members);

/// Sorts each member's partitions (topic, then partition).
void sort_plan(assignment_plan& plan);

} // namespace cafka::cluster
