#pragma once
// cluster_loader: reads the whole cluster_view (cluster/cluster_view.hpp) from a coordinator as
// a chain of asynchronous calls, and arms the watches a broker needs to learn of any change:
//
//   children of /brokers/ids      a broker registered or its session ended
//   children of /brokers/topics   a topic was created or deleted
//   exists   /controller          a controller was elected or its session ended
//   exists   each partition state a leader, leader epoch or ISR changed (or the state appeared)
//   exists   each topic config    a config override changed (or appeared)
//
// (exists() rather than get() for data nodes, because only exists() arms a watch on a node that
// is missing — a topic whose states are still being written, or no controller.)
//
// Every fired watch is passed to the `on_change` watcher given at construction; the owner turns
// it into an actor message and calls load() again (a full reload: simple, and the cluster
// metadata is small). To keep that loop from multiplying watches (coordinator watches are not
// de-duplicated), the loader remembers which watches of the current session are armed and
// arms each (kind, path) at most once; a fired watch is forgotten before `on_change` runs, so the
// reload it triggers re-arms it. Watches are remembered per session: a new session (after
// expiry) arms everything again. Expiry reports every watch (watch_event_type::session), so
// nothing stays remembered; after close() the few entries of that session are kept (harmless).
//
// What a load tolerates: nodes that vanish between listing and reading (a broker dying, a topic
// being deleted) are left out, missing states and configs stay default (their exists() watch
// fires when they appear), and data that does not decode is left out and its path listed in
// loaded_view::malformed for the owner to log. Errors: no_node if /brokers/ids or
// /brokers/topics is missing (call after register_broker, which ensures them), and any
// session error (connection_loss, session_expired, closed) — the owner retries or opens a new
// session. `done` is called once, following coordinator.hpp's callback contract; `c` must stay
// alive until then (closing the session drops it uncalled).

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "cluster/coordinator.hpp"

namespace cafka::cluster {

struct loaded_view {
  cluster_view view;
  std::vector<std::string> malformed; ///< znode paths skipped: their data or name did not decode
};

using load_callback = std::function<void(result<loaded_view>)>;

class cluster_loader {
public:
  /// `on_change` receives every fired watch (including watch_event_type::session on expiry);
  /// it follows the watcher rules of coordinator.hpp (cheap, may run on any thread).
  explicit cluster_loader(watcher on_change);

  /// Reads the view and arms the watches that are not armed yet. Several loads may overlap.
  void load(coordinator& c, load_callback done);

  /// Watches currently armed by this loader (for tests and diagnostics).
  std::size_t armed_watches() const;

  struct shared_state; ///< armed watches and the owner's watcher; outlives pending callbacks

private:
  std::shared_ptr<shared_state> shared_;
};

} // namespace cafka::cluster
