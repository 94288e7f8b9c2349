#pragma once
// A randomized simulation scenario (issue 7, point 5), generated from a seed: how many
// brokers, which topics, what the producers send and when, and a fault schedule in
// simulated time. Pure data and a generator (no CAF, no cluster): the runner
// (tests/client/sim_runner_test.cpp) plays it against a sim::cluster, and to_text()
// prints it as part of a failure report.
//
// Choices where the issue is silent:
// - Replication factor 1 everywhere, so "no acknowledged record lost" is checked once
//   every broker is back; every crashed broker is restarted before the workload ends.
// - Machine crashes lose what was not fsynced, legitimately. A quarter of the plans with a
//   machine crash (drawn from the seed) set log.flush.interval.messages=1 on every broker
//   (flush_each_message): there every acknowledged record must survive ANY crash (the
//   fsync runs on the I/O worker after the append; simulated time does not move while
//   work is pending, so it is done before the next fault fires). In the other plans a
//   record acknowledged before a machine crash of its leader may be lost (the runner marks
//   it may_be_lost); everything else must survive. Not all plans flush each message
//   because every fsync is a real one on the disk under /tmp: such plans run ~10x slower.
// - An expired session is not re-registered by a running broker yet (actors/node.cpp), so
//   each expire_session is followed by a process crash and a restart of that broker
//   (otherwise its partitions would stay leaderless and the run could not finish).
// - Faults come in episodes, at most one per broker at a time; episodes of different
//   brokers may overlap (even all brokers down at once).
// - Link cuts and group consumers are not generated yet; fault_kind is an enum so that
//   they can be added (link_cut / link_heal once sim::cluster has them).

#include <cstdint>
#include <string>
#include <vector>

namespace cafka::sim {

struct scenario_topic {
  std::string name;
  int32_t partitions = 1;
};

/// One record a producer sends at a simulated time (ms after the workload starts).
struct scenario_send {
  int64_t at_ms = 0;
  int producer = 0;
  std::string topic;
  int32_t partition = 0;
  std::string key;
  std::string value;
  int64_t timestamp = 0;
};

enum class fault_kind {
  crash_process, ///< kill -9: what was written survives
  crash_machine, ///< power loss: what was not fsynced is lost
  restart,       ///< the crashed broker starts again
  expire_session,
};

std::string to_string(fault_kind k);

struct scenario_fault {
  int64_t at_ms = 0; ///< after the workload starts
  fault_kind kind = fault_kind::crash_process;
  int broker = 0; ///< index (broker id - 1)
};

struct scenario_plan {
  uint64_t seed = 0;
  int brokers = 3;
  std::vector<scenario_topic> topics;
  int producers = 1;
  std::vector<scenario_send> sends;   ///< ordered by at_ms
  std::vector<scenario_fault> faults; ///< ordered by at_ms; every crash has a later restart
  bool flush_each_message = false;    ///< log.flush.interval.messages=1 (see above)
  int64_t end_ms = 0;                 ///< the last send or fault
};

/// The plan of `seed`: 3–5 brokers, 1–3 topics of 1–6 partitions, 1–3 producers of
/// 5–30 records each, 0–4 fault episodes. The same seed always gives the same plan.
scenario_plan make_plan(uint64_t seed);

/// Human-readable: header, topics, fault schedule, and a summary of the sends.
std::string to_text(const scenario_plan& plan);

} // namespace cafka::sim
