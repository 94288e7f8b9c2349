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
// Faults so far: crash (a process or a whole machine: no flush, the network ends close,
// the session expires after zookeeper.session.timeout.ms of simulated time), restart
// (same broker id and log dir), expire_session, cut/heal one direction of a link. See
// docs/simulation.md for what is not there yet. With CAFKA_SIM_TRACE=1 in the environment a cluster prints its trace to
// stderr when it is destroyed.
//
// Threading: everything runs on the calling thread; a cluster is not thread-safe.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "actors/node.hpp"
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
  /// Starts a crashed broker again with the same broker id, log dir and address. If its
  /// old session has not expired yet, it is expired first.
  void restart(size_t i);
  /// Expires broker i's coordinator session (the broker keeps running).
  void expire_session(size_t i);

  /// The client host, for cut() and heal().
  static constexpr size_t client_host = static_cast<size_t>(-1);
  /// Cuts one direction of the link between two hosts (broker indexes, client_host or an
  /// add_client() index):
  /// what `from` sends to `to` waits until heal(from, to), then flows on; connections
  /// stay open, as TCP's do over a short outage. The coordinator is not on this network
  /// (sessions fail only through expire_session for now).
  void cut(size_t from, size_t to);
  void heal(size_t from, size_t to);

  // -- observing --

  /// What happened, in order, each line prefixed with the simulated time: brokers up and
  /// down, faults, every new cluster view a broker loaded (its brokers, controller and
  /// epoch, topics), controller changes.
  const std::vector<std::string>& trace() const;
  /// Adds a line to the trace (tests may mark their own steps).
  void note(const std::string& what);

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace cafka::sim
