#pragma once
// The retention cleaner: every log.retention.check.interval.ms it asks every partition
// actor (each applies its own topic's policy) to apply time and size retention, and
// logs what was deleted.

#include <chrono>
#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"

namespace cafka {

class routing_table;
namespace metrics {
class broker_metrics;
}

using retention_cleaner_actor = caf::typed_actor<
  /// One retention pass (also what the timer sends).
  caf::reacts_to<caf::tick_atom>>;

struct retention_cleaner_config {
  std::shared_ptr<const routing_table> routes;
  std::chrono::milliseconds interval{300000};
  /// Milliseconds since the epoch; replaceable for simulated time.
  std::function<int64_t()> now_ms;
  /// Counts passes and what they deleted; may be null.
  std::shared_ptr<metrics::broker_metrics> metrics;
};

retention_cleaner_actor spawn_retention_cleaner(caf::actor_system& sys, retention_cleaner_config cfg);

} // namespace cafka
