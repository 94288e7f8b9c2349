#pragma once
// Kafka's RoundRobinAssignor ("roundrobin").
//
// All partitions of the subscribed topics that exist, sorted by topic then partition, are dealt
// one at a time to the members in Kafka's member order (static members by group_instance_id
// first, then member ids), going round; a member not subscribed to a partition's topic is
// skipped, and the deal goes on from the member after the one served (across topics too).
// Identical subscriptions give every member the same count +-1; different ones may not:
//   C0 {t0}, C1 {t0, t1}, C2 {t0, t1, t2}; t0, t1, t2 of 1, 2, 3 partitions:
//   C0: [t0p0]   C1: [t1p0]   C2: [t1p1, t2p0, t2p1, t2p2]

#include <vector>

#include "cluster/assignor.hpp"

namespace cafka::cluster {

inline constexpr std::string_view round_robin_assignor_name = "roundrobin";

assignment_plan assign_round_robin(const std::vector<assignor_member>& members,
                                   const partition_counts& partitions);

} // namespace cafka::cluster
