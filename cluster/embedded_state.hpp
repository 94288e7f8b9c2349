#pragma once
// Internal to embedded_store (include only from embedded_store.cpp and embedded_state.cpp):
// the znode tree, the watch tables and the session records, plus the node operations on them.
// Every member function runs with `mutex` held and never runs a callback: callbacks are
// collected into a `batch` and run by the caller after it released the mutex (see
// embedded_store.hpp for the threading contract).

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster/coordinator.hpp"
#include "cluster/deferred_calls.hpp"
#include "cluster/embedded_store.hpp"

namespace cafka::cluster::embedded_detail {

struct znode {
  std::string data;
  node_stat stat; // num_children and data_length are filled in by stat_of()
  std::set<std::string> children;
};

node_stat stat_of(const znode& n);

struct armed_watch {
  session_id owner;
  watcher fn;
};

using watch_table = std::map<std::string, std::vector<armed_watch>, std::less<>>;

// `open` turns false at close(): callbacks of the session that are already queued on some
// thread check it and are skipped.
using open_flag = std::shared_ptr<std::atomic<bool>>;

struct session_rec {
  session_state st = session_state::connected;
  std::shared_ptr<const session_callback> on_state;
  open_flag open = std::make_shared<std::atomic<bool>>(true);
  std::set<std::string> ephemerals;
  std::vector<std::pair<watcher, watch_event>> held; // fired while disconnected
};

// What one store call produces under the mutex: callbacks to run, and callback objects to
// destroy, both only after the mutex is released (a destructor might call into the store).
struct batch {
  std::vector<deferred_call> calls;
  std::vector<watcher> dropped;
  std::shared_ptr<const session_callback> dropped_on_state;
};

/// A watch delivery, skipped if the session is closed before it runs.
deferred_call watch_call(const session_rec& s, watcher fn, watch_event ev);

/// A session state report, likewise; empty if the session has no callback.
deferred_call state_call(const session_rec& s, session_state st);

} // namespace cafka::cluster::embedded_detail

namespace cafka::cluster {

struct embedded_store::state {
  using batch = embedded_detail::batch;
  using watch_table = embedded_detail::watch_table;

  mutable std::mutex mutex;
  std::map<std::string, embedded_detail::znode, std::less<>> nodes;
  watch_table data_watches;  // armed by exists() and get()
  watch_table child_watches; // armed by children()
  std::map<session_id, embedded_detail::session_rec> sessions;
  int64_t zxid = 0;
  session_id next_session = 1;

  state();

  /// The error a call of session `id` fails with (connection_loss, ...), or none.
  std::error_code check(session_id id) const;

  /// A completion for session `id`. Calls made after close() still complete (with closed), so
  /// only completions of an open session are tied to its open flag.
  template <class Callback, class Result>
  deferred_call completion(session_id id, Callback done, Result r) const {
    if (!done)
      return {};
    embedded_detail::open_flag open;
    if (auto it = sessions.find(id); it != sessions.end() && it->second.st != session_state::closed)
      open = it->second.open;
    return [open, done = std::move(done), r = std::move(r)]() mutable {
      if (!open || *open)
        done(std::move(r));
    };
  }

  void arm(watch_table& table, const std::string& path, session_id id, watcher w);

  /// Triggers the watches of `path` in `table`: delivered, or held for a disconnected owner.
  void fire(watch_table& table, std::string_view path, watch_event_type type, batch& out);

  /// Removes the armed and held watches of session `id`; `take` receives each watcher.
  template <class F>
  void take_watches_of(session_id id, F take) {
    for (auto* table : {&data_watches, &child_watches}) {
      for (auto it = table->begin(); it != table->end();) {
        std::vector<embedded_detail::armed_watch> keep;
        for (auto& w : it->second)
          if (w.owner == id)
            take(std::move(w.fn));
          else
            keep.push_back(std::move(w));
        it->second = std::move(keep);
        it = it->second.empty() ? table->erase(it) : std::next(it);
      }
    }
    auto& s = sessions.at(id);
    for (auto& held : s.held)
      take(std::move(held.first));
    s.held.clear();
  }

  /// Deletes an existing node without children, firing its watches and its parent's.
  void delete_node(const std::string& path, batch& out);
  void delete_ephemerals_of(session_id id, batch& out);

  // The node operations of coordinator.hpp, for session `id`.
  result<std::string> create(session_id id, const std::string& path, std::string_view data,
                             create_mode mode, batch& out);
  status remove(session_id id, const std::string& path, int32_t version, batch& out);
  result<std::optional<node_stat>> exists(session_id id, const std::string& path, watcher& w);
  result<node_data> get(session_id id, const std::string& path, watcher& w);
  result<node_stat> set(session_id id, const std::string& path, std::string_view data,
                        int32_t version, batch& out);
  result<std::vector<std::string>> children(session_id id, const std::string& path, watcher& w);
};

} // namespace cafka::cluster
