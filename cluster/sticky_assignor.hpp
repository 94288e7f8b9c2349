#pragma once
// The sticky assignor ("sticky"; Kafka's StickyAssignor / AbstractStickyAssignor semantics):
// first as balanced as possible, then as close as possible to what the members owned.
//
// 1. Ownership. A member keeps an owned partition that still exists and that it still
//    subscribes to. When several claim one, the claim of the highest generation wins; claims
//    tied at the highest generation cancel out (Kafka: "claimed by multiple consumers in the
//    same generation"), and the partition is assigned afresh.
// 2. Unowned partitions go, topic by topic (topics with fewer subscribers first, then by name;
//    partitions in order), to the subscribed member with the fewest partitions; ties go to a
//    member that claimed the partition, then to the lower member id.
// 3. Balance. While a member could pass a partition along a chain of members (each hands one
//    to the next, each able to take what it gets) to a member holding at least two fewer, one
//    such shortest chain is applied. Without such a chain the counts have the smallest possible
//    maximum and sum of squares at once (Harvey, Ladner, Lovasz, Tamir: "Semi-matchings for
//    bipartite graphs and load balancing", 2006); with identical subscriptions, max - min <= 1. Kafka
//    moves only along one step, so it can stop less balanced when subscriptions differ.
//    A hand-over gives, in this order of preference, a partition the receiver owned before,
//    one the giver did not own, or the giver's last owned one in (partition, topic) order,
//    as Kafka keeps the first ones.
//
// Deterministic: the plan depends only on the members as a set (ids, subscriptions, owned
// partitions, generations) and the partition counts, not on any order in the input. Unlike
// Kafka's there is no hash-map order in it, so the plan need not be Kafka's where Kafka is free
// to choose; no rack awareness.

#include <vector>

#include "cluster/assignor.hpp"

namespace cafka::cluster {

inline constexpr std::string_view sticky_assignor_name = "sticky";
inline constexpr std::string_view cooperative_sticky_assignor_name = "cooperative-sticky";

assignment_plan assign_sticky(const std::vector<assignor_member>& members,
                              const partition_counts& partitions);

/// Kafka's cooperative protocol (CooperativeStickyAssignor) on top of a plan: a partition
/// assigned to a member while another member still claims it is left out of the plan, unless
/// the receiver's own claim is of a strictly newer generation. The old owner sees it missing,
/// revokes it and rejoins; the next rebalance assigns it. Use only with members that rejoin
/// after a revocation; the group must then rebalance again.
assignment_plan withhold_partitions_changing_owner(assignment_plan plan,
                                                   const std::vector<assignor_member>& members);

} // namespace cafka::cluster
