#pragma once
// What a broker writes into the coordinator, as chains of asynchronous calls that work
// the same on the embedded coordinator and on ZooKeeper:
//
//   register_broker   the persistent roots, the ephemeral /brokers/ids/<id>, and the
//                     controller election of controller_election.hpp (one round:
//                     campaign if /controller is absent, else follow whoever holds it)
//   publish_topic     /brokers/topics/<topic> (assignment), each partition's state and
//                     /config/topics/<topic>
//   unpublish_topic   the same nodes removed
//
// Callbacks follow coordinator.hpp's contract: `done` runs once, on whatever thread the
// coordinator completes on.

#include <functional>
#include <string>

#include "cluster/coordinator.hpp"
#include "cluster/metadata.hpp"

namespace cafka::cluster {

/// Who controls the cluster after registration.
struct registration_result {
  int32_t controller_id = no_broker;
  int32_t controller_epoch = 0;
};

void register_broker(coordinator& c, const broker_registration& me,
                     std::function<void(result<registration_result>)> done);

/// One election round alone (what register_broker runs after registering): campaign if
/// /controller is absent, else report whoever holds it. A broker runs it again whenever
/// /controller disappears.
void elect_controller(coordinator& c, int32_t my_id, std::function<void(result<registration_result>)> done);

void publish_topic(coordinator& c, const std::string& topic, const topic_assignment& assignment,
                   const partition_state& state, const topic_config& config, status_callback done);

void unpublish_topic(coordinator& c, const std::string& topic, int32_t partitions, status_callback done);

} // namespace cafka::cluster
