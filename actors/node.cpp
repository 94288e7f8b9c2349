#include "actors/node.hpp"

#include <chrono>
#include <future>
#include <thread>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/cluster_view_cache.hpp"
#include "actors/group_registry.hpp"
#include "actors/io_worker.hpp"
#include "actors/kafka_listener.hpp"
#include "actors/log_line.hpp"
#include "actors/member_id_suffix.hpp"
#include "actors/node_storage.hpp"
#include "actors/offset_log_store.hpp"
#include "actors/persistent_group_offsets.hpp"
#include "actors/replicated_offsets.hpp"
#include "actors/producer_id_issuer.hpp"
#include "actors/txn_coordinator.hpp"
#include "actors/routing_table.hpp"
#include "actors/quota_admin.hpp"
#include "actors/quota_store.hpp"
#include "cluster/replication_throttle.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "config/to_log_config.hpp"
#include "metrics/broker_metrics.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster/errc.hpp"
#include "cluster/group_coordinator_location.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/producer_id_claim.hpp"
#include "cluster/renewing_session.hpp"
#include "cluster/zookeeper_coordinator.hpp"

namespace cafka {

int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

// Registers the broker and runs one controller election; blocks until the coordinator
// answered (the embedded one answers inline).
result<cluster::registration_result> register_with(cluster::coordinator& c, const config::server_config& cfg) {
  auto& l = cfg.listeners.front();
  std::promise<result<cluster::registration_result>> answer;
  auto done = answer.get_future();
  cluster::register_broker(c, cluster::broker_registration{cfg.broker_id, l.host, l.port, cfg.caf_port, cfg.broker_rack},
                           [&answer](result<cluster::registration_result> r) { answer.set_value(std::move(r)); });
  return done.get();
}

// A ZooKeeper session may drop (or expire and renew) while a loaded machine starts the broker:
// the registration is retried while the error says "try again", for up to one session timeout,
// as Kafka waits for its ZooKeeper connection at start. So is a registration that exists: the
// session of this broker's previous process may not have ended yet (a kill -9, or a close
// the server has not applied); only another live broker with this id outlasts the wait.
result<cluster::registration_result> register_at_start(cluster::coordinator& c, const config::server_config& cfg,
                                                       bool may_wait) {
  auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(cfg.zookeeper_session_timeout_ms);
  bool told_taken = false;
  for (;;) {
    auto r = register_with(c, cfg);
    auto taken = !r && r.error() == cluster::errc::node_exists;
    if (r || !may_wait || !(taken || cluster::is_retriable(r.error())) || std::chrono::steady_clock::now() >= give_up)
      return r;
    if (!taken)
      log_line(log_level::warn, log_component::cluster, "registering broker %d: %s; retrying", cfg.broker_id, r.error().message().c_str());
    else if (!told_taken)
      log_line(log_level::warn, log_component::cluster, "registering broker %d: another session holds this broker id (this broker's previous run, until "
               "its session ends, or another broker with the same broker.id); waiting up to %d ms",
               cfg.broker_id, cfg.zookeeper_session_timeout_ms);
    told_taken = told_taken || taken;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// A start that fails after the listeners, groups and quota actor exist: each of them is
// stopped (the actor system's destructor would wait for them forever), then the offsets,
// the storage and the session are closed.
void abandon_start(node& n) {
  for (auto& started : n.listeners)
    caf::anon_send_exit(started.actor, caf::exit_reason::user_shutdown);
  if (n.quota_admin)
    caf::anon_send_exit(n.quota_admin, caf::exit_reason::user_shutdown);
  if (n.producer_ids)
    caf::anon_send_exit(n.producer_ids, caf::exit_reason::user_shutdown);
  if (n.txn_coordinator)
    caf::anon_send_exit(n.txn_coordinator, caf::exit_reason::user_shutdown);
  if (n.groups)
    for (auto& g : n.groups->close())
      caf::anon_send_exit(g, caf::exit_reason::user_shutdown);
  if (n.cluster_offsets)
    n.cluster_offsets->close();
  if (n.offsets)
    n.offsets->close();
  close_node_storage(*n.storage);
  caf::anon_send_exit(n.io_worker, caf::exit_reason::user_shutdown);
  if (n.coordinator)
    n.coordinator->close();
}

cluster::group_config group_config_of(const config::server_config& cfg) {
  cluster::group_config out;
  out.min_session_timeout_ms = cfg.group_min_session_timeout_ms;
  out.max_session_timeout_ms = cfg.group_max_session_timeout_ms;
  out.initial_rebalance_delay_ms = cfg.group_initial_rebalance_delay_ms;
  return out;
}

// The registry of the node's groups; each new group keeps its committed offsets in the
// node's __consumer_offsets and registers its members in the node's coordinator session.
std::shared_ptr<group_registry> make_group_registry(caf::actor_system& sys, const config::server_config& cfg,
                                                    std::shared_ptr<offsets_store> offsets,
                                                    std::function<int64_t()> now_ms,
                                                    std::shared_ptr<cluster::coordinator> coordinator,
                                                    uint64_t member_id_seed) {
  auto config = group_config_of(cfg);
  auto seeds = make_member_id_seeds(member_id_seed);
  return std::make_shared<group_registry>([&sys, config, offsets, now_ms, coordinator,
                                           seeds](const std::string& group_id) {
    auto store = std::make_shared<persistent_group_offsets>(group_id, offsets, now_ms);
    return spawn_group(sys, group_context{group_id, config, std::move(store), coordinator, seeds()});
  });
}

// Opens __consumer_offsets; its fsyncs run on the I/O worker.
result<std::shared_ptr<offset_log_store>> open_offsets(node_storage& ns, int64_t now_ms, caf::actor io_worker,
                                                       std::string& error_text) {
  auto run = [io_worker](std::function<std::error_code()> job) { caf::anon_send(io_worker, io_job{std::move(job)}); };
  auto cfg = config::to_log_config(ns.config);
  auto store = offset_log_store::open(*ns.dirs.front(), cfg, now_ms, run,
                                     offset_store_options{ns.config.offsets_topic_num_partitions});
  if (!store)
    error_text = "__consumer_offsets in '" + ns.dirs.front()->root() + "': " + store.error().message();
  return store;
}

// Kafka's offsets.commit.timeout.ms: how long a commit waits for the in-sync replicas.
constexpr int32_t offsets_commit_timeout_ms = 5000;

// Cluster mode: the offsets of the groups of the __consumer_offsets partitions this broker
// leads; a group's partition is the one the latest view gives it.
std::shared_ptr<replicated_offsets> make_replicated_offsets(caf::actor_system& sys, const config::server_config& cfg,
                                                            std::shared_ptr<cluster_view_cache> views) {
  auto partition_of = [views](const std::string& group) {
    auto where = cluster::locate_group_coordinator(views->snapshot()->view, group);
    return where.topic_exists() ? where.partition : -1;
  };
  return std::make_shared<replicated_offsets>(sys, partition_of, offsets_commit_timeout_ms,
                                              static_cast<size_t>(cfg.message_max_bytes));
}

// Log the states of a cluster session (lost connections, renewals after expiry); tests look
// for "zookeeper session connected".
void log_zookeeper_state(cluster::session_state s) { log_line(log_level::info, log_component::cluster, "zookeeper session %s", cluster::to_string(s)); }
void log_session_state(cluster::session_state s) { log_line(log_level::info, log_component::cluster, "coordinator session %s", cluster::to_string(s)); }

// The coordinator session: the embedded one without zookeeper.connect, else a ZooKeeper
// session (its chroot created first), waited for at most zookeeper.session.timeout.ms. The
// ZooKeeper session renews itself after expiry (cluster/renewing_session.hpp): the first
// session is connected here (blocking, at startup), later ones open without blocking (the
// renewal runs on a ZooKeeper thread) and report `connected` when they are.
result<std::shared_ptr<cluster::coordinator>> open_coordinator(const config::server_config& cfg,
                                                               std::string& error_text) {
  if (cfg.zookeeper_connect.empty())
    return std::shared_ptr<cluster::coordinator>{
      std::make_shared<cluster::embedded_coordinator>(std::make_shared<cluster::embedded_store>())};
  auto timeout = std::chrono::milliseconds(cfg.zookeeper_session_timeout_ms);
  auto connect = cfg.zookeeper_connect;
  auto first_error = std::make_shared<std::error_code>(); // the factory outlives this call
  auto session = std::make_shared<cluster::renewing_session>(
    [first = true, first_error, connect,
     timeout](cluster::session_callback on_state) mutable -> std::shared_ptr<cluster::coordinator> {
      if (std::exchange(first, false)) {
        // A session can expire while a loaded machine starts (the server answered late):
        // open another while that is all that went wrong, for up to two session timeouts.
        // (An unreachable server still fails after one timeout.)
        auto give_up = std::chrono::steady_clock::now() + 2 * timeout;
        for (;;) {
          auto zk = cluster::zookeeper_coordinator::connect(connect, timeout, timeout, on_state);
          if (zk)
            return std::move(*zk);
          if (!cluster::needs_new_session(zk.error()) || std::chrono::steady_clock::now() >= give_up) {
            *first_error = zk.error();
            return nullptr;
          }
          log_line(log_level::warn, log_component::cluster, "zookeeper.connect '%s': %s; trying again", connect.c_str(), zk.error().message().c_str());
        }
      }
      log_line(log_level::warn, log_component::cluster, "zookeeper session expired: opening a new one");
      return std::make_shared<cluster::zookeeper_coordinator>(connect, timeout, std::move(on_state));
    },
    log_zookeeper_state);
  if (*first_error || session->state() == cluster::session_state::expired) {
    auto ec = *first_error ? *first_error : std::make_error_code(std::errc::not_connected);
    error_text = "zookeeper.connect '" + cfg.zookeeper_connect + "': " + ec.message();
    return ec;
  }
  return std::shared_ptr<cluster::coordinator>{std::move(session)};
}

// A session opened by node_options::open_session, renewed after expiry in the same way
// (that factory cannot take the state callback: the renewal notices the expiry through a
// watch or a failed call instead; see renewing_session.hpp).
std::shared_ptr<cluster::coordinator> open_renewing(std::function<std::shared_ptr<cluster::coordinator>()> open) {
  auto session = std::make_shared<cluster::renewing_session>(
    [open](cluster::session_callback) { return open(); }, log_session_state);
  if (session->state() == cluster::session_state::expired)
    return nullptr;
  return session;
}

// The client quotas as stored (the file on a single node, ZooKeeper in a cluster), and the
// actor that alters them. A single node's file that does not parse stops the start; in a
// cluster the actor loads them again as it starts (and retries until that works).
status open_quotas(caf::actor_system& sys, const config::server_config& cfg, node& n, bool cluster_mode,
                   std::string& error_text) {
  n.quotas = std::make_shared<cluster::client_quota_registry>(cfg.quota_window_num, cfg.quota_window_size_seconds);
  auto store = cluster_mode ? coordinator_quota_store(n.coordinator)
                            : file_quota_store(n.storage->dirs.front()->root() + "/cafka-quotas");
  auto loaded = store->load();
  if (loaded) {
    n.quotas->replace(std::move(*loaded));
  } else if (!cluster_mode) {
    error_text = n.storage->dirs.front()->root() + "/cafka-quotas: " + loaded.error().message();
    return loaded.error();
  } else {
    log_line(log_level::warn, log_component::quotas, "loading the client quotas failed: %s; trying again", loaded.error().message().c_str());
  }
  n.quota_admin = spawn_quota_admin(sys, n.quotas, store, n.io_worker, cluster_mode ? n.coordinator : nullptr);
  return {};
}

// The producer id issuer, claiming blocks through this broker's session. A single node's
// embedded store forgets them at a stop, so there the last block is also kept in a file of
// the first log dir, which seeds the store at the next start (a file that does not parse
// stops the start: ids from 0 again could repeat the last run's).
result<caf::actor> open_producer_ids(caf::actor_system& sys, const config::server_config& cfg, node& n,
                                     bool cluster_mode, std::string& error_text) {
  auto claim = cluster::producer_id_claimer(n.coordinator, cfg.broker_id);
  if (!cluster_mode) {
    auto file = producer_id_block_file(n.storage->dirs.front()->root());
    if (auto seeded = seed_producer_id_block(*n.coordinator, file); !seeded) {
      error_text = file + ": " + seeded.error().message();
      return seeded.error();
    }
    claim = persisted_claims(std::move(claim), std::move(file), n.io_worker);
  }
  return spawn_producer_id_issuer(sys, std::move(claim));
}

} // namespace

result<node> start_node(caf::actor_system& sys, const config::server_config& cfg,
                        std::string& error_text, std::function<int64_t()> now_ms) {
  return start_node(sys, cfg, error_text, node_options{}, std::move(now_ms));
}

result<node> start_node(caf::actor_system& sys, const config::server_config& cfg,
                        std::string& error_text, const node_options& options,
                        std::function<int64_t()> now_ms) {
  // A shared session (in-process clusters) or ZooKeeper: brokers form a cluster.
  bool cluster_mode = static_cast<bool>(options.open_session) || !cfg.zookeeper_connect.empty();
  node n;
  auto ns = open_node_storage(cfg, now_ms(), error_text);
  if (!ns)
    return ns.error();
  n.storage = *ns;
  // First: commits may arrive as soon as the listeners run, and their fsyncs go here.
  n.io_worker = spawn_io_worker(sys, options.detached_io_worker);
  struct stop_worker_unless_started {
    caf::actor& worker;
    bool started = false;
    ~stop_worker_unless_started() {
      if (!started)
        caf::anon_send_exit(worker, caf::exit_reason::user_shutdown);
    }
  } worker_guard{n.io_worker};
  // A single node owns its __consumer_offsets logs; in a cluster they are replicated
  // partitions, opened with the others as the view assigns them.
  std::shared_ptr<offsets_store> offsets;
  if (cluster_mode) {
    n.views = std::make_shared<cluster_view_cache>();
    n.cluster_offsets = make_replicated_offsets(sys, cfg, n.views);
    offsets = n.cluster_offsets;
  } else {
    auto opened = open_offsets(*n.storage, now_ms(), n.io_worker, error_text);
    if (!opened) {
      close_node_storage(*n.storage);
      return opened.error();
    }
    n.offsets = *opened;
    offsets = n.offsets;
  }
  n.routes = std::make_shared<routing_table>();
  // The session exists before the groups (they register members in it); the broker
  // registers in it below, once the listeners' ports are known.
  if (options.open_session) {
    n.coordinator = open_renewing(options.open_session);
  } else {
    auto coordinator = open_coordinator(cfg, error_text);
    if (!coordinator) {
      if (n.offsets)
        n.offsets->close();
      close_node_storage(*n.storage);
      return coordinator.error();
    }
    n.coordinator = *coordinator;
  }
  if (!n.coordinator) {
    error_text = "broker " + std::to_string(cfg.broker_id) + ": no coordinator session";
    if (n.offsets)
      n.offsets->close();
    close_node_storage(*n.storage);
    return std::make_error_code(std::errc::not_connected);
  }
  n.groups = make_group_registry(sys, cfg, offsets, now_ms, n.coordinator, options.member_id_seed);
  if (cluster_mode) {
    // Groups are coordinated by the leader of their __consumer_offsets partition: the node
    // actor serves a partition's groups once it leads it and loaded its offsets.
    n.groups->coordinate_by_partition(
      [views = n.views](const std::string& group) {
        return cluster::locate_group_coordinator(views->snapshot()->view, group);
      },
      [offsets] { return offsets->groups(); });
  }
  // As Kafka loads every group of __consumer_offsets: a group with offsets but no members
  // is listed (state Empty) and described before anyone joins it again. (In cluster mode
  // the node actor does it per partition it comes to lead: see above.)
  if (!cluster_mode)
    for (auto& group_id : n.offsets->groups())
      n.groups->find_or_spawn(group_id);
  auto quotas = open_quotas(sys, cfg, n, cluster_mode, error_text);
  if (!quotas) {
    if (n.offsets)
      n.offsets->close();
    close_node_storage(*n.storage);
    return quotas.error();
  }
  n.metrics = std::make_shared<metrics::broker_metrics>();
  auto ids = open_producer_ids(sys, cfg, n, cluster_mode, error_text);
  if (!ids) {
    abandon_start(n);
    return ids.error();
  }
  n.producer_ids = *ids;
  n.txn_coordinator = spawn_txn_coordinator(
    sys, txn_coordinator_config{cfg.broker_id, cfg.transaction_max_timeout_ms, cfg.transactional_id_expiration_ms,
                                cfg.transaction_abort_timed_out_transaction_cleanup_interval_ms, n.producer_ids,
                                now_ms});
  // Listeners bind first: a port of 0 becomes the real one before anyone is told it.
  // The limits in force: a single node's stored dynamic configs over server.properties (a
  // cluster's arrive with the first view).
  auto limits = config::connection_limits_in_force(n.storage->dynamic, cfg);
  auto connections = std::make_shared<connection_counts>(limits.max_total, limits.max_per_ip,
                                                         std::move(limits.per_ip_overrides));
  // Without CAF's network layer (in-process tests and simulations) there are no sockets.
  for (auto& address : n.storage->config.listeners) {
    if (!sys.has_middleman() || !options.kafka_listeners)
      break;
    kafka_listener_context ctx{n.routes,         cfg.broker_id, static_cast<size_t>(cfg.socket_request_max_bytes),
                               now_ms,           n.producer_ids, n.groups,
                               read_limits_of(cfg), connections, cfg.connections_max_idle_ms,
                               cfg.socket_send_buffer_bytes, cfg.socket_receive_buffer_bytes,
                               n.quotas,         n.quota_admin,  n.metrics,
                               n.txn_coordinator, offsets};
    auto l = start_kafka_listener(sys, address, std::move(ctx), error_text);
    if (!l) {
      abandon_start(n);
      return l.error();
    }
    address.port = l->address.port;
    n.listeners.push_back(std::move(*l));
  }
  // (In-process clusters answer at once: a simulation must not sleep here.)
  auto registration = register_at_start(*n.coordinator, n.storage->config, !options.open_session);
  if (!registration) {
    error_text = "registering broker " + std::to_string(cfg.broker_id) + ": " + registration.error().message();
    abandon_start(n);
    return registration.error();
  }
  n.actor = spawn_node_actor(sys, node_context{n.storage, n.routes, n.io_worker, now_ms, n.coordinator,
                                               registration->controller_id, n.groups,
                                               n.views, n.cluster_offsets,
                                               std::make_shared<cluster::replication_throttle>(
                                                 cfg.quota_window_num, cfg.quota_window_size_seconds * 1000LL),
                                               n.metrics, connections, n.txn_coordinator, n.producer_ids, offsets});
  for (auto& l : n.listeners)
    attach_node(l, n.actor);
  n.cleaner = spawn_retention_cleaner(
    sys, retention_cleaner_config{n.routes, std::chrono::milliseconds(cfg.log_retention_check_interval_ms),
                                  now_ms, n.metrics});
  if (cfg.log_cleaner_enable)
    n.log_cleaner = spawn_log_cleaner(
      sys, log_cleaner_config{n.routes, cfg.log_cleaner_threads, static_cast<size_t>(cfg.log_cleaner_dedupe_buffer_size),
                              cfg.log_cleaner_io_buffer_load_factor,
                              std::chrono::milliseconds(cfg.log_cleaner_backoff_ms), now_ms,
                              options.detached_io_worker, n.metrics});
  n.offsets_expirer = spawn_offsets_expirer(
    sys, offsets_expirer_config{offsets, n.groups, std::chrono::milliseconds(cfg.offsets_retention_check_interval_ms),
                                int64_t{cfg.offsets_retention_minutes} * 60 * 1000, now_ms});
  worker_guard.started = true;
  return n;
}

} // namespace cafka
