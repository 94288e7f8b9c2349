#pragma once
// Controlled shutdown (Kafka's ControlledShutdown, KafkaController.doControlledShutdown):
// before a broker stops, the controller moves the leadership of every partition it leads
// to another in-sync replica and takes it out of the ISR of the partitions it follows, so
// that clients see a NOT_LEADER_OR_FOLLOWER and a new leader at once instead of waiting for
// its session to expire, and acks=all producers do not wait for a replica that is leaving.
//
// Rules, over the brokers leaving (those that asked and have not left yet):
// - A partition led by a leaving broker gets the first in-sync replica, in assignment order,
//   that is live and not leaving, as leader (leader epoch + 1); the leaving brokers leave its
//   ISR. Without such a replica (replication factor 1, or no other replica in sync) the
//   partition stays where it is: moving it would take it offline, which is what the
//   shutdown is meant to avoid (Kafka leaves those too).
// - A partition a leaving broker only follows loses it from the ISR (leader epoch kept, as
//   for every ISR-only change), unless the ISR would then be empty.
// - Partitions without a state read, or last written by a newer controller, are not touched.
//
// The leaving broker stops its replica fetchers before it asks, so that its leaders do not
// take it back into the ISR (cluster/isr_changes.hpp) while it goes.

#include <cstdint>
#include <set>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "cluster/controller_decisions.hpp"

namespace cafka::cluster {

/// The partition state writes that move `leaving` brokers out of leaderships and ISRs, in
/// (topic, partition) order; empty when there is nothing (more) to move.
std::vector<partition_state_write> controlled_shutdown_writes(const cluster_view& view,
                                                              const std::set<int32_t>& leaving,
                                                              int32_t controller_epoch);

/// What the controller answers the leaving `broker`: how many partitions still wait for a
/// move off it (what controlled_shutdown_writes would still write for it alone). 0: it may
/// stop; partitions that cannot move are not counted.
int32_t partitions_left_to_move(const cluster_view& view, int32_t broker, int32_t controller_epoch);

} // namespace cafka::cluster
