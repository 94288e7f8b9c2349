#pragma once
// Replica placement for new topics and new partitions: Kafka's rack-unaware round robin
// (AdminUtils.assignReplicasToBrokersRackUnaware), made deterministic by passing in what Kafka
// draws at random.
//
// Brokers are sorted (and de-duplicated). Partition k's leader is broker
// (k + start_index) mod n; its followers follow the leader at distances
// 1 + (replica_shift + k / n + j) mod (n - 1) for j = 0..R-2: the shift grows by one every n
// partitions. From partition 0 this is exactly Kafka's assignment; unlike Kafka, placing
// partitions from first_partition on continues that pattern (Kafka restarts the shift).
// So leaders and replicas spread evenly (6 partitions x RF 3 over 3 brokers: each broker leads
// 2 and holds 6 replicas), and no two partitions on the same leader share all followers.
//
// Rack-aware placement (AdminUtils.scala assignReplicasToBrokers /
// assignReplicasToBrokersRackAware / getRackAlternatedBrokerList, apache/kafka core/src/main/
// scala/kafka/admin/AdminUtils.scala, the ZK-era controller's placement; KIP-36), used when every
// live broker has a rack in placement_options::racks:
// - The brokers are arranged rack-alternated: racks sorted by name, brokers sorted within a
//   rack, then one broker of each rack in turn (racks a: 1 2, b: 3 4, c: 5 6 -> 1 3 5 2 4 6).
// - Partition k's leader is arranged[(k + start_index) mod n]. Followers are probed at
//   distances 1 + (shift * racks + j) mod (n - 1), j = 0, 1, 2, ... (shift as above), and a
//   probed broker is skipped if its rack already holds a replica of the partition while some
//   rack holds none, or if it already holds one while some broker holds none.
// So with RF <= racks every replica of a partition is on a distinct rack, with RF >= racks
// every rack gets one. If some live brokers have a rack and others do not, Kafka refuses
// ("Not all brokers have rack information ...") and so does this (inconsistent_racks); with no
// rack on any live broker the rack-unaware algorithm above runs.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cluster/metadata.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

struct placement_options {
  int32_t start_index = 0;     ///< sorted-broker index of the first partition's leader (Kafka: random)
  int32_t replica_shift = 0;   ///< initial follower shift (Kafka: random)
  int32_t first_partition = 0; ///< number of the first partition placed (when adding partitions)
  std::map<int32_t, std::string> racks; ///< broker id -> broker.rack; empty/absent = no rack
};

/// Replica lists for partitions first_partition .. first_partition + partitions - 1 (element i
/// is partition first_partition + i), preferred leader first. Errors: invalid_partitions if
/// partitions < 1; invalid_replication_factor if replication_factor < 1 or above the number
/// of distinct live brokers; inconsistent_racks if some live brokers have a rack and some do
/// not (racks of brokers that are not live do not count). Negative start_index and
/// replica_shift count modulo.
result<std::vector<replica_list>> place_replicas(int32_t partitions, int32_t replication_factor,
                                                 std::vector<int32_t> live_brokers,
                                                 const placement_options& options = {});

} // namespace cafka::cluster
