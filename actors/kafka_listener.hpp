#pragma once
// The Kafka wire-protocol listener: one io broker per entry of `listeners`. It frames
// requests (size:i32 + bytes, at most socket.request.max.bytes), decodes them, hands
// the work to partition actors and the node actor, and writes each connection's
// responses in the order of its requests. Malformed, unsupported or oversized requests
// close that connection only, with one log line. Back-pressure and connection limits:
// actors/connection_limits.hpp (a connection is not read from while it has too many
// unanswered requests or unsent response bytes, or the listener too many requests).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include "actors/connection_limits.hpp"
#include "actors/node_actor.hpp"
#include "config/listener.hpp"
#include "config/server_config.hpp"
#include "protocol/result.hpp"

namespace cafka {

class routing_table;
class group_registry;
class offsets_store;
namespace cluster {
class client_quota_registry;
}
namespace metrics {
class broker_metrics;
}

struct kafka_listener_context {
  std::shared_ptr<routing_table> routes;
  int32_t broker_id = 0;
  size_t max_request_bytes = 100 * 1024 * 1024; ///< socket.request.max.bytes
  std::function<int64_t()> now_ms;
  caf::actor producer_ids; ///< the node's producer id issuer
  std::shared_ptr<group_registry> groups; ///< the consumer groups of this node
  read_limits limits;
  /// Shared by the broker's listeners (max.connections counts them all).
  std::shared_ptr<connection_counts> connections;
  int64_t connections_max_idle_ms = 600000;
  int32_t socket_send_buffer_bytes = -1; ///< -1: the OS default
  int32_t socket_receive_buffer_bytes = -1;
  /// Client quotas (shared by the broker's listeners) and the actor that alters them; a
  /// listener without them enforces none and refuses AlterClientQuotas.
  std::shared_ptr<cluster::client_quota_registry> quotas;
  caf::actor quota_admin;
  /// Requests, errors, bytes and messages per topic, connections; may be null.
  std::shared_ptr<metrics::broker_metrics> metrics;
  /// The node's transaction coordinator (actors/txn_coordinator.hpp); none: transactional
  /// requests are answered COORDINATOR_NOT_AVAILABLE.
  caf::actor txn_coordinator;
  /// Every group's committed offsets: TxnOffsetCommit writes there directly.
  std::shared_ptr<offsets_store> offsets;
};

/// The listener limits that server.properties sets.
read_limits read_limits_of(const config::server_config& cfg);

struct kafka_listener {
  caf::actor actor;
  config::listener address; ///< with the port actually bound
};

/// Binds the listener's host and port (0 = a free port) and spawns its broker. Blocks
/// the caller until the socket is bound; `error_text` names the listener on failure.
result<kafka_listener> start_kafka_listener(caf::actor_system& sys, const config::listener& address,
                                            kafka_listener_context ctx, std::string& error_text);

/// Hands the node actor to a listener: metadata and topic administration go there.
void attach_node(const kafka_listener& listener, const node_actor& node);

} // namespace cafka
