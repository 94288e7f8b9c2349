#pragma once
// embedded_coordinator: one session of an in-memory embedded_store (cluster/embedded_store.hpp),
// implementing the coordinator interface (cluster/coordinator.hpp). With no zookeeper.connect a
// node runs on one of these; the in-process cluster simulation gives each broker its own session
// of one shared store and injects faults through the store (expire, disconnect, reconnect).
//
// Callbacks (see coordinator.hpp and embedded_store.hpp): they run on the calling thread, after
// the store's mutex is released and before the outermost store call on that thread returns;
// a call made from inside a callback is queued behind the callbacks already pending, so a
// callback may safely call back into this or any other session. There is no internal thread.
//
// Lifetime: the object keeps the store alive (shared_ptr). Destroying it closes the session
// (ephemerals deleted, watches dropped). After expiry the object stays usable only for
// session(), state() and close(); the owner creates a new embedded_coordinator.

#include <memory>

#include "cluster/coordinator.hpp"
#include "cluster/embedded_store.hpp"

namespace cafka::cluster {

class embedded_coordinator final : public coordinator {
public:
  /// Opens a new session of `store`. `on_state` (may be empty) receives `connected` before the
  /// constructor returns (unless constructed inside a callback: then once that callback
  /// returns), and later disconnected / connected / expired.
  explicit embedded_coordinator(std::shared_ptr<embedded_store> store,
                                session_callback on_state = {});
  ~embedded_coordinator() override;
  embedded_coordinator(const embedded_coordinator&) = delete;
  embedded_coordinator& operator=(const embedded_coordinator&) = delete;

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

  embedded_store& store() const noexcept { return *store_; }

private:
  std::shared_ptr<embedded_store> store_;
  session_id id_;
};

} // namespace cafka::cluster
