#pragma once
// The node actor's state and what its two files share: node_actor.cpp (the requests) and
// node_view.cpp (cluster mode: replicas, roles and fetchers following the cluster view).
// Internal to actors/.

#include <chrono>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include <caf/all.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/node.hpp"
#include "actors/node_actor.hpp"
#include "actors/node_replicas.hpp"

namespace cafka {

inline constexpr auto partition_request_timeout = std::chrono::seconds(30);

struct node_state {
  static inline const char* name = "cafka.node";
  node_context ctx;
  /// The partitions this node leads (what clients are routed to).
  std::map<topic_partition, partition_actor> partitions;
  /// Cluster mode: every local replica (leaders and followers), the role each was last
  /// given, and the fetchers of the followers (actors/node_replicas.hpp).
  std::map<topic_partition, partition_actor> replicas;
  std::map<topic_partition, replica_role> roles;
  replica_fetchers fetchers;
  // -- cluster mode (ctx.views set) --
  caf::actor member; ///< actors/cluster_member.hpp
  /// The view the partition actors follow (the last one applied).
  std::shared_ptr<const cluster::loaded_view> applied = std::make_shared<const cluster::loaded_view>();
  std::set<topic_partition> opening; ///< logs being opened on the I/O worker
  std::set<topic_partition> closing; ///< partition actors asked to close
  /// Single node: topics created but not yet in the registry file. Neither routed to nor
  /// described until it is written, so nothing is acknowledged into a topic that a kill
  /// would forget.
  std::set<std::string> unregistered;
  /// Single node: topics whose folders are still being removed. Their names stay taken
  /// until then (Kafka's "marked for deletion"): a new log in the old folder would lose
  /// its files to the removal.
  std::set<std::string> deleting;
  bool stopping = false;
  /// A controlled shutdown is under way: no replica fetchers any more (so that the leaders
  /// do not take this broker back into their ISRs while the controller moves it out).
  bool leaving = false;
};

using self_ptr = node_actor::stateful_pointer<node_state>;

bool clustered(self_ptr self);

// Sends `msg` to every actor in `targets` and calls `done` with every reply, in order,
// once all arrived (failed ones as errors).
template <class Reply, class... Msg, class Done>
void gather(self_ptr self, std::vector<partition_actor> targets, Done done, Msg... msg) {
  struct pending {
    std::vector<caf::expected<Reply>> replies;
    size_t outstanding = 0;
    std::function<void(std::vector<caf::expected<Reply>>&)> done;
  };
  auto acc = std::make_shared<pending>();
  acc->replies.resize(targets.size(), caf::expected<Reply>{caf::error{}});
  acc->outstanding = targets.size();
  acc->done = std::move(done);
  if (targets.empty()) {
    acc->done(acc->replies);
    return;
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    auto finish = [acc] {
      if (--acc->outstanding == 0)
        acc->done(acc->replies);
    };
    self->request(targets[i], partition_request_timeout, msg...)
      .then([=](Reply& r) { acc->replies[i] = std::move(r); finish(); },
            [=](caf::error& e) { acc->replies[i] = std::move(e); finish(); });
  }
}

int32_t my_id(self_ptr self);
/// Every local replica: the leaders alone on a single node, leaders and followers in a cluster.
std::vector<partition_actor> all_replicas(self_ptr self);
/// Publishes the routing table: the partitions led here (and, in a cluster, those led
/// elsewhere and every local replica).
void publish_routes(self_ptr self);
/// A partition actor's context: this node, the role, the checkpointed high watermark.
partition_context context_for(self_ptr self, const topic_partition& tp, replica_role role);
/// The leader the applied view records for `tp` (no_broker if unknown).
int32_t recorded_leader(self_ptr self, const topic_partition& tp);
/// The cluster member published a new view: open, re-role and close replicas to match it.
void apply_view(self_ptr self);

// -- node_actor.cpp and node_alone_admin.cpp (single node) --

/// Writes the topic registry on the I/O worker; once on disk its topics are served.
void write_registry(self_ptr self, std::function<void(caf::error)> done);
/// Why a topic of `partitions` partitions would take too many file descriptors, if it would.
std::optional<std::string> too_many_partitions(int32_t partitions);
/// CreatePartitions on a single node: new logs, registry, then served; replies the new count.
caf::result<int32_t> add_partitions_alone(self_ptr self, const partition_addition_request& req);
/// AlterPartitionReassignments on a single node: only its own replicas are valid targets.
std::vector<partition_outcome> reassign_alone(self_ptr self, const std::vector<partition_move>& moves);

// -- node_metrics.cpp --

/// The gauges GET /metrics shows of this broker: its local replicas, and the cluster as the
/// active controller sees it (groups are the endpoint's to add).
caf::result<metrics::broker_gauges> broker_gauges_of(self_ptr self);
/// Why this broker is not ready for clients (GET /ready), or empty when it is.
std::string readiness(self_ptr self);

// -- node_configs.cpp --
wire::describe_configs_response describe_configs(self_ptr self, const wire::describe_configs_request& req);
/// Answered once every change is stored.
caf::result<wire::alter_configs_response> alter_configs(self_ptr self, const wire::alter_configs_request& req);
/// Sends the log settings (broker defaults and the topic's overrides) to the local replicas
/// of `topics` (nullptr: of every topic).
void apply_log_configs(self_ptr self, const std::set<std::string>* topics);
/// After a view was applied: changed topic overrides to the local replicas, the dynamic
/// broker configs and the replication throttle plan from the view.
void apply_configs_of_view(self_ptr self);

/// Why `tp` is not served here (NOT_LEADER_OR_FOLLOWER naming the leader, or unknown).
caf::error miss(self_ptr self, const topic_partition& tp);
/// This broker as Metadata lists it.
broker_info this_broker(const config::server_config& cfg);
/// Single node: creates __transaction_state (once), then hands its partitions to the
/// transaction coordinator.
void create_txn_topic_alone(self_ptr self);

// -- node_transactions.cpp --

/// FindCoordinator for a transactional id: the leader of its __transaction_state partition
/// (this broker on a single node); coordinator_not_available while the topic is created
/// (its first lookup creates it) or the partition has no live leader.
caf::result<broker_info> find_txn_coordinator(self_ptr self, const std::string& transactional_id);
/// cafka's producer: InitProducerId (an idempotent producer's id, or a transactional id's
/// from this broker's coordinator) and AddPartitionsToTxn / AddOffsetsToTxn / EndTxn.
caf::result<producer_id_answer> init_producer_id(self_ptr self, producer_id_request& req);
caf::result<int16_t> change_transaction(self_ptr self, txn_request& req);
/// A transaction marker for `tp`: written by the partition's actor here, or (`may_relay`)
/// relayed to the broker leading it.
caf::result<produce_result> write_txn_marker(self_ptr self, const topic_partition& tp, const txn_marker_request& req,
                                             bool may_relay);
/// This broker now leads __transaction_state-`p` (at `leader_epoch`, the coordinator epoch):
/// its transaction coordinator loads it.
void lead_txn_partition(self_ptr self, int32_t p, partition_actor replica, int32_t leader_epoch);
void leave_txn_partition(self_ptr self, int32_t p);
/// Single node: every partition of __transaction_state (once it is registered) to the coordinator.
void lead_txn_partitions_alone(self_ptr self);

// -- node_offsets.cpp (cluster mode) --

/// This broker now leads __consumer_offsets-`p` (its replica `replica`): loads its committed
/// offsets, then serves its groups.
void lead_offsets_partition(self_ptr self, int32_t p, partition_actor replica);
/// No longer the leader of __consumer_offsets-`p`: its offsets are dropped, its groups closed.
void leave_offsets_partition(self_ptr self, int32_t p);

} // namespace cafka
