#pragma once
// cafka-reassign-partitions' replication throttle, as Kafka's ReassignPartitionsCommand sets
// and clears it (cluster/replication_throttle.hpp says what the brokers do with it):
//
//   --execute --throttle B  each topic's leader.replication.throttled.replicas (the current
//                           replicas of its moving partitions) and follower.replication.
//                           throttled.replicas (the replicas they gain); leader.replication.
//                           throttled.rate and follower.replication.throttled.rate = B on every
//                           broker of those partitions, old or new (each told on its own listener)
//   --verify, all done      both topic keys removed from the file's topics, both rates from
//                           every broker
//
// Through IncrementalAlterConfigs; a refused change ends the tool (exit 1).

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cluster/reassignment_json.hpp"

namespace cafka::tools {

/// `addresses`: every broker's Kafka listener by id; `current`: the replicas now, per target.
void set_throttles(const std::string& bootstrap, const std::map<int32_t, std::string>& addresses,
                   const std::vector<cluster::partition_target>& current,
                   const std::vector<cluster::partition_target>& targets, int64_t rate, int timeout_ms);

void clear_throttles(const std::string& bootstrap, const std::map<int32_t, std::string>& addresses,
                     const std::set<std::string>& topics, int timeout_ms);

} // namespace cafka::tools
