#pragma once
// Following NOT_COORDINATOR to the broker that coordinates a group, as pure logic (no actor
// system). In cluster mode a node that does not coordinate a group answers
// group_coordinator_atom with kafka_error::not_coordinator whose context is
// (int32_t coordinator id, std::string text) (actors/node_actor.hpp); the id may be the
// answering broker itself (it is taking the group over) or missing (the node shuts down).
//
// The client asks that broker next, at most ONE hop per lookup: a second NOT_COORDINATOR
// (the views of the brokers disagree for a moment) is reported, and the caller backs off
// and starts over from its bootstrap node, as for any retriable error.

#include <cstdint>
#include <optional>

#include <caf/fwd.hpp>

namespace cafka::client {

/// The broker to ask next after `err` from a node's group_coordinator_atom: the id carried
/// by a not_coordinator error, unless it is `asked` (the broker that answered, if the
/// caller knows it). Nothing for any other error, or an id that is not a broker (< 0).
std::optional<int32_t> coordinator_hint(const caf::error& err, std::optional<int32_t> asked = std::nullopt);

} // namespace cafka::client
