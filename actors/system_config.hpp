#pragma once
// What every actor system that runs or talks to a cafka node needs.

#include <chrono>

#include <caf/fwd.hpp>

namespace cafka {

/// The middleman heartbeat configure_actor_system() turns on: a heartbeat every interval,
/// and a connection that heard nothing for the timeout is closed (a hung or cut-off peer).
constexpr std::chrono::milliseconds middleman_heartbeat_interval{500};
constexpr std::chrono::milliseconds middleman_connection_timeout{5000};

/// Loads CAF's middleman, registers cafka's message types and its "cafka" error
/// category, turns on the middleman heartbeat so that a hung peer is noticed, and runs
/// actors on CAF's work-sharing scheduler with one worker per core (at least 2). The
/// secret proved on caf.port connections (actors/caf_port.hpp) is the contents of the file
/// named by the environment variable CAFKA_CAF_SECRET_FILE, else the built-in one.
void configure_actor_system(caf::actor_system_config& cfg);

/// Only the message types and the error category (no middleman): for in-process use,
/// e.g. tests under CAF's deterministic scheduler.
void register_cafka_types(caf::actor_system_config& cfg);

} // namespace cafka
