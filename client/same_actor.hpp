#pragma once
// Identity of actor handles. CAF compares handles by (node, actor id), so a fresh proxy
// made after a reconnect compares EQUAL to the dead proxy it replaces; the client
// therefore matches down messages against the very proxy object it holds.

#include <caf/actor_addr.hpp>
#include <caf/actor_cast.hpp>
#include <caf/actor_control_block.hpp>

namespace cafka::client {

/// True if `handle` is the actor object that `addr` refers to (not merely an equal
/// proxy of the same remote actor).
template <class Handle>
bool same_actor(const Handle& handle, const caf::actor_addr& addr) noexcept {
  return handle && caf::actor_cast<caf::actor_control_block*>(handle) == addr.get();
}

/// True if both handles are the same actor object.
template <class A, class B>
bool same_object(const A& a, const B& b) noexcept {
  return caf::actor_cast<caf::actor_control_block*>(a) == caf::actor_cast<caf::actor_control_block*>(b);
}

} // namespace cafka::client
