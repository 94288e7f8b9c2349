#pragma once
// One simulated machine: its own caf::actor_system under CAF's deterministic scheduler
// (scheduler.policy=testing: no threads, nothing runs until the simulation says so) and
// CAF's test multiplexer as its network backend (no sockets: connections are pairs of
// byte buffers that sim/network.hpp wires between hosts). The world (sim/cluster.hpp)
// asks each host for one unit of work at a time and moves every host's clock together.

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include <caf/fwd.hpp>
#include <caf/timespan.hpp>

namespace caf::scheduler {
class test_coordinator;
}
namespace caf::io::network {
class test_multiplexer;
}

namespace cafka::sim {

class host {
public:
  /// `address` is what others connect to (a made-up IPv4 address, e.g. "10.0.0.1");
  /// `client` registers the client library's message types as well.
  host(std::string name, std::string address, bool client);
  ~host();
  host(const host&) = delete;
  host& operator=(const host&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::string& address() const noexcept { return address_; }

  caf::actor_system& system();
  caf::scheduler::test_coordinator& scheduler();
  caf::io::network::test_multiplexer& network();

  /// Runs one unit of work if there is any: one actor's mailbox, one I/O runnable, one
  /// read of delivered bytes, or one pending accept; which kind is tried first is drawn
  /// from `rng`. False when the host is idle (until time moves or bytes arrive).
  bool step(std::mt19937_64& rng);

  /// Time until this host's earliest timer; nullopt if none is pending.
  std::optional<caf::timespan> next_timer() const;

  /// Moves this host's clock forward, firing every timer that falls due.
  void advance(caf::timespan d);

  /// Time on this host's clock since the host was created.
  caf::timespan elapsed() const;

  /// The actor system's destructor will not wait for its actors (a crashed machine's
  /// actors are abandoned, not stopped).
  void abandon_actors();

  struct impl; ///< public only for host.cpp's keeping of hosts that stay busy

private:
  std::string name_;
  std::string address_;
  bool client_ = false;
  std::unique_ptr<impl> impl_;
};

} // namespace cafka::sim
