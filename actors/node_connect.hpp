#pragma once
// What the middleman's answer to a connect_atom is worth to a broker that looks for another
// broker's node actor (the cluster member's links, the replica fetcher).

#include <optional>
#include <set>
#include <string>

#include <caf/actor_system.hpp>

#include "actors/node_actor.hpp"

namespace cafka {

/// Why `ptr` (offering `ifs`) is no usable node actor; nothing if it is one. `lost_proxy`: it
/// is the proxy of the connection just lost, which the middleman may hand back from its cache
/// (caf-0.17-notes.md section 4).
inline std::optional<std::string> unusable_node(caf::actor_system& sys, const caf::strong_actor_ptr& ptr,
                                               const std::set<std::string>& ifs, bool lost_proxy) {
  if (!ptr || !sys.assignable<node_actor>(ifs))
    return "no cafka node at its caf.port";
  if (lost_proxy)
    return "the middleman's cached proxy of the lost connection";
  return std::nullopt;
}

} // namespace cafka
