#pragma once
// cafka::sim — a whole cafka cluster inside one test process, deterministic and
// replayable from a seed (docs/simulation.md).
//
//   sim::cluster c{sim::options{3, 42}};            // 3 brokers, seed 42
//   c.run_until([&] { return c.converged(); }, 30s);  // simulated time, not wall time
//   c.crash(0); c.run_until(..., 60s); c.restart(0);
//   for (auto& line : c.trace()) std::cout << line << "\n";
//
// Each broker is a host (sim/host.hpp): its own caf::actor_system under CAF's
// deterministic scheduler with CAF's test multiplexer as its network, its own temporary
// log dir, and its own session of one shared cluster::embedded_store (the coordinator).
// Brokers reach each other (topic creates forwarded to the controller) and clients reach
// brokers through CAF's middleman over the simulated network (sim/network.hpp), with
// real serialization and real proxies. One more host, client(), is for cafka's client
// library (producers, subscriptions), which runs there unchanged.
//
// The world runs one unit of work at a time: among the hosts that have work, the seed's
// generator picks which one runs (and which kind of work it runs first). When no host
// has work, simulated time jumps to the earliest timer of any host (every host's clock
// moves together) or to the next scheduled fault. Nothing reads the wall clock: the
// nodes' now_ms is simulated time (from a fixed epoch).
//
// Faults (docs/simulation.md, "Faults today"): crash (a process or a whole machine: no
// flush, the network ends close, the session expires after zookeeper.session.timeout.ms
// of simulated time), restart (same broker id and log dir), expire_session; per
// direction of a link: cut/heal, delay (seed-drawn, order kept), drop (closes the
// connections, as a TCP reset); the coordinator as a pseudo-host (coordinator_host) whose
// link can be cut, and isolate/rejoin (every link of a broker); pause (a GC pause: the
// host does not run, its timers fire late). A broker the coordinator hears nothing from
// (cut from it, or paused) has its session disconnected, and expired once that lasts
// zookeeper.session.timeout.ms of simulated time (the world drives session liveness, as
// ZooKeeper's server does); the node's renewing session then opens a new one, which stays
// disconnected until the coordinator hears from the broker again. Every fault is in the
// trace. With CAFKA_SIM_TRACE=1 in the environment a cluster prints its trace to stderr
// when it is destroyed.
//
// Threading: everything runs on the calling thread; a cluster is not thread-safe.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "cluster/metadata.hpp"
#include "config/server_config.hpp"

namespace cafka::sim {

/// What a crash takes with it.
enum class crash_mode {
  /// The process dies (kill -9): what was written reached the OS and survives.
  process,
  /// The machine dies (power loss): every partition log loses what its flush policy had
  /// not fsynced yet (it is cut back to its recovery point).
  machine,
};

struct options {
  int brokers = 3;
  uint64_t seed = 42;
  /// Applied to each broker's configuration after the simulation's defaults (broker id,
  /// log dir, addresses, num.partitions=3, zookeeper.session.timeout.ms=6000).
  std::function<void(config::server_config&)> configure;
  /// What the middleman heartbeat does in production (configure_actor_system: a
  /// connection that heard nothing for this long is closed): a link cut for this long, or
  /// a broker paused for this long, has its connections closed at both ends (and again
  /// every timeout while the cut lasts). 0: never (a cut holds bytes until the heal).
  std::chrono::milliseconds connection_timeout = middleman_connection_timeout;
};

/// What a test sees of one broker.
struct broker_handle {
  int32_t id = 0;
  std::string address; ///< the host's made-up IPv4 address, e.g. "10.0.0.1"
  uint16_t caf_port = 0;
  bool up = false;
  caf::actor_system* system = nullptr; ///< null while down
  node* n = nullptr;                   ///< null while down
};

class cluster {
public:
  explicit cluster(options opts);
  ~cluster();
  cluster(const cluster&) = delete;
  cluster& operator=(const cluster&) = delete;

  // -- running --

  /// Runs until `done()` holds (checked after every unit of work) or `max_sim_time` of
  /// simulated time has passed; returns done(). Also stops (false) after a bound on
  /// the number of steps, so that a livelock cannot hang a test.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds max_sim_time);

  /// Runs for `d` of simulated time.
  void advance(std::chrono::milliseconds d);

  /// Simulated time since the cluster was created.
  std::chrono::milliseconds now() const;

  // -- the hosts --

  size_t size() const; ///< brokers
  broker_handle broker(size_t i);
  /// The client host's actor system (cafka's client library types registered).
  caf::actor_system& client();
  /// Adds one more client host (address 10.0.1.2, 10.0.1.3, ...), so that clients can be
  /// cut off from the brokers one at a time; returns its host index (size() + 1, + 2, ...)
  /// for client(host), cut() and heal().
  size_t add_client();
  /// A client host's actor system: client_host (the first one) or an index from add_client().
  caf::actor_system& client(size_t host);
  /// "host:port" of every broker's node actor, for producer_config::bootstrap_servers.
  std::string bootstrap() const;

  /// True when every running broker's view lists exactly the running brokers and the
  /// same live controller.
  bool converged() const;
  /// The controller every running broker agrees on; -1 if none or they disagree.
  int32_t controller() const;

  // -- faults --

  /// Kills broker i without a clean shutdown: its actors are killed (no flush, no
  /// checkpoint), the other ends of its connections close, and its coordinator session
  /// stays until it expires after zookeeper.session.timeout.ms of simulated time. With
  /// crash_mode::machine its logs also lose what was not fsynced.
  void crash(size_t i, crash_mode mode = crash_mode::process);
  /// Stops broker i cleanly, as cafka-server does on SIGTERM: its groups, partitions and
  /// logs close in order (flushed, with a clean-shutdown mark, so the restart scans
  /// nothing), and its coordinator session closes (the others see it leave at once). Runs
  /// the world meanwhile, for at most `max_sim_time`. True if the storage closed cleanly.
  /// restart(i) starts it again. Throws std::logic_error if it is down or paused.
  bool stop(size_t i, std::chrono::milliseconds max_sim_time = std::chrono::milliseconds(120000));
  /// Starts a crashed or stopped broker again with the same broker id, log dir and address. If its
  /// old session has not expired yet, it is expired first.
  void restart(size_t i);
  /// Expires broker i's coordinator session (the broker keeps running).
  void expire_session(size_t i);

  /// The client host, for cut(), heal(), delay() and drop().
  static constexpr size_t client_host = static_cast<size_t>(-1);
  /// The coordinator (the shared store, "ZooKeeper") as a pseudo-host for cut() and
  /// heal() only: cut(i, coordinator_host) or cut(coordinator_host, i) silences broker i's
  /// session (a session needs both directions): it is disconnected at once and expired
  /// after zookeeper.session.timeout.ms of simulated time unless healed before; after the
  /// heal it reconnects (or, after an expiry, the node's new session connects and the
  /// broker registers again).
  static constexpr size_t coordinator_host = static_cast<size_t>(-2);
  /// Cuts one direction of the link between two hosts (broker indexes, client_host, an
  /// add_client() index or coordinator_host): what `from` sends to `to` waits until heal(from, to), then flows
  /// on; connections stay open over a short outage, and are closed at both ends once the
  /// cut lasts options::connection_timeout (the middleman heartbeat's verdict), and again
  /// every timeout while it lasts.
  void cut(size_t from, size_t to);
  void heal(size_t from, size_t to);

  /// Cuts every link of host i (a broker index, client_host or an add_client() index),
  /// both directions: to every other broker and client host, and a broker's link to the
  /// coordinator. rejoin(i) heals them all. Throws std::out_of_range for no such host.
  void isolate(size_t i);
  void rejoin(size_t i);

  /// Delays what `from` sends to `to` (hosts as for cut(), not the coordinator) by a time
  /// drawn from the seed between `min` and `max` for each chunk, keeping the order within
  /// a connection; delay(from, to, 0ms, 0ms) removes it. Throws std::invalid_argument if
  /// min > max or min < 0.
  void delay(size_t from, size_t to, std::chrono::milliseconds min, std::chrono::milliseconds max);

  /// A lost link, as TCP reports one: every established connection between the two hosts
  /// is closed at both ends (the middlemen see connection_closed, proxies go down, clients
  /// and brokers connect again when they need to). Returns how many were closed.
  size_t drop(size_t from, size_t to);

  /// A long GC pause of broker i: for `d` of simulated time it runs nothing and its clock
  /// stands still; then its clock catches up at once (every timer that fell due fires).
  /// Its peers run on; bytes sent to it wait in its buffers (a pause longer than
  /// options::connection_timeout closes its connections once that timeout passed); the
  /// coordinator hears nothing from it (see coordinator_host). Throws std::logic_error if it is down or already
  /// paused, std::invalid_argument if d <= 0.
  void pause(size_t i, std::chrono::milliseconds d);
  /// True while broker i is paused.
  bool paused(size_t i) const;

  // -- observing --

  /// What happened, in order, each line prefixed with the simulated time: brokers up and
  /// down, faults, every new cluster view a broker loaded (its brokers, controller and
  /// epoch, topics), controller changes.
  const std::vector<std::string>& trace() const;
  /// Adds a line to the trace (tests may mark their own steps).
  void note(const std::string& what);

  /// What the coordinator records now for topic/partition (leader, leader epoch, ISR): the
  /// truth the brokers' views follow, read by an observer session of the world's own (no
  /// broker's; it is opened on first use and never cut or expired); nullopt if nothing is
  /// recorded.
  std::optional<cafka::cluster::partition_state> recorded_state(const std::string& topic, int32_t partition);
  /// What the coordinator records now as the topic's assignment (replicas per partition and
  /// the reassignments under way), read the same way; nullopt if the topic is not recorded.
  std::optional<cafka::cluster::topic_assignment> recorded_assignment(const std::string& topic);
  /// Broker i's log dir (the same across crashes and restarts).
  const std::string& log_dir(size_t i) const;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace cafka::sim
