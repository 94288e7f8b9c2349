#pragma once
// More partitions for an existing topic (CreatePartitions, `cafka-topics --alter
// --partitions N`): Kafka's AdminZkClient.addPartitions checks, decided here without I/O.
//
// - The count must grow: equal or lower is INVALID_PARTITIONS with Kafka's message ("Topic
//   currently has 3 partitions, which is higher than the requested 2." / "... equal to ...").
// - Without an assignment the new partitions are placed as a new topic's would be from
//   partition `first` on (cluster/replica_placement.hpp: the round robin continues), with the
//   replication factor of partition 0 over the live brokers (rack-aware when every live
//   broker has a rack).
// - With one, it must list exactly count - current partitions, each with as many distinct,
//   live brokers as partition 0 has replicas (INVALID_REPLICA_ASSIGNMENT otherwise).
// - Each new partition starts as a new topic's: its preferred replica leads at leader epoch 0,
//   every replica in the ISR (they are all empty).
// __consumer_offsets keeps its count (Kafka refuses too: the group-to-partition hash depends on it).

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

struct partition_addition {
  topic_assignment assignment;              ///< the whole topic's, old partitions unchanged
  int32_t first = 0;                        ///< the first new partition
  std::vector<partition_state> new_states;  ///< of partitions first, first + 1, ...
};

struct addition_refusal {
  protocol::kafka_error error = protocol::kafka_error::unknown_server_error;
  std::string message;
};

using partition_addition_plan = std::variant<partition_addition, addition_refusal>;

partition_addition_plan plan_partition_addition(const cluster_view& view, const std::string& topic, int32_t count,
                                                const std::vector<replica_list>& assignment,
                                                int32_t controller_epoch);

} // namespace cafka::cluster
