#pragma once
// One request from a tool's main thread to an actor (a node, a group), BLOCKING for at most
// `timeout`: the tools are short programs that ask, print and exit. Never use it on an
// actor's thread.

#include <chrono>
#include <utility>

#include <caf/actor_system.hpp>
#include <caf/expected.hpp>
#include <caf/scoped_actor.hpp>

namespace cafka::tools {

/// The reply, or the error (also the timeout's).
template <class Result, class Handle, class... Ts>
caf::expected<Result> ask(caf::actor_system& sys, const Handle& to, std::chrono::milliseconds timeout, Ts&&... xs) {
  caf::expected<Result> out{Result{}};
  caf::scoped_actor self{sys};
  self->request(to, timeout, std::forward<Ts>(xs)...)
    .receive([&](Result& r) { out = std::move(r); }, [&](caf::error& e) { out = std::move(e); });
  return out;
}

/// The same for a request answered with nothing but success or an error.
template <class Handle, class... Ts>
caf::error tell(caf::actor_system& sys, const Handle& to, std::chrono::milliseconds timeout, Ts&&... xs) {
  caf::error out;
  caf::scoped_actor self{sys};
  self->request(to, timeout, std::forward<Ts>(xs)...).receive([] {}, [&](caf::error& e) { out = std::move(e); });
  return out;
}

} // namespace cafka::tools
