#pragma once
// Kafka's RangeAssignor ("range"), without its rack matching (cafka's consumers send no rack).
//
// Topic by topic: the members subscribed to the topic in Kafka's member order (static members
// by group_instance_id first, then member ids) and its partitions in numeric order; each member
// gets a contiguous range of count / members partitions, and the first count % members members
// one more. Two members C0, C1 and topics t0, t1 of 3 partitions each:
//   C0: [t0p0, t0p1, t1p0, t1p1]   C1: [t0p2, t1p2]
// Topics are independent, so the first members get the extras of every topic.

#include <vector>

#include "cluster/assignor.hpp"

namespace cafka::cluster {

inline constexpr std::string_view range_assignor_name = "range";

assignment_plan assign_range(const std::vector<assignor_member>& members,
                             const partition_counts& partitions);

} // namespace cafka::cluster
