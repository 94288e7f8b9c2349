#pragma once
// Creating a path together with its missing ancestors, on top of any coordinator.
//
// The creates are issued back to back, top-down, without waiting (ZooKeeper serves one
// session's calls in order, so each parent exists before its child's create is served); no
// callback calls back into the coordinator. `c` is used only during the call; `done` is called
// once, from the completion of the last create, following the coordinator's callback contract
// (possibly on its internal thread, possibly before the function returns). If the session is
// closed before the creates complete, `done` is not called.

#include <string>
#include <string_view>

#include "cluster/coordinator.hpp"

namespace cafka::cluster {

/// Creates `path` and its missing ancestors as empty persistent nodes. node_exists anywhere
/// counts as success, so this is idempotent. `done` gets success or the first other error in
/// top-down order (invalid_path, no_children_for_ephemerals, connection_loss, ...).
void ensure_path(coordinator& c, const std::string& path, status_callback done);

/// Creates the missing ancestors of `path` as empty persistent nodes (node_exists counts as
/// success for them), then `path` itself with `data` and `mode`; that last create's errors,
/// node_exists included, are reported. A sequential `path` may end in '/' or a name prefix.
void create_recursive(coordinator& c, const std::string& path, std::string_view data,
                      create_mode mode, create_callback done);

} // namespace cafka::cluster
