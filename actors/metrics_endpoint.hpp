#pragma once
// The metrics endpoint (`metrics.listener`, docs/metrics.md): a small HTTP/1.1 server on its
// own port, a CAF broker like the Kafka listeners, that serves
//   GET /metrics  the Prometheus text format (metrics/broker_report.hpp), gathered per scrape
//                 from the broker's counters, the node actor and the groups coordinated here;
//   GET /health   200 while the process serves at all;
//   GET /ready    200 once the broker is registered, has applied the latest cluster view and
//                 opened its logs (the listeners are bound before the endpoint starts), else 503
//                 with the reason.
// HEAD is served as GET without the body; other methods get 405, unknown paths 404. A request
// that does not parse is answered 400 and its connection closed (431 for a head over 8 KiB);
// only that connection is affected.

#include <cstdint>
#include <memory>
#include <string>

#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "protocol/result.hpp"

namespace cafka {

class group_registry;
namespace metrics {
class broker_metrics;
}

struct metrics_endpoint_context {
  node_actor node;
  std::shared_ptr<group_registry> groups;
  std::shared_ptr<metrics::broker_metrics> metrics;
};

struct metrics_endpoint {
  caf::actor actor;
  std::string host;
  uint16_t port = 0; ///< the one bound (0 asks for a free one)
};

/// Binds `host`:`port` and spawns the endpoint's broker; blocks until the socket is bound.
/// On failure `error_text` says why, naming metrics.listener.
result<metrics_endpoint> start_metrics_endpoint(caf::actor_system& sys, const std::string& host, uint16_t port,
                                                metrics_endpoint_context ctx, std::string& error_text);

/// Closes the port and every connection of the endpoint.
void stop_metrics_endpoint(const metrics_endpoint& endpoint);

} // namespace cafka
