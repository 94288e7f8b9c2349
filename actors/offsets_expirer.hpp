#pragma once
// The offsets expirer: every offsets.retention.check.interval.ms it removes the committed
// offsets that expired (offsets.retention.minutes, see cluster/offset_table.hpp) from the
// offsets_store. A group counts as empty when it has no actor, or its actor describes
// it with no members; a group whose actor does not answer counts as not empty (its
// offsets are kept until the next pass).

#include <chrono>
#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"

namespace cafka {

class group_registry;
class offsets_store;

using offsets_expirer_actor = caf::typed_actor<
  /// One expiry pass (also what the timer sends).
  caf::reacts_to<caf::tick_atom>>;

struct offsets_expirer_config {
  std::shared_ptr<offsets_store> store;
  std::shared_ptr<group_registry> groups;
  std::chrono::milliseconds interval{600000};
  int64_t retention_ms = 10080LL * 60 * 1000;
  /// Milliseconds since the epoch; replaceable for simulated time.
  std::function<int64_t()> now_ms;
};

offsets_expirer_actor spawn_offsets_expirer(caf::actor_system& sys, offsets_expirer_config cfg);

} // namespace cafka
