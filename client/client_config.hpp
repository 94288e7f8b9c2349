#pragma once
// What every actor system that uses cafka's client needs.

#include <caf/fwd.hpp>

namespace cafka::client {

/// cafka::configure_actor_system (middleman, cafka's types and error category, heartbeat)
/// plus the client's type-ID block. Call it on the config before creating the system.
void configure_client(caf::actor_system_config& cfg);

} // namespace cafka::client
