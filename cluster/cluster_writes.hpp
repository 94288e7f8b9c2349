#pragma once
// The controller's writes into the coordinator, made so that two controllers can never both
// win (a deposed controller that has not noticed yet races the new one):
//
//   publish_new_topic       creates /brokers/topics/<topic> first; only if that create wins
//                           are the partition nodes, each partition's own state and
//                           /config/topics/<topic> created. A second controller creating the
//                           same topic gets node_exists and writes nothing.
//   publish_partition_addition  sets /brokers/topics/<topic> to the grown assignment, conditional
//                           on the version the addition was planned from; only if that wins are
//                           the new partitions' nodes and states created.
//   write_decision          write_partition_states, then (only if all of them won) each topic
//                           assignment, conditional on the version it was decided from: a
//                           reassignment's states lead, its assignment follows.
//   write_partition_states  sets each state conditionally on the znode version the decision
//                           was made from (partition_state_write::expected_version, taken from
//                           the cluster_view), or creates it if it was absent. If another
//                           controller wrote in between, that write fails with bad_version
//                           (node_exists for a create): reload and decide again — the stored
//                           controller epoch then tells a deposed controller to stand down
//                           (controller_decisions.hpp).
//
// The writes of one call are issued back to back and are independent: on an error some may
// have been applied; each one is a valid state on its own. `done` gets success or the first
// error in the order the writes were given, once, following coordinator.hpp's callback
// contract (possibly before the function returns); `c` must stay alive until then.

#include <string>
#include <vector>

#include "cluster/controller_decisions.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/metadata.hpp"
#include "cluster/partition_addition.hpp"
#include "cluster/reassignment.hpp"

namespace cafka::cluster {

void publish_new_topic(coordinator& c, const std::string& topic, const new_topic& t,
                       const topic_config& config, status_callback done);

void publish_partition_addition(coordinator& c, const std::string& topic, const partition_addition& a,
                                int32_t expected_version, status_callback done);

void write_partition_states(coordinator& c, const std::vector<partition_state_write>& writes,
                            status_callback done);

void write_decision(coordinator& c, const std::vector<partition_state_write>& states,
                    const std::vector<assignment_write>& assignments, status_callback done);

} // namespace cafka::cluster
