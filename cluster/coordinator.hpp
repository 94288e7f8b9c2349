#pragma once
// coordinator: one client session with a ZooKeeper-like coordination service. Implementations:
// - embedded_coordinator (cluster/embedded_coordinator.hpp): in memory, a session of a shared
//   embedded_store; the single-node default and the backbone of in-process cluster simulation.
// - a ZooKeeper C-client implementation (later). Each operation maps 1:1 onto one asynchronous
//   call: create -> zoo_acreate, remove -> zoo_adelete, exists -> zoo_awexists, get ->
//   zoo_awget, set -> zoo_aset, children -> zoo_awget_children; session() -> zoo_client_id;
//   state() -> zoo_state; close() -> zookeeper_close. ZooKeeper's rc maps onto cluster::errc.
//
// Semantics are ZooKeeper's:
// - Nodes hold bytes (std::string) and a stat. Versions start at 0 and grow by one per set();
//   `any_version` (-1) skips the version check of remove() and set().
// - Ephemeral nodes belong to the session that created them and disappear when it is closed or
//   expires; they cannot have children. Sequential creates append a 10-digit zero-padded counter
//   (the parent's cversion): "/brokers/seq-" -> "/brokers/seq-0000000004".
// - Watches are one-shot. A watch armed by exists() fires on created/deleted/changed of that
//   path (it can be armed on a missing node: created); one armed by get() fires on changed or
//   deleted; one armed by children() fires on children_changed, or deleted when the node
//   itself goes. get() and children() of a missing node fail with no_node and arm nothing.
//   Each call with a watcher arms one watch (no de-duplication). Watches survive a connection
//   loss: events that happen while disconnected are delivered after reconnecting.
// - A connection loss (session_state::disconnected) keeps the session and its ephemerals;
//   calls fail with connection_loss until connected again. connection_loss means "unknown
//   outcome" with ZooKeeper: the call may have been applied. Expiry (session_state::expired)
//   ends the session: its ephemerals are deleted, every later call fails with session_expired,
//   and the owner must open a new session and re-create its ephemerals and watches.
//
// THREADING AND CALLBACK CONTRACT
// - All methods may be called from any thread; an implementation serialises them.
// - Results arrive only through callbacks. A callback may run on an internal thread of the
//   implementation (ZooKeeper's completion thread), or on the calling thread before the call
//   returns (the embedded implementation). So:
//     * callbacks must be cheap and must not block: typically they send one message to an
//       actor (anon_send) and return. Never wait in a callback for another completion — with
//       ZooKeeper that deadlocks its single completion thread;
//     * a callback may start further asynchronous operations on the same coordinator (they
//       are queued, never run re-entrantly inside the callback), but must not call close() or
//       destroy the coordinator;
//     * do not hold a lock across a call if the callback takes the same lock;
//     * callbacks must not throw.
// - Completions of one session's calls made from one thread run in the order the calls were
//   made (ZooKeeper's FIFO guarantee); a watch event is delivered before the completion of the
//   call that triggered it, when both belong to the same session.
// - Every completion callback is called exactly once — with its result, or with the error that
//   stopped the call — unless the session is closed first. Every watcher is called at most
//   once: with its event, or with watch_event_type::session (path "") when the session
//   expires (the watch can never fire then).
// - After close() returns, no callback of this session that was pending runs any more: pending
//   completions, armed watches and the session callback are dropped uncalled (their
//   std::function objects are destroyed). Calls made after close() complete with `closed`.
// - An empty completion callback is allowed and means "not interested"; an empty watcher arms
//   no watch.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/errc.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

/// ZooKeeper's session id (clientid_t::client_id); 0 means "no session" (ephemeral_owner of a
/// persistent node).
using session_id = int64_t;

/// For remove() and set(): skip the version check.
inline constexpr int32_t any_version = -1;

enum class create_mode {
  persistent,           ///< ZOO_PERSISTENT
  ephemeral,            ///< ZOO_EPHEMERAL: removed with the session
  sequential,           ///< ZOO_PERSISTENT_SEQUENTIAL: 10-digit counter appended
  ephemeral_sequential, ///< ZOO_EPHEMERAL_SEQUENTIAL
};

bool is_ephemeral(create_mode m) noexcept;
bool is_sequential(create_mode m) noexcept;

/// The subset of ZooKeeper's Stat that has meaning without clocks (no ctime/mtime/aversion).
struct node_stat {
  int64_t czxid = 0;           ///< transaction id of the create
  int64_t mzxid = 0;           ///< transaction id of the last data change (create or set)
  int64_t pzxid = 0;           ///< transaction id of the last child create/delete
  int32_t version = 0;         ///< data version: 0 after create, +1 per set
  int32_t cversion = 0;        ///< child version: +1 per child create or delete
  int64_t ephemeral_owner = 0; ///< owning session of an ephemeral node, 0 if persistent
  int32_t data_length = 0;     ///< bytes of data
  int32_t num_children = 0;

  friend bool operator==(const node_stat& a, const node_stat& b);
  friend bool operator!=(const node_stat& a, const node_stat& b) { return !(a == b); }
};

struct node_data {
  std::string data;
  node_stat stat;
};

enum class session_state {
  connected,    ///< calls are served
  disconnected, ///< connection lost (or not yet established): calls fail with connection_loss
  expired,      ///< terminal: calls fail with session_expired
  closed,       ///< terminal, after close(): calls fail with closed. Reported by state() only.
};

enum class watch_event_type {
  created,          ///< ZOO_CREATED_EVENT
  deleted,          ///< ZOO_DELETED_EVENT
  changed,          ///< ZOO_CHANGED_EVENT (data)
  children_changed, ///< ZOO_CHILD_EVENT
  session,          ///< ZOO_SESSION_EVENT with EXPIRED: the watch will never fire
};

struct watch_event {
  watch_event_type type = watch_event_type::session;
  std::string path; ///< the watched path; "" for session

  friend bool operator==(const watch_event& a, const watch_event& b) {
    return a.type == b.type && a.path == b.path;
  }
  friend bool operator!=(const watch_event& a, const watch_event& b) { return !(a == b); }
};

const char* to_string(session_state s) noexcept;
const char* to_string(watch_event_type t) noexcept;

using watcher = std::function<void(const watch_event&)>;
/// Session state changes: connected, disconnected, expired (never closed).
using session_callback = std::function<void(session_state)>;
using create_callback = std::function<void(result<std::string>)>; ///< the created path
using status_callback = std::function<void(status)>;
using exists_callback = std::function<void(result<std::optional<node_stat>>)>; ///< nullopt: absent
using get_callback = std::function<void(result<node_data>)>;
using set_callback = std::function<void(result<node_stat>)>; ///< stat.version: the new version
using children_callback = std::function<void(result<std::vector<std::string>>)>; ///< names

class coordinator {
public:
  virtual ~coordinator();

  /// This session's id; stays the same until the session ends.
  virtual session_id session() const = 0;

  virtual session_state state() const = 0;

  /// Creates `path` with `data`. Errors: invalid_path, no_node (parent missing), node_exists,
  /// no_children_for_ephemerals, plus the session errors. Yields the created path (with the
  /// counter for sequential modes).
  virtual void create(const std::string& path, std::string_view data, create_mode mode,
                      create_callback done) = 0;

  /// Deletes a node without children. Errors: no_node, bad_version, not_empty, invalid_path.
  virtual void remove(const std::string& path, int32_t version, status_callback done) = 0;

  /// The stat, or nullopt if the node is absent (not an error). Arms `w` in both cases.
  virtual void exists(const std::string& path, watcher w, exists_callback done) = 0;

  /// Data and stat. Errors: no_node (then no watch is armed), invalid_path.
  virtual void get(const std::string& path, watcher w, get_callback done) = 0;

  /// Replaces the data if `version` matches (or is any_version). Errors: no_node, bad_version.
  virtual void set(const std::string& path, std::string_view data, int32_t version,
                   set_callback done) = 0;

  /// The names (not paths) of the children, in no particular order (the embedded store sorts
  /// them). Errors: no_node (then no watch is armed), invalid_path.
  virtual void children(const std::string& path, watcher w, children_callback done) = 0;

  /// Ends the session: its ephemerals are deleted (firing other sessions' watches), later calls
  /// fail with closed. Idempotent. See the contract above for callbacks.
  virtual void close() = 0;
};

} // namespace cafka::cluster
