#pragma once
// A randomized simulation scenario (issue 7, point 5), generated from a seed: how many
// brokers, which topics, what the producers send and when, and a fault schedule in
// simulated time. Pure data and a generator (no CAF, no cluster): the runner
// (tests/client/sim_runner_test.cpp) plays it against a sim::cluster, and to_text()
// prints it as part of a failure report.
//
// Choices where the issue is silent:
// - Topics are replicated: each draws a replication factor 1..min(3, brokers) and
//   min.insync.replicas 1 or 2 (effective min(it, RF)); each producer acks=1 or acks=all.
//   replica.lag.time.max.ms is drawn per plan (4, 10 or 30 s) so that long cuts and
//   pauses shrink ISRs. What each invariant then asks is in sim/invariants.hpp.
// - Every crashed broker is restarted, every cut healed, every delay removed before the
//   workload ends.
// - Machine crashes lose what was not fsynced, legitimately. A quarter of the plans with a
//   machine crash (drawn from the seed) set log.flush.interval.messages=1 on every broker
//   (flush_each_message): there every acknowledged record must survive ANY crash (the
//   fsync runs on the I/O worker after the append; simulated time does not move while
//   work is pending, so it is done before the next fault fires). Not all plans flush each
//   message because every fsync is a real one on the disk under /tmp: such plans run
//   ~10x slower. At most one machine is lost at a time: a machine crash (of a given broker
//   or of a leader) starts only machine_gap_ms after the previous one's restart (time to
//   catch up and rejoin the ISRs), else it is a process crash.
// - Faults come in episodes. A broker episode hits a given broker, at most one per broker
//   (or member host) at a time: a crash (process or machine) or a clean stop and its
//   restart (a crash after an expired session, sometimes), a plain session expiry (the
//   broker keeps running and registers again), a cut of one link (one direction or both,
//   to another broker, the coordinator, the producers' host or a member's host) and its
//   heal, a delay on a link (both directions) and its removal, a dropped link (its
//   connections reset), a pause (a GC pause), and a member's host cut off from every
//   broker and healed. A leader episode (plans with a replicated topic) hits whichever
//   broker leads a drawn partition when the episode starts (broker = -1 in the plan; the
//   runner resolves it, and skips the episode if that broker is in another episode or
//   none leads): its crash (process or machine) or clean stop and the restart, a cut from
//   the coordinator (ZooKeeper) or from its followers (one direction or both) and the heal,
//   a pause, or an isolation from everything and the rejoin. Episodes of different brokers
//   may overlap (even all brokers down at once); a link episode's peer may be in an
//   episode of its own.
// - Operations (issue 16), drawn from a stream of their own (so that the rest of a seed's
//   plan is what it was before they came): 0-2 per plan, each a partition addition (a topic
//   grows by 1-2 partitions) or a reassignment (one partition of a topic to a drawn set of as
//   many distinct brokers as its replication factor), asked of the first running broker; the
//   timeline does not wait for the answer (the runner's checks at the end do). The producers
//   keep sending to the partitions the plan began with.
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
  int32_t replication_factor = 1;  ///< 1..min(3, brokers)
  int32_t min_insync_replicas = 1; ///< the topic's min.insync.replicas: 1 or 2
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
  int64_t sequence = 0; ///< the producer's sequence-th send (0, 1, ...: the order it sends in)
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
  isolate,        ///< every link of the broker cut, both directions (the coordinator's too)
  rejoin,         ///< undoes isolate
  add_partitions, ///< target_topic grows to partition_count partitions (CreatePartitions)
  reassign,       ///< target_topic/target_partition moves to `replicas` (AlterPartitionReassignments)
};

std::string to_string(fault_kind k);

/// The other end of a link fault.
struct scenario_peer {
  enum kind_t {
    broker,
    coordinator,
    producers,
    member,
    followers, ///< every other replica of a leader episode's partition (resolved with the leader)
  } kind = broker;
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
  /// Index (broker id - 1); unused for cut_member/heal_member; -1 in a leader episode: the
  /// broker that leads target_topic/target_partition when the episode's first fault fires.
  int broker = 0;
  int episode = 0;                ///< the faults of one episode share it (0, 1, ...)
  std::string target_topic;       ///< leader episodes
  int32_t target_partition = 0;
  scenario_peer peer;                                ///< cut, heal, delay, undelay, drop
  link_direction direction = link_direction::both;  ///< cut, heal
  int64_t delay_min_ms = 0, delay_max_ms = 0;        ///< delay
  int64_t pause_ms = 0;                              ///< pause
  int member = 0;                                    ///< cut_member, heal_member
  int32_t partition_count = 0;                       ///< add_partitions: the new total
  std::vector<int32_t> replicas;                     ///< reassign: broker ids
};

/// The operations (add_partitions, reassign) are no broker's episode (broker = operation_broker).
constexpr int operation_broker = -2;

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
  std::vector<int16_t> acks;          ///< per producer: 1 or -1 (all)
  int64_t replica_lag_time_max_ms = 30000;
  bool flush_each_message = false;    ///< log.flush.interval.messages=1 (see above)
  bool quick_machine_restarts = false; ///< made with plan_options::quick_machine_restarts
  int64_t end_ms = 0;                 ///< the last send, join or fault
};

/// After a machine crash's restart, how long no other machine crash starts.
constexpr int64_t machine_gap_ms = 10000;
/// A machine-crashed broker restarts this long after the crash at the earliest (unless
/// plan_options::quick_machine_restarts): after its session expired (6 s in the simulation).
constexpr int64_t machine_restart_min_ms = 7000;

struct plan_options {
  /// Restarts a machine-crashed broker 0.2-15 s after the crash like any other, so also
  /// before its coordinator session expired. Off by default: cafka's controller does not
  /// notice a broker that comes back before its session expired (Kafka's "bounced broker",
  /// which Kafka's controller detects by the broker epoch, the czxid of /brokers/ids/<id>,
  /// and treats as a failure: new leaders for what it led, out of the ISRs), so the broker
  /// keeps its leadership and ISR membership at the same leader epoch with the tail its
  /// machine lost, and acknowledged records are lost (docs/simulation-runner.md).
  bool quick_machine_restarts = false;
};

/// The plan of `seed`: 3–5 brokers, 1–3 topics of 1–6 partitions (replication factor
/// 1..min(3, brokers), min.insync.replicas 1 or 2), 1–3 producers (acks 1 or all) of 5–30
/// records each, 0–2 groups of 1–3 members, 0–6 fault episodes. The same seed always gives
/// the same plan.
scenario_plan make_plan(uint64_t seed, const plan_options& options = {});

/// Human-readable: header, topics, fault schedule, and a summary of the sends.
std::string to_text(const scenario_plan& plan);

} // namespace cafka::sim
