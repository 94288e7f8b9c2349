#pragma once
// Choosing a partition leader, as Kafka's controller does for an offline partition.

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

} // namespace cafka::cluster
