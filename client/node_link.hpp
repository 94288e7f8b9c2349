#pragma once
// A client's line to a cafka node: one actor that holds the node actor (a proxy made by
// CAF's middleman), notices a lost connection (it monitors the proxy; the heartbeat set
// by configure_actor_system() catches hung peers), reconnects, and answers metadata
// requests, holding them while it reconnects.
//
// Reconnecting goes through the middleman actor (connect_atom) with a finite timeout per
// attempt and exponential backoff between attempts, over the endpoints in turn. The
// middleman caches host:port -> proxy and can hand back the dead proxy of the lost
// connection (or one whose loss it has not noticed yet); a new proxy is therefore
// monitored (a dead proxy's down message is enqueued by monitor() itself) and probed
// with a list_topics request, and only used once that is answered. Requests that were
// out at the node when the connection dropped are sent again after the reconnect.
//
// Every request has a deadline (request_timeout from when it arrived): one that could
// not be answered by then fails with network_exception (no connection; the context
// names the endpoint and the last connection error) or with the node's own error.

#include <chrono>
#include <cstdint>
#include <vector>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/node_actor.hpp"
#include "client/atoms.hpp"
#include "client/bootstrap.hpp"
#include "client/retry.hpp"

namespace cafka::client {

using node_link_actor = caf::typed_actor<
  /// Forwards to the node (waiting for a connection first).
  caf::replies_to<metadata_atom, metadata_request>::with<cluster_metadata>,
  /// The current node actor, once connected.
  caf::replies_to<caf::get_atom>::with<node_actor>,
  /// Internal: connection attempt number N.
  caf::reacts_to<caf::connect_atom, uint64_t>,
  /// Internal: the deadline of waiting request N.
  caf::reacts_to<caf::timeout_atom, uint64_t>,
  /// Internal: send waiting requests again after a backoff.
  caf::reacts_to<retry_atom>>;

struct link_options {
  /// Where to (re)connect, tried in turn. Empty: the address of the initial node's
  /// connection, asked from the middleman (no reconnect if the node is local or that
  /// fails).
  std::vector<endpoint> endpoints;
  /// The deadline of each request (and of each request to the node).
  std::chrono::milliseconds request_timeout{30000};
  /// One connection attempt (TCP connect plus CAF's handshake).
  std::chrono::milliseconds connect_timeout{5000};
  backoff_policy reconnect_backoff{std::chrono::milliseconds(100), std::chrono::milliseconds(2000)};
};

/// Spawns a link. `node` may be invalid; then the link connects to the endpoints first.
/// The link runs until it is sent an exit message (owners do that when they stop).
node_link_actor spawn_node_link(caf::actor_system& sys, node_actor node, link_options opts);

} // namespace cafka::client
