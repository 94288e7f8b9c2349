#pragma once
// Playing one randomized simulation plan (sim/scenario.hpp) against a sim::cluster and
// checking sim/invariants.hpp over what it observed; sim_runner_test.cpp runs it for many
// seeds and reports.
//
// What a run does:
//  1. a cluster of the plan's brokers (log.flush.interval.messages=1 if the plan says so;
//     the plan's replica.lag.time.max.ms; short group timings), the plan's topics (their
//     replication factor and min.insync.replicas), one client host per group member;
//  2. the timeline in simulated time: sends (cafka's producers, acks 1 or all per producer,
//     retried up to the 120 s delivery timeout), members joining (cafka's join_group, auto
//     commit) and the faults, in order; a leader episode hits the broker the coordinator
//     records as the partition's leader when it starts; a machine-crashed broker that
//     restarts in an ISR with its shorter log marks the partition at risk until it has
//     fetched back what the others held (the exposures of sim/invariants.hpp);
//  3. waits (bounded, in simulated time) until every send is answered, every broker is
//     back (none paused) and leads its partitions, every replica is in the ISR with the
//     leader's log end, and every high watermark reached its log end; reads every
//     partition from offset 0 with subscriptions; waits until each group has committed
//     every partition of its topic up to the log end (its members keep consuming through
//     all of it); reads every replica's log from its files;
//  4. checks the invariants of sim/invariants.hpp. A step that does not come within its
//     bound is a violation too.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario.hpp"

namespace client_test {

struct sim_run_result {
  std::vector<std::string> violations; ///< empty: the run kept every invariant
  std::string summary;                 ///< counts, one line
  std::vector<std::string> trace;      ///< the cluster's whole trace
  int64_t sim_ms = 0;                  ///< simulated time the run took
};

sim_run_result run_sim_plan(const cafka::sim::scenario_plan& plan);

} // namespace client_test
