#pragma once
// Blocking connection to a cafka node's actor through CAF's middleman.
//
// Threads: both functions BLOCK the calling thread (up to `timeout`) and must not be
// called from an actor (they wait on a scoped actor). Actors connect asynchronously:
// the producer and subscriptions do so themselves (node_link.hpp).

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <caf/expected.hpp>
#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"

namespace cafka::client {

/// The node actor published at host:port (its caf.port). Retries with backoff until
/// `timeout` while the node is not reachable yet, and never returns the stale proxy of a
/// lost connection (node_link.hpp). `sys` must be configured with configure_client().
/// Errors: network_exception (category "cafka") naming the address and the last
/// connection error once `timeout` has passed; CAF's unexpected_actor_messaging_interface
/// (in the context) if something other than a cafka node is published there.
caf::expected<node_actor> connect(caf::actor_system& sys, const std::string& host, uint16_t port,
                                  std::chrono::milliseconds timeout);

/// The same for a `--bootstrap-server` string "host:port[,host:port...]" (tried in turn).
/// A malformed string fails at once with caf::sec::invalid_argument (bootstrap.hpp).
caf::expected<node_actor> connect(caf::actor_system& sys, std::string_view bootstrap,
                                  std::chrono::milliseconds timeout);

} // namespace cafka::client
