#pragma once
// What the group APIs' handlers (kafka_serve_group.cpp, kafka_serve_group_admin.cpp) share:
// how a group's actor is found and how its failures become Kafka errors.

#include <optional>
#include <string>

#include <caf/atom.hpp>
#include <caf/error.hpp>
#include <caf/timespan.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/kafka_serve.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka {

// No CAF timeout on requests to group actors: a JoinGroup is held for as long as the
// rebalance takes (up to the members' rebalance timeout, minutes), and the actor answers
// everything it holds when it stops. (A finite timeout would also cost CAF's clock thread
// two wake-ups per request, see partition_timeout in kafka_serve_data.cpp.)
inline constexpr auto group_timeout = caf::infinite;

// A failed request to a group actor: the group's Kafka error, or COORDINATOR_NOT_AVAILABLE
// when the actor is gone (the node is stopping); clients then look for the coordinator again.
inline kafka_error group_error(const caf::error& err) {
  if (err.category() == caf::atom("cafka"))
    return static_cast<kafka_error>(err.code());
  return kafka_error::coordinator_not_available;
}

// Cluster mode, for a group this node does not serve now: COORDINATOR_LOAD_IN_PROGRESS while
// it takes the group over (it leads the offsets partition, and loads it; the client retries
// here), NOT_COORDINATOR when another broker (or none now) coordinates it (the client looks
// for the coordinator again). none: served here.
inline kafka_error coordinator_error(const kafka_services& s, const std::string& group_id) {
  using coordination = group_registry::coordination;
  switch (s.groups ? s.groups->coordination_of(group_id, s.broker_id) : coordination::here) {
    case coordination::here:
      return kafka_error::none;
    case coordination::loading:
      return kafka_error::coordinator_load_in_progress;
    case coordination::elsewhere:
      break;
  }
  return kafka_error::not_coordinator;
}

// The group's actor for a request about existing members; nullopt if it has none.
inline std::optional<group_actor> existing_group(const kafka_services& s, const std::string& group_id) {
  if (!s.groups)
    return std::nullopt;
  return s.groups->find(group_id);
}

} // namespace cafka
