#pragma once
// Asking an actor inside a simulated cluster from the test's code: sends a request from
// a scoped actor of `sys` (a broker's or the client's actor system) and runs the world
// until the answer is there. Includes caf/all.hpp: meant for tests, not for headers.
//
//   auto md = sim::ask<cluster_metadata>(c, *b.system, b.n->actor, 10s, metadata_atom_v,
//                                        metadata_request{{}, true, false});

#include <chrono>
#include <utility>

#include <caf/all.hpp>

#include "sim/cluster.hpp"

namespace cafka::sim {

/// The single-value answer of `dest` to `args`, or its error; request_timeout if nothing
/// came within `max_sim_time` of simulated time.
template <class Result, class Dest, class... Args>
caf::expected<Result> ask(cluster& c, caf::actor_system& sys, const Dest& dest, std::chrono::milliseconds max_sim_time,
                          Args&&... args) {
  caf::scoped_actor self{sys, true};
  auto answer = self->request(dest, max_sim_time, std::forward<Args>(args)...);
  // The request's own timeout fires inside this window, so something always arrives.
  if (!c.run_until([&] { return !self->mailbox().empty(); }, max_sim_time + std::chrono::milliseconds(1)))
    return caf::make_error(caf::sec::request_timeout);
  caf::expected<Result> out{caf::error{}};
  answer.receive([&](Result& r) { out = std::move(r); }, [&](caf::error& e) { out = std::move(e); });
  return out;
}

} // namespace cafka::sim
