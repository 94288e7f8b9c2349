#pragma once
// The simulated network between hosts (sim/host.hpp): CAF's test multiplexer gives each
// host connections that are pairs of byte buffers, but a connect only succeeds if the
// test has "provided" that connection in advance. This class does that on demand, so
// that production code (the cluster member forwarding to the controller, the client's
// links) can connect by host:port whenever it likes:
//
// - For every host and every port some other live host listens on, it keeps one
//   prepared connection waiting on the connecting side (a "pending scribe").
// - Once the connecting side has taken it (a connect happened), the accept is handed to
//   the listening side; then a fresh one is prepared for the next connect.
// - A connect to an address whose host is down finds nothing prepared and fails (CAF's
//   cannot_connect_to_node); one taken while its listener went away (crash, restart) is
//   closed at once, as a refused connection.
// - When a host goes down, the peers' ends of all its connections are closed: the peers'
//   middlemen see connection_closed, their proxies go down (remote_link_unreachable).
//
// - Each end of a connection has buffers of its own; pump() (part of wire()) moves what
//   one end wrote to the other end's network buffer, unless that direction of the link
//   between the two hosts is cut: then the bytes wait (as TCP retransmits) and flow on
//   after the heal. The network never closes a connection for a cut; the world
//   (sim/cluster.cpp) closes them with drop() when a cut outlasts the middleman's
//   connection timeout, as the heartbeat would.
//
// - delay(from, to, min, max): what one end writes in that direction is delivered after a
//   delay drawn from the world's generator (the seed) between min and max, but never
//   before bytes written earlier on the same connection (TCP keeps order). A chunk is
//   what pump() found in the output buffer at one step.
// - drop(a, b): TCP does not lose bytes silently (it retransmits, or gives up and resets
//   the connection), so a "drop" closes every established connection between the two
//   hosts: both ends see connection_closed, proxies go down, and whoever wants the link
//   again connects anew. Bytes still in flight on those connections are discarded.
//
// Hosts are identified by their slot in the world and a generation (bumped by every
// restart), so that a restarted host is never wired to connections of its former life.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/host.hpp"

namespace cafka::sim {

class network {
public:
  /// A host's slot: its host object (nullptr while down) and its generation.
  struct slot {
    host* h = nullptr;
    uint64_t generation = 0;
  };

  /// Makes `port` of the host in `slot_index` accept connections (call before the
  /// host's actors publish or listen there).
  void listen(std::vector<slot>& slots, size_t slot_index, uint16_t port);

  /// Prepares and hands over connections as described above; call before each step.
  /// Returns what happened for the trace ("broker 2 -> 10.0.0.1:9192 connected", or
  /// "... refused" when the listener was gone).
  /// `now` is the world's simulated time (for delayed links), `rng` its generator.
  /// `stepped`: the slot of the only host that ran since the last call (its middleman is the
  /// only one that can have taken a prepared connection, written bytes or closed an end);
  /// nullopt: anything may have changed (a fault, a restart, time moved), look at everything.
  /// Both give the same result; the first is cheaper.
  std::vector<std::string> wire(std::vector<slot>& slots, caf::timespan now, std::mt19937_64& rng,
                                std::optional<size_t> stepped = std::nullopt);

  /// The host in `slot_index` is going down: closes the other ends of its connections
  /// (at the next wire(), or as soon as the peer's middleman owns them) and forgets its
  /// listening ports. Call while `slots[slot_index].h` is still valid.
  void drop_host(std::vector<slot>& slots, size_t slot_index);

  /// Holds the bytes from the host in slot `from` to the host in slot `to` (one
  /// direction; a cut outlives restarts) until heal(from, to).
  void cut(size_t from, size_t to);
  void heal(size_t from, size_t to);
  bool is_cut(size_t from, size_t to) const;

  /// Delays what `from` sends to `to` by a time drawn between `min` and `max` (see above);
  /// min == max == 0 removes the delay (bytes already under way keep their time).
  void delay(size_t from, size_t to, caf::timespan min, caf::timespan max);

  /// Closes every established connection between the hosts in slots `a` and `b` (both
  /// ends, as a reset; at the next wire() for ends no broker owns yet). Returns how many.
  size_t drop(std::vector<slot>& slots, size_t a, size_t b);

  /// Time from `now` until the next delayed chunk is due on a direction that is not cut;
  /// nullopt if none is under way.
  std::optional<caf::timespan> next_delivery(caf::timespan now) const;

private:
  struct listener {
    size_t server;
    uint64_t generation;
    uint16_t port;
    int64_t accept_id;
  };
  struct connection {
    size_t client;
    uint64_t client_generation;
    size_t server;
    uint64_t server_generation;
    std::string address;
    uint16_t port;
    int64_t accept_id;
    int64_t client_id;
    int64_t server_id;
    bool taken = false;
    /// Each end once its broker owned it (a later close is that broker's).
    bool client_owned = false;
    bool server_owned = false;
    bool close_pending = false; ///< an end was closed; the other closes once the FIN can pass
    /// Bytes under way (delayed), oldest first, per direction.
    struct chunk {
      caf::timespan due;
      std::vector<char> bytes;
    };
    std::deque<chunk> to_server;
    std::deque<chunk> to_client;
  };
  void pump(std::vector<slot>& slots, caf::timespan now, std::mt19937_64& rng, std::optional<size_t> stepped);
  /// Connections one end's broker closed (a redundant BASP connection, a shutdown): the other
  /// end is closed too, as TCP's FIN would, once what was sent before reached it.
  void propagate_closes(std::vector<slot>& slots, std::vector<std::string>& events, std::optional<size_t> stepped);

  struct end {
    size_t host;
    uint64_t generation;
    int64_t id;
  };
  std::vector<listener> listeners_;
  std::vector<end> closing_; ///< ends to close as soon as a broker owns them
  std::set<std::pair<size_t, size_t>> cuts_;
  std::map<std::pair<size_t, size_t>, std::pair<caf::timespan, caf::timespan>> delays_;
  std::vector<connection> connections_;
  int64_t next_id_ = 1;
};

} // namespace cafka::sim
