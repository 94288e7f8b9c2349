#pragma once
// Client-side pieces for tests against a simulated cluster, shared by the simulation's
// tests (sim_cluster_test.cpp, sim_group_test.cpp) and the randomized runner
// (sim_runner.cpp): group members — cafka's production member (client/group_consumer.hpp,
// join_group) with a small consumer actor that records what it gets, in a client host —
// and the group's committed offsets asked from its coordinator; a node link to one
// broker; the leaders a broker's view records; the trace as text. Everything runs on the
// test's thread (sim::cluster is single-threaded), so tests read a member_log directly.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/actor_cast.hpp>
#include <caf/expected.hpp>

#include "client/consumer_records.hpp"
#include "client/group_messages.hpp"
#include "client/node_link.hpp"
#include "client/producer_actor.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"
#include "sim/cluster.hpp"

namespace client_test {

/// What one member's consumer actor saw.
struct member_log {
  struct record {
    cafka::topic_partition tp;
    int64_t offset = 0;
    std::optional<std::string> value;
    int64_t at_ms = -1; ///< simulated time it arrived (sim::cluster::now)
  };
  std::vector<cafka::client::partitions_assigned> assigned;
  std::vector<cafka::topic_partition> current; ///< assigned and not revoked
  size_t revocations = 0;
  std::vector<record> records; ///< every record, in arrival order
  std::vector<cafka::client::consumer_error> errors;

  int32_t generation() const { return assigned.empty() ? -1 : assigned.back().generation; }
  /// The offsets got from `partition`, in arrival order.
  std::vector<int64_t> offsets(int32_t partition) const;
};

struct sim_member {
  size_t host = 0;
  std::shared_ptr<member_log> log = std::make_shared<member_log>();
  cafka::client::node_link_actor link;
  caf::actor consumer;
  caf::actor starter; ///< asks the link for a node (again after a failure), then joins
  std::shared_ptr<caf::actor> actor = std::make_shared<caf::actor>(); ///< the group member, once joined

  /// Stops the member (or its start), its consumer and its link.
  void stop() const;
};

/// A member of `group` reading `topic`, in client host `host` (sim::cluster::client_host or
/// an add_client() index): a node link to every broker, the recording consumer, and —
/// once the link has a node, asked again every second until it has — join_group with
/// short simulated-time timings (session 2 s, heartbeat 200 ms, auto commit every 200 ms,
/// requests 3 s, fetchers that never give up). Does not run the cluster: the member starts
/// as the world runs, so it may be started in the middle of faults.
sim_member start_sim_member(cafka::sim::cluster& c, size_t host, const std::string& group, const std::string& topic);

/// The group's committed offsets of `topic` per partition, asked from its coordinator
/// (whichever running broker answers group_coordinator_atom); empty if none answered.
std::map<int32_t, int64_t> sim_committed(cafka::sim::cluster& c, const std::string& group, const std::string& topic);

/// `prod` (cafka's producer actor in client host system `sys`) sends `value` without a key,
/// at a fixed timestamp, to topic/partition; its answer within `max` of simulated time.
caf::expected<cafka::client::record_metadata> sim_send(cafka::sim::cluster& c, caf::actor_system& sys,
                                                       const cafka::client::producer_actor& prod,
                                                       const std::string& topic, int32_t partition,
                                                       const std::string& value, std::chrono::milliseconds max);

/// A node link from client host system `sys` to broker i only (client::spawn_node_link).
cafka::client::node_link_actor spawn_link_to_broker(cafka::sim::cluster& c, caf::actor_system& sys, size_t i);

/// What a test reads a simulated cluster with: a node link to broker 0, the node it
/// connected to, and a sink consumer recording into `log`; `fetch` carries the cluster's
/// bootstrap. Subscribe with client::subscribe(sys, *node, sink, tp, start, fetch).
/// Members in this order, for `auto& [link, node, log, sink, fo] = reader;`.
struct sim_reader {
  cafka::client::node_link_actor link;
  std::optional<cafka::node_actor> node;
  std::shared_ptr<sink_log> log = std::make_shared<sink_log>();
  caf::actor sink;
  cafka::client::fetch_options fetch;
};

/// Fails the test if the link has no node within 30 s of simulated time.
sim_reader start_sim_reader(cafka::sim::cluster& c, caf::actor_system& sys);

/// The leaders of `topic` as broker i's loaded view records them (-1: none); empty if the
/// broker is down or does not know the topic. Reads state only: safe in a run_until predicate.
std::vector<int32_t> sim_view_leaders(cafka::sim::cluster& c, size_t i, const std::string& topic);

/// The ISR of topic/partition as broker i's loaded view records it; empty if the broker is
/// down or does not know the partition. Reads state only.
std::vector<int32_t> sim_view_isr(cafka::sim::cluster& c, size_t i, const std::string& topic, int32_t partition);

/// The freshest recorded state of topic/partition: the one with the highest state version
/// among the running brokers' views (each broker's view may lag the coordinator a little);
/// nullopt if no running broker knows it. `replicas` gets the assignment.
struct sim_partition_view {
  int32_t leader = -1;
  int32_t leader_epoch = -1;
  std::vector<int32_t> isr;
  std::vector<int32_t> replicas;
  int32_t state_version = -1;
};
std::optional<sim_partition_view> sim_partition_state(cafka::sim::cluster& c, const std::string& topic,
                                                      int32_t partition);

/// One record of a replica's log, with the leader epoch of its batch.
struct replica_record {
  int64_t offset = 0;
  int32_t leader_epoch = -1;
  std::optional<std::string> key;
  std::optional<std::string> value;
};

struct replica_log {
  int64_t log_start = 0;
  int64_t log_end = 0;
  std::vector<replica_record> records; ///< every record from the log start, in offset order
  std::string error;                   ///< a batch that did not decode (records stop before it)
};

/// Broker i's replica of `tp`, read from its open partition log (leader or follower) between
/// runs of the world (nothing runs then, so the log cannot change under the read); nullopt if
/// the broker is down or has no open log of `tp`.
std::optional<replica_log> sim_replica_log(cafka::sim::cluster& c, size_t i, const cafka::topic_partition& tp);

/// Broker i's log end offset of `tp` (leader or follower); nullopt if the broker is down or
/// has no open log of it. Cheap: safe in a run_until predicate.
std::optional<int64_t> sim_log_end(cafka::sim::cluster& c, size_t i, const cafka::topic_partition& tp);

/// Sends every handle (any actor type; also vectors of them) an exit (user_shutdown), as a
/// test ends; let the world run afterwards (c.advance) so that they stop.
void exit_one(const caf::actor& a);
template <class Handle>
void exit_one(const std::vector<Handle>& hs) {
  for (auto& h : hs)
    exit_one(caf::actor_cast<caf::actor>(h));
}
template <class Handle>
void exit_one(const Handle& h) {
  exit_one(caf::actor_cast<caf::actor>(h));
}
template <class... Handles>
void exit_all(const Handles&... hs) {
  (exit_one(hs), ...);
}

/// The trace, one line each.
std::string dump(const cafka::sim::cluster& c);

} // namespace client_test
