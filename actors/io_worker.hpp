#pragma once
// The node's I/O worker: a detached actor (its own thread) that runs blocking disk work
// — fsync, deleting files, writing checkpoints — so that it never runs on a scheduler
// thread. Requests are served in order; the reply is empty on success or the error.

#include <functional>
#include <system_error>

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/fwd.hpp>

namespace cafka {

/// A blocking job. Local only: it never crosses the network.
struct io_job {
  std::function<std::error_code()> run;
};

/// `detached` (the default): its own thread. The deterministic simulation (sim/) passes
/// false: there every actor runs on the test thread, so a scheduled worker blocks nothing
/// else and keeps the run order under the simulation's control.
caf::actor spawn_io_worker(caf::actor_system& sys, bool detached = true);

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::io_job)
