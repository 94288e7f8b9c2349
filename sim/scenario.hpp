#pragma once
// A randomized simulation scenario (issue 7, point 5), generated from a seed: how many
// brokers, which topics, what the producers send and when, and a fault schedule in
// simulated time. Pure data and a generator (no CAF, no cluster): the runner
// (tests/client/sim_runner_test.cpp) plays it against a sim::cluster, and to_text()
// prints it as part of a failure report.
//
// Choices where the issue is silent:
// - Replication factor 1 everywhere, so "no acknowledged record lost" is checked once
//   every broker is back; every crashed broker is restarted, every cut healed, every delay
//   removed before the workload ends.
// - Machine crashes lose what was not fsynced, legitimately. A quarter of the plans with a
//   machine crash (drawn from the seed) set log.flush.interval.messages=1 on every broker
//   (flush_each_message): there every acknowledged record must survive ANY crash (the
//   fsync runs on the I/O worker after the append; simulated time does not move while
//   work is pending, so it is done before the next fault fires). In the other plans a
//   record acknowledged before a machine crash of its leader may be lost (the runner marks
//   it may_be_lost, and the partition lossy for the group checks); everything else must
//   survive. Not all plans flush each message because every fsync is a real one on the
//   disk under /tmp: such plans run ~10x slower.
// - Faults come in episodes, at most one per broker (or member host) at a time: a crash
//   or a clean stop and its restart (a crash after an expired session, sometimes), a plain session expiry (the
//   broker keeps running and registers again), a cut of one link (one direction or both,
//   to another broker, the coordinator, the producers' host or a member's host) and its
//   heal, a delay on a link (both directions) and its removal, a dropped link (its
//   connections reset), a pause (a GC pause), and a member's host cut off from every
//   broker and healed. Episodes of different brokers may overlap (even all brokers down
//   at once); a link episode's peer may be in an episode of its own.
// - Groups: 0-2 consumer groups, each reading one topic with 1-3 members (cafka's
//   join_group, auto commit), each member in a client host of its own, joining at a drawn
//   time (so rebalances happen under load and faults).

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
  crash_process,  ///< kill -9: what was written survives
  crash_machine,  ///< power loss: what was not fsynced is lost
  stop,           ///< a clean shutdown (SIGTERM)
  restart,        ///< the crashed or stopped broker starts again
  expire_session, ///< the broker keeps running and registers again
  cut,            ///< the link between broker and peer, in `direction`
  heal,           ///< undoes the cut of the same broker, peer and direction
  delay,          ///< both directions between broker and peer, delay_min/max_ms
  undelay,        ///< removes that delay
  drop,           ///< closes every connection between broker and peer
  pause,          ///< the broker runs nothing for pause_ms
  cut_member,     ///< member `member`'s host cut from every broker, both directions
  heal_member,
};

std::string to_string(fault_kind k);

/// The other end of a link fault.
struct scenario_peer {
  enum kind_t { broker, coordinator, producers, member } kind = broker;
  int index = 0; ///< the broker's or member's index
};

std::string to_string(const scenario_peer& p);

enum class link_direction {
  outbound, ///< broker -> peer
  inbound,  ///< peer -> broker
  both,
};

struct scenario_fault {
  int64_t at_ms = 0; ///< after the workload starts
  fault_kind kind = fault_kind::crash_process;
  int broker = 0; ///< index (broker id - 1); unused for cut_member/heal_member
  scenario_peer peer;                                ///< cut, heal, delay, undelay, drop
  link_direction direction = link_direction::both;  ///< cut, heal
  int64_t delay_min_ms = 0, delay_max_ms = 0;        ///< delay
  int64_t pause_ms = 0;                              ///< pause
  int member = 0;                                    ///< cut_member, heal_member
};

/// A consumer group reading one topic.
struct scenario_group {
  std::string name;
  std::string topic;
};

/// One member of a group, in a client host of its own.
struct scenario_member {
  int group = 0;        ///< index into scenario_plan::groups
  int64_t join_at_ms = 0; ///< after the workload starts
};

struct scenario_plan {
  uint64_t seed = 0;
  int brokers = 3;
  std::vector<scenario_topic> topics;
  int producers = 1;
  std::vector<scenario_send> sends;   ///< ordered by at_ms
  std::vector<scenario_group> groups;
  std::vector<scenario_member> members; ///< ordered by join_at_ms
  std::vector<scenario_fault> faults;   ///< ordered by at_ms; every crash has a later restart, etc.
  bool flush_each_message = false;    ///< log.flush.interval.messages=1 (see above)
  int64_t end_ms = 0;                 ///< the last send, join or fault
};

/// The plan of `seed`: 3–5 brokers, 1–3 topics of 1–6 partitions, 1–3 producers of
/// 5–30 records each, 0–2 groups of 1–3 members, 0–6 fault episodes. The same seed always
/// gives the same plan.
scenario_plan make_plan(uint64_t seed);

/// Human-readable: header, topics, fault schedule, and a summary of the sends.
std::string to_text(const scenario_plan& plan);

} // namespace cafka::sim
