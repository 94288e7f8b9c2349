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

/// ask() of broker i's node actor, repeated until it is not an error (at most 50 times, 100 ms
/// of simulated time apart): a view names a partition's leader before that broker has opened
/// the partition (on its I/O worker), and until then it answers NOT_LEADER_OR_FOLLOWER, as to
/// any client.
template <class Result, class... Args>
caf::expected<Result> ask_until_served(cluster& c, size_t i, Args... args) {
  caf::expected<Result> r{caf::error{}};
  for (int attempt = 0; attempt < 50; ++attempt) {
    auto b = c.broker(i);
    r = ask<Result>(c, *b.system, b.n->actor, std::chrono::seconds(10), args...);
    if (r)
      break;
    c.advance(std::chrono::milliseconds(100));
  }
  return r;
}

} // namespace cafka::sim
