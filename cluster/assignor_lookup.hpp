#pragma once
// The assignors cafka runs for members that let the broker assign, by the protocol name a
// member lists in JoinGroup (Kafka's ConsumerPartitionAssignor.name()).

#include <string_view>
#include <vector>

#include "cluster/assignor.hpp"

namespace cafka::cluster {

using assign_function = assignment_plan (*)(const std::vector<assignor_member>& members,
                                            const partition_counts& partitions);

/// "range", "roundrobin", "sticky", and "cooperative-sticky" (sticky's plan as is: cafka
/// assigns in one round; see withhold_partitions_changing_owner for Kafka's two-round
/// variant); nullptr for any other name. Names are case-sensitive, as in Kafka.
assign_function find_assignor(std::string_view protocol_name);

/// The names find_assignor knows, in cafka's order of preference.
std::vector<std::string_view> assignor_names();

} // namespace cafka::cluster
