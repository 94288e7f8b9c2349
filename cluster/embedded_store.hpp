#pragma once
// embedded_store: the "server" of the in-memory coordinator — a tree of znodes (data, stat,
// ephemeral owner, children), the registered watches and the sessions. Clients are
// embedded_coordinator objects (cluster/embedded_coordinator.hpp), one session each, all
// sharing one store through a shared_ptr; several brokers in one process (the in-process
// cluster simulation) thus see one consistent tree, as with one ZooKeeper ensemble.
//
// Deterministic: no threads, no clocks, no randomness. Session ids count up from 1; the
// transaction id (zxid) counts every create, set and delete; sequential suffixes are the
// parent's cversion, as in ZooKeeper.
//
// Fault injection (what the simulation does to a session; ZooKeeper's behaviour):
// - expire_session: the session's callback gets `expired`, its armed watches get a `session`
//   event, then its ephemerals are deleted (firing other sessions' watches); every later call
//   fails with session_expired.
// - disconnect_session / reconnect_session: the callback gets `disconnected` / `connected`;
//   meanwhile calls fail with connection_loss (and take no effect), ephemerals and watches stay,
//   and watch events that fire meanwhile are held and delivered after `connected`.
// The root "/" always exists; there is no "/zookeeper" node.
//
// THREADING: every method may be called from any thread; one mutex guards the tree. Callbacks
// never run under that mutex: they are collected while it is held and run afterwards on the
// calling thread, through a per-thread FIFO queue. The outermost store call on a thread drains
// that queue before it returns; a call made from inside a callback only appends its callbacks
// to the queue and returns, so callbacks never nest and completions arrive in call order, as
// with ZooKeeper's single completion thread. So a watch of session B, triggered by a write of
// session A, runs on A's calling thread: like every callback, it should only send a message.
// Callbacks of a closed session are skipped even if they were already queued.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cluster/coordinator.hpp"

namespace cafka::cluster {

class embedded_coordinator;

class embedded_store {
public:
  embedded_store();
  ~embedded_store();
  embedded_store(const embedded_store&) = delete;
  embedded_store& operator=(const embedded_store&) = delete;

  // -- fault injection; each returns false (and does nothing) if the session is not in a
  //    state where the fault applies --

  /// A live (connected or disconnected) session expires.
  bool expire_session(session_id id);

  /// A connected session loses its connection.
  bool disconnect_session(session_id id);

  /// A disconnected session reconnects.
  bool reconnect_session(session_id id);

  // -- inspection, for tests and the simulation --

  /// The state of a session this store has opened; nullopt for an unknown id.
  std::optional<session_state> state_of(session_id id) const;

  /// Number of znodes, the root included.
  std::size_t node_count() const;

  /// Number of armed, undelivered watches of all sessions.
  std::size_t watch_count() const;

private:
  friend class embedded_coordinator;

  // The server side of embedded_coordinator's operations; see coordinator.hpp.
  session_id open_session(session_callback on_state);
  void close_session(session_id id);
  void create(session_id id, const std::string& path, std::string_view data, create_mode mode,
              create_callback done);
  void remove(session_id id, const std::string& path, int32_t version, status_callback done);
  void exists(session_id id, const std::string& path, watcher w, exists_callback done);
  void get(session_id id, const std::string& path, watcher w, get_callback done);
  void set(session_id id, const std::string& path, std::string_view data, int32_t version,
           set_callback done);
  void children(session_id id, const std::string& path, watcher w, children_callback done);

  struct state;
  std::unique_ptr<state> state_;
};

} // namespace cafka::cluster
