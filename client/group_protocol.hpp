#pragma once
// The native group member's side of Kafka's "consumer" protocol, as pure functions (no
// actors): what it puts into JoinGroup (protocol type "consumer", one protocol named after
// its assignor, whose metadata is a consumer subscription), what its leader computes for
// SyncGroup (the assignor's plan over every member's decoded subscription, encoded as
// consumer assignments), and how it reads its own assignment. The bytes are those of
// protocol/wire/consumer_protocol.hpp, so that native members and Kafka clients (kcat,
// librdkafka, kafka-python) that name the same assignor can share one group.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/assignor.hpp"
#include "cluster/group_requests.hpp"
#include "protocol/result.hpp"

namespace cafka::client {

/// Kafka's protocol type for consumers.
inline constexpr const char* consumer_protocol_type = "consumer";

/// A subscription (v1: topics plus the partitions the member owns now, which the sticky
/// assignor uses; generation -1 is not sent in v1) as JoinGroup metadata.
std::vector<char> encode_subscription(const std::vector<std::string>& topics,
                                      const std::vector<cluster::topic_partition>& owned);

/// Every topic any member subscribes to (sorted, once each); members whose metadata does
/// not decode are skipped (leader_assignments reports them).
std::vector<std::string> subscribed_topics(const std::vector<cluster::joined_member>& members);

/// The leader's SyncGroup assignments: runs the assignor `protocol` (range, roundrobin,
/// sticky, cooperative-sticky) over the members' subscriptions with the given partition
/// counts, and encodes each member's share as a consumer assignment (v0). Every member gets
/// an entry (possibly with no partitions). Errors (as text, for a caf::error's context):
/// an unknown assignor, a member whose subscription does not decode.
struct leader_plan {
  std::vector<cluster::member_assignment> assignments;
  std::string error; ///< empty on success
};
leader_plan leader_assignments(const std::string& protocol,
                               const std::vector<cluster::joined_member>& members,
                               const cluster::partition_counts& counts);

/// The partitions of a SyncGroup assignment, sorted. Empty bytes are "nothing assigned"
/// (a member the leader left out). Errors: the consumer_protocol decoder's.
result<std::vector<cluster::topic_partition>> decode_assignment(const std::vector<char>& bytes);

} // namespace cafka::client
