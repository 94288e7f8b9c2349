#pragma once
// renewing_session: a coordinator that outlives the expiry of its sessions. It holds the
// CURRENT inner session (a zookeeper_coordinator, or a session of an embedded_store) and a
// factory for new ones; when the inner session expires it opens the next one and tells its
// listener. Everything that holds the node's coordinator (the node actor, its cluster member,
// the group actors) keeps holding this one object across expiries; calls go to the current
// inner session and session() is the current inner id.
//
// Why one renewing object rather than handing every holder a new session: the holders are
// actors that took a shared_ptr at spawn; swapping it under them would need a message to each
// before any of them may call again. Here a call is never made on a dead session for long,
// and the listener's "renewed" only tells the holders to re-create what the old session owned
// (ephemerals) and to re-arm their watches.
//
// How an expiry is noticed (any of these, whichever comes first; one renewal per inner
// session): the inner session's state callback reports `expired` (the factory is handed that
// callback; a factory that ignores it, as node_options::open_session does, still works
// through the next two); a completion fails with session_expired; a watch gets the `session`
// event; a call finds the inner state() expired.
//
// What holders see (the outer contract; coordinator.hpp otherwise):
// - An outer session never expires while renewal works: a completion of the dead inner
//   session that failed with session_expired is reported as connection_loss ("outcome
//   unknown, retry later": true, the call may have been applied before the expiry). Watches
//   of the dead session get watch_event_type::session as before (the holder reads again: that
//   read goes to the new session). state() is `disconnected` from the expiry until the new
//   inner session is connected.
// - listener::on_lost runs once per expired inner session (before the next one is opened):
//   the ephemerals are gone, e.g. the controller must stop acting as one. listener::on_renewed
//   runs once the next inner session is connected, with its id: re-create ephemerals and
//   watches. Both run on a coordinator thread (or the thread of the call that noticed the
//   expiry): they must only send a message (anon_send).
// - If the factory fails (returns nullptr or throws), the outer session is expired for good:
//   state() is expired, calls fail with session_expired, as without renewal.
// - close() closes the current inner session and every retired one; it must not be called
//   from a callback (coordinator.hpp). Retired (expired) inner sessions are kept until then,
//   not closed on the spot: the expiry is noticed inside the dead session's own callbacks,
//   where closing it is forbidden. They hold no ephemerals; with ZooKeeper each keeps its
//   client threads until close(), a small cost for a rare event.
//
// Threading: one mutex guards the current session and the bookkeeping; it is never held while
// calling into an inner session or the factory (the embedded store runs callbacks inline, and
// they may come back here).

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "cluster/coordinator.hpp"

namespace cafka::cluster {

class renewing_session final : public coordinator {
public:
  /// Opens a session; the callback passed in receives that session's state changes (a factory
  /// may ignore it: see above). nullptr (or an exception) means "could not open one".
  using factory = std::function<std::shared_ptr<coordinator>(session_callback)>;

  struct listener {
    /// An inner session expired; a new one is being opened.
    std::function<void()> on_lost;
    /// The new inner session (its id) is connected.
    std::function<void(session_id)> on_renewed;
  };

  /// Opens the first inner session through `open`. `on_state` (may be empty) receives the
  /// outer states: connected, disconnected (also while renewing), expired (renewal failed).
  explicit renewing_session(factory open, session_callback on_state = {});
  ~renewing_session() override;
  renewing_session(const renewing_session&) = delete;
  renewing_session& operator=(const renewing_session&) = delete;

  /// Sets who is told about expiries and renewals. If sessions were renewed before it was set,
  /// on_renewed runs once at once (on the calling thread) with the current id.
  void set_listener(listener l);

  /// How many times an expired session was replaced (0: still the first).
  int renewals() const;

  session_id session() const override;
  session_state state() const override;
  void create(const std::string& path, std::string_view data, create_mode mode,
              create_callback done) override;
  void remove(const std::string& path, int32_t version, status_callback done) override;
  void exists(const std::string& path, watcher w, exists_callback done) override;
  void get(const std::string& path, watcher w, get_callback done) override;
  void set(const std::string& path, std::string_view data, int32_t version,
           set_callback done) override;
  void children(const std::string& path, watcher w, children_callback done) override;
  void close() override;

  struct shared; // the state the inner sessions' callbacks reach; defined in the .cpp

private:
  std::shared_ptr<shared> shared_;
};

} // namespace cafka::cluster
