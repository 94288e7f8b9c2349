#pragma once
// Starting and stopping a whole node inside an actor system: what cafka-server does,
// and what tests do in-process.
//
//   auto n = start_node(sys, cfg);   // opens and recovers storage (blocking), spawns
//                                    // the I/O worker, node actor, retention cleaner
//   ...
//   stop_node(sys, *n);              // closes partitions, then logs (flush), marks a
//                                    // clean shutdown (blocking)

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include "actors/kafka_listener.hpp"
#include "actors/node_actor.hpp"
#include "actors/offsets_expirer.hpp"
#include "actors/log_cleaner.hpp"
#include "actors/retention_cleaner.hpp"
#include "cluster/client_quotas.hpp"
#include "config/server_config.hpp"
#include "protocol/result.hpp"

namespace cafka {

namespace metrics {
class broker_metrics;
}
namespace cluster {
class coordinator;
class replication_throttle;
}
struct node_storage;
class routing_table;
class cluster_view_cache;
class group_registry;
class offset_log_store;
class offsets_store;
class replicated_offsets;
class connection_counts;

/// What the node actor is spawned with.
struct node_context {
  std::shared_ptr<node_storage> storage;
  std::shared_ptr<routing_table> routes;
  caf::actor io_worker;
  std::function<int64_t()> now_ms;
  /// This broker's coordinator session (the embedded one on a single node) and the
  /// controller it found when it registered.
  std::shared_ptr<cluster::coordinator> coordinator;
  int32_t controller_id = -1;
  /// The consumer groups this node coordinates.
  std::shared_ptr<group_registry> groups;
  /// Cluster mode only (null on a single node): the view the node actor's cluster member
  /// (actors/cluster_member.hpp) loads; topics and leadership then come from it.
  std::shared_ptr<cluster_view_cache> views;
  /// Cluster mode only: the committed offsets of the __consumer_offsets partitions led here.
  std::shared_ptr<replicated_offsets> offsets;
  /// The replication quotas this broker applies (cluster/replication_throttle.hpp); the node
  /// actor keeps its plan in line with the view, its fetch polls and fetchers consult it.
  std::shared_ptr<cluster::replication_throttle> throttle;
  /// The broker's counters (metrics/broker_metrics.hpp): its leaders count ISR changes.
  std::shared_ptr<metrics::broker_metrics> metrics;
  /// The Kafka listeners' connection limits, which dynamic broker configs change; may be null.
  std::shared_ptr<connection_counts> connections;
  /// The transaction coordinator (actors/txn_coordinator.hpp): told which __transaction_state
  /// partitions this node leads.
  caf::actor txn_coordinator;
  /// Hands out the producer ids of cafka's idempotent producer (actors/producer_id_issuer.hpp).
  caf::actor producer_ids;
  /// Every group's committed offsets (offsets above in a cluster, the node's offset_log_store
  /// on a single node): transaction markers for __consumer_offsets partitions go there.
  std::shared_ptr<offsets_store> offset_store;
};

node_actor spawn_node_actor(caf::actor_system& sys, node_context ctx);

/// A running node.
struct node {
  node_actor actor;
  retention_cleaner_actor cleaner;
  /// Compaction (null with log.cleaner.enable=false).
  log_cleaner_actor log_cleaner;
  caf::actor io_worker;
  std::shared_ptr<routing_table> routes;
  std::shared_ptr<node_storage> storage;
  std::shared_ptr<cluster::coordinator> coordinator;
  /// The consumer groups this node coordinates, each an actor spawned on first use.
  std::shared_ptr<group_registry> groups;
  /// A single node: every group's committed offsets, in __consumer_offsets-0..N-1 of the
  /// first log dir, owned by this store (null in cluster mode).
  std::shared_ptr<offset_log_store> offsets;
  /// Cluster mode: those of the groups coordinated here, in replicated partitions (null on
  /// a single node).
  std::shared_ptr<replicated_offsets> cluster_offsets;
  offsets_expirer_actor offsets_expirer;
  /// Client quotas: what the listeners enforce, and the actor that alters them.
  std::shared_ptr<cluster::client_quota_registry> quotas;
  caf::actor quota_admin;
  /// Hands out the producer ids of InitProducerId (actors/producer_id_issuer.hpp).
  caf::actor producer_ids;
  /// Coordinates the transactional ids of the __transaction_state partitions led here.
  caf::actor txn_coordinator;
  /// The Kafka listeners, with the ports they actually bound.
  std::vector<kafka_listener> listeners;
  /// Cluster mode only: the latest cluster view this broker loaded.
  std::shared_ptr<cluster_view_cache> views;
  /// What the listeners, leaders and retention count (the metrics endpoint shows them).
  std::shared_ptr<metrics::broker_metrics> metrics;
};

/// Milliseconds since the epoch from the system clock.
int64_t wall_clock_ms();

/// Opens storage, registers the broker with the coordinator (the embedded one, or a
/// ZooKeeper session when zookeeper.connect is set; its chroot is created if missing) and
/// spawns the node's actors, with a Kafka listener per entry of `listeners` when the
/// actor system has CAF's network layer (their bound ports replace port 0 in the node's
/// configuration and in `node::listeners`). On failure `error_text` says what and where (e.g.
/// "log.dirs '/x': log directory is in use by another process").
result<node> start_node(caf::actor_system& sys, const config::server_config& cfg,
                        std::string& error_text, std::function<int64_t()> now_ms = wall_clock_ms);

/// How a node joins a cluster.
struct node_options {
  /// Opens this broker's session with the cluster's coordinator, e.g. a session of an
  /// embedded_store shared by several nodes of one process (as the in-process simulation
  /// does). Empty: the node runs alone on a private embedded coordinator, as start_node
  /// above. Set: cluster mode — topics, placement and leadership come from the coordinator
  /// (see docs/cluster.md); the topic registry file is not used, and partitions are opened
  /// as this broker comes to lead them. The node wraps the session in a
  /// cluster::renewing_session: when it expires, open_session is called again for a new one
  /// and the broker registers again (docs/cluster.md).
  std::function<std::shared_ptr<cluster::coordinator>()> open_session;
  /// The deterministic simulation (sim/) sets both to false: an I/O worker on its own
  /// thread would run outside the simulation's control, and a Kafka listener's start
  /// waits for the multiplexer, which only the simulation drives (its clients use the
  /// native path). The registration still names the configured listener.
  bool detached_io_worker = true;
  bool kafka_listeners = true;
  /// Seeds the member ids this node's groups generate (actors/member_id_suffix.hpp), so
  /// that a simulation replays them from its seed. 0 (the default): random_device.
  uint64_t member_id_seed = 0;
};

result<node> start_node(caf::actor_system& sys, const config::server_config& cfg,
                        std::string& error_text, const node_options& options,
                        std::function<int64_t()> now_ms = wall_clock_ms);

/// Shuts the node down in order and closes its storage (in cluster mode also its
/// coordinator session, so that the others see it leave). Blocks the calling thread
/// (which must not be a scheduler thread). Both halves of it (actors/node_stop.cpp):
status stop_node(caf::actor_system& sys, node& n);

/// The asynchronous half, for a caller that cannot block (the simulation runs the actors
/// itself): returns an actor that, sent shutdown_atom, first has the controller move this
/// broker's leaderships away (cluster mode with controlled.shutdown.enable; the listeners
/// keep serving meanwhile), then stops the listeners, cleaner and expirer (without a
/// controlled shutdown: at once, when the stopper is spawned), closes the groups, shuts the
/// node actor down (it closes the partitions) and drains the I/O worker, then answers true
/// (false: the node actor did not answer; its storage must not be closed then).
caf::actor spawn_node_stopper(caf::actor_system& sys, node& n);

/// The blocking half, once the stopper answered `stopped`: closes the offset logs and
/// the storage (flush, checkpoint, clean-shutdown marker), stops the I/O worker and
/// closes the coordinator session.
status finish_node_stop(node& n, bool stopped);

} // namespace cafka
