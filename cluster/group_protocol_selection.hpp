#pragma once
// Choosing a group's protocol as Kafka's GroupMetadata.selectProtocol does: the candidates are
// the protocols every member supports; each member votes for the candidate it prefers most;
// the most votes win. Kafka breaks a tie in hash-map order; here the first (longest-standing)
// member's preference order breaks it, so the choice is deterministic.
//
// Example: A [range, roundrobin], B [range, roundrobin], C [roundrobin, range] -> range (2:1).
// A [range], B [RoundRobinAssigner] (kafkajs next to librdkafka) -> no candidate: the second
// member is refused with INCONSISTENT_GROUP_PROTOCOL when it joins.

#include <optional>
#include <string>
#include <vector>

#include "cluster/member_metadata.hpp"

namespace cafka::cluster {

/// Protocol names every member supports, in the first member's preference order; empty for
/// an empty group.
std::vector<std::string> common_protocols(const std::vector<member_metadata>& members);

/// The protocol chosen by vote; nullopt for an empty group or one without a common protocol.
std::optional<std::string> select_group_protocol(const std::vector<member_metadata>& members);

/// Whether a member offering `offered` can be in a group with `members`, leaving out the
/// member whose id is `except` (the joining member's own current entry, whose old protocols
/// must not count): true if no other member remains, else if some offered protocol is
/// supported by every other member.
bool shares_a_protocol(const std::vector<member_metadata>& members,
                       const std::vector<group_protocol>& offered, const std::string& except);

} // namespace cafka::cluster
