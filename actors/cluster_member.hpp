#pragma once
// The cluster member: one actor per broker in cluster mode (a node started with a shared
// coordinator, actors/node.hpp), a thin shell over the pure parts of cluster/:
//
// - View: loads the whole cluster view with cluster_loader at start and again whenever one
//   of its watches fires (the watcher only sends this actor a message; loads that overlap
//   are coalesced), publishes it in the shared cluster_view_cache and tells the node actor
//   (update_atom), which opens or closes its partition actors from it.
// - Election: whenever the view has no /controller, runs an election round
//   (cluster::elect_controller); /controller is ephemeral, so one broker wins per epoch. A
//   view naming this broker counts only once /controller's owner is this session
//   (a node restarted before its old session ended must wait for that node to go).
// - Controller: after each load, runs on_brokers_changed over the live brokers and writes
//   the states (write_partition_states: conditional on the versions read, stamped with its
//   controller epoch); a write that lost a race is followed by a reload. When that leaves
//   nothing to write: the moves of brokers in a controlled shutdown, then asked elections,
//   then reassignments (an asked one, else the completion of caught-up ones: their states,
//   then their topic assignments; cluster/reassignment.hpp), then (once per
//   leader.imbalance.check.interval.seconds, with auto.leader.rebalance.enable) the
//   preferred leaders' return (cluster/controlled_shutdown.hpp, leader_elections.hpp).
// - Topics: a create or delete request from this broker's node actor goes to the
//   controller's node actor over CAF's middleman (connect_atom to the host and caf.port of
//   its registration, 5 s; the request 15 s; the proxy is cached and dropped when its
//   connection goes down, which the middleman heartbeat also notices for a hung broker, or
//   a request to it is lost; after a failed connection attempt the next one to that broker
//   waits 100 ms, doubling to 5 s until one succeeds, and requests meanwhile take the
//   fallback below at once; the proxy of a lost connection that the middleman hands back
//   from its cache counts as a failed attempt), which hands it to its own member
//   marked as forwarded. The member that writes it runs place_new_topic over the live
//   brokers of its view and publish_new_topic (its create of /brokers/topics/<t> is the
//   arbiter, so two brokers creating one topic cannot both win), or unpublish_topic; every
//   broker then learns of the change through its watches. When the controller cannot be
//   reached (no middleman in this actor system, no controller, a lost connection) the
//   receiving broker writes it itself, as Kafka's old AdminUtils did — equally safe, since
//   the znode create arbitrates. The controller epoch stamped on a new topic's states is the
//   one the writer's view shows.
//
// Messages (dynamically typed; the internal ones never leave the process):
//   (create_topic_atom, topic_spec, bool may_forward) -> topic_description  errors:
//        invalid_topic_exception, topic_already_exists, invalid_partitions,
//        invalid_replication_factor, invalid_config, request_timed_out (the coordinator's
//        connection is lost or its session expired, ZOPERATIONTIMEOUT included: retriable,
//        the create may or may not have happened), unknown_server_error (other coordinator
//        errors)
//   (delete_topic_atom, std::string, bool may_forward) -> std::string
//        errors: unknown_topic_or_partition, request_timed_out (as above)
//   (reassign_atom, std::vector<partition_move>, bool may_forward) -> std::vector<partition_outcome>
//        AlterPartitionReassignments: queued at the controller (forwarded there), decided with
//        its other writes, answered per partition once written; not_controller if none.
//   (add_partitions_atom, partition_addition_request, bool may_forward) -> int32_t  the new
//        partition count; forwarded and written like a create (cluster/partition_addition.hpp,
//        publish_partition_addition). Errors: unknown_topic_or_partition, invalid_partitions,
//        invalid_replica_assignment, invalid_replication_factor, invalid_request (the offsets
//        topic), request_timed_out (as above, or the assignment changed meanwhile)
//   (controlled_shutdown_atom) -> bool  this broker is stopping: asks the controller (over
//        the link, or itself) to move its leaderships and ISR memberships
//        (cluster/controlled_shutdown.hpp), retried controlled.shutdown.max.retries times
//        controlled.shutdown.retry.backoff.ms apart while partitions are left or the
//        controller cannot be asked; true once none is left, false when it gave up.
//   (controlled_shutdown_atom, int32_t id, int64_t broker_epoch) -> int32_t  as controller:
//        broker `id` is leaving; its moves are decided with the others (after failed and
//        bounced brokers) and the answer, the partitions still to move, comes once nothing
//        more is to be written. Errors: not_controller, stale_broker_epoch (the view does not
//        show that registration).
//   (ensure_offsets_topic_atom) creates __consumer_offsets (offsets.topic.num.partitions
//        partitions, replication factor 1, cleanup.policy=compact, placed over the live
//        brokers like any topic) unless the view has it or a create is under way. Sent by
//        the node's group registry when a group lookup finds no such topic; the member
//        writes it itself (no forwarding: the create of /brokers/topics/<t> arbitrates,
//        and a lost race is simply the topic existing).
//   (ensure_txn_topic_atom) the same for __transaction_state (transaction.state.log.* keys;
//        delete policy, retention at transactional.id.expiration.ms: cluster/internal_topics.hpp),
//        sent by the node actor when FindCoordinator asks for a transactional id.
//   (txn_marker_atom, int32_t broker, topic_partition, txn_marker_request) -> produce_result
//        a transaction coordinator's marker, relayed to the node actor of the partition's
//        leader `broker` (marked forwarded); not_leader_or_follower when it cannot be reached.
//
// Session expiry (the node's session renews itself: cluster/renewing_session.hpp; the node
// sends these two):
//   (session_lost_atom)             the session expired: this broker's ephemerals are gone,
//        so it stops acting as controller at once (controller_epoch 0). Writes it had under
//        way are fenced anyway: they are conditional on the versions it read (cluster_writes).
//   (session_renewed_atom, int64_t) a new session is connected: re-register /brokers/ids/<id>
//        with the same data (cluster/node_registration; retried while the connection is
//        lost), forget the controller role, reload the view (re-arming every watch) and so
//        run the election again if /controller is gone.
// A session that ends for good (closed, or renewal failed) stops the member's loads.
//
// For tests: the epoch this broker acts as controller at (0: not) is published in the
// cluster_view_cache (acting_controller_epoch).

#include <cstdint>
#include <memory>

#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "config/server_config.hpp"

namespace cafka {

namespace cluster {
class coordinator;
}
class cluster_view_cache;

/// Asks the member to create __consumer_offsets if the cluster has none (local only).
using ensure_offsets_topic_atom = caf::atom_constant<caf::atom("cmoffsets")>;
/// Asks the member to create __transaction_state if the cluster has none (local only).
using ensure_txn_topic_atom = caf::atom_constant<caf::atom("cmtxntopic")>;
/// The node's coordinator session expired (local only).
using session_lost_atom = caf::atom_constant<caf::atom("cmlost")>;
/// The node's coordinator session was replaced by a new one, connected (local only).
using session_renewed_atom = caf::atom_constant<caf::atom("cmrenewed")>;

struct cluster_member_context {
  int32_t broker_id = 0;
  std::shared_ptr<cluster::coordinator> coordinator;
  std::shared_ptr<cluster_view_cache> views;
  /// Told (update_atom) after each new view.
  node_actor node;
  /// Defaults for new topics (num.partitions, default.replication.factor, log config).
  config::server_config config;
};

caf::actor spawn_cluster_member(caf::actor_system& sys, cluster_member_context ctx);

} // namespace cafka
