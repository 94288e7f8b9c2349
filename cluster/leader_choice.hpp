#pragma once
// Choosing a partition leader, as Kafka's controller does for an offline partition
// (Election.scala leaderForOffline, PartitionStateMachine.scala; notes §4.3).

#include <cstdint>
#include <vector>

#include "cluster/metadata.hpp"

namespace cafka::cluster {

/// The preferred leader: the first assigned replica; no_broker for an empty list.
int32_t preferred_leader(const replica_list& replicas);

/// The first replica in assignment order that is alive and in the ISR, so the preferred leader
/// wins whenever it is eligible; no_broker if no ISR member is alive (the partition stays
/// offline; no unclean election). When the ISR is kept in assignment order (as the controller
/// writes it) this is also "the first live replica in ISR order".
int32_t choose_leader(const replica_list& replicas, const std::vector<int32_t>& isr,
                      const std::vector<int32_t>& live_brokers);

struct leader_election {
  int32_t leader = no_broker;
  bool unclean = false; ///< the leader was not in the ISR (Kafka: new ISR = [leader])
};

/// choose_leader first; if none and `unclean_allowed`, the first live replica in assignment
/// order (unclean = true). {no_broker, false} when no replica is live.
leader_election elect_leader(const replica_list& replicas, const std::vector<int32_t>& isr,
                             const std::vector<int32_t>& live_brokers, bool unclean_allowed);

} // namespace cafka::cluster
