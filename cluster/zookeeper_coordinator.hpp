#pragma once
// zookeeper_coordinator: one ZooKeeper session through the C client's multithreaded async API
// (libzookeeper-mt), implementing the coordinator interface (cluster/coordinator.hpp) with the
// same semantics and THREADING AND CALLBACK CONTRACT as embedded_coordinator.
//
// How the contract is met (choices where ZooKeeper's C client differs):
// - Callbacks run on the C client's completion thread; each goes through run_deferred
//   (cluster/deferred_calls.hpp), so a call made inside a callback that fails at once is
//   queued behind it, never run re-entrantly.
// - The constructor returns at once; the session is `disconnected` until the session callback
//   gets `connected` (session() is 0 until then). While not connected, calls fail at once with
//   connection_loss (as the embedded store does) instead of being queued by the C client.
// - A call that the C client refuses synchronously (an invalid path: ZBADARGUMENTS; an expired
//   handle: ZINVALIDSTATE) completes on the calling thread before the call returns, through
//   run_deferred, so it may overtake completions of earlier calls still in flight.
// - Per-watch session events of the C client (disconnect, reconnect) are not passed on: watches
//   survive a connection loss. On expiry the session callback gets `expired` first, then every
//   armed watch gets watch_event_type::session once.
// - children() returns the names sorted, like the embedded store.
// - ZooKeeper codes without a cluster::errc counterpart (ZNOAUTH, ZMARSHALLINGERROR, ...) are
//   reported in zookeeper_category() with zerror()'s text, so they stay visible.
// - close() waits for a callback that is running at that moment to return, then calls
//   zookeeper_close (which waits for the server to acknowledge while connected). It must not
//   be called from one of this session's callbacks (the contract forbids it anyway). The
//   destructor closes.
// - A chroot in `hosts` ("127.0.0.1:2181/cafka") is handled by the C client, but the chroot node
//   must exist: ensure_chroot creates it through an unchrooted session.
// - The C client's own logging goes to stderr at WARN level (errors stay visible); set once
//   per process by the first constructor.

#include <chrono>
#include <memory>
#include <string>
#include <system_error>

#include "cluster/coordinator.hpp"

namespace cafka::cluster {

/// The category of ZooKeeper return codes that cluster::errc does not mirror.
const std::error_category& zookeeper_category() noexcept;

/// Maps a ZooKeeper return code (ZOK, ZNONODE, ...) onto cluster::errc (ZOK: empty error_code).
std::error_code zookeeper_error(int rc) noexcept;

class zookeeper_coordinator final : public coordinator {
public:
  /// Opens a session with `hosts` ("h1:p1,h2:p2", optionally followed by a chroot "/path";
  /// see split_zookeeper_connect). `session_timeout` is what the client asks for; the server
  /// clamps it to [2, 20] ticks unless configured otherwise. `on_state` (may be empty)
  /// receives connected / disconnected / expired on the completion thread.
  /// Throws std::system_error if the C client refuses the arguments (e.g. an unparsable host).
  zookeeper_coordinator(const std::string& hosts, std::chrono::milliseconds session_timeout,
                        session_callback on_state = {});
  ~zookeeper_coordinator() override;
  zookeeper_coordinator(const zookeeper_coordinator&) = delete;
  zookeeper_coordinator& operator=(const zookeeper_coordinator&) = delete;

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

  /// The session's password (16 bytes) once connected, "" before. With session() it lets a
  /// test take over the session from a second handle and so force its expiry.
  std::string session_password() const;

  /// Makes sure the chroot of `connect` ("hosts/chroot") exists, creating it and its ancestors
  /// as persistent nodes through a short unchrooted session. Success at once if there is no
  /// chroot. BLOCKS for at most `limit` (connect + creates): call it at startup or on a
  /// thread that may block, never on a CAF scheduler thread. Errors: invalid_path (bad
  /// connect string), connection_loss (no connection within `limit`), or the create's error.
  static status ensure_chroot(const std::string& connect, std::chrono::milliseconds limit);

  /// ensure_chroot, then a session on `connect`, returned once it is connected. BLOCKS for at
  /// most about `limit` per step, like ensure_chroot. Errors: those of ensure_chroot,
  /// connection_loss (not connected within `limit`), session_expired (the server expired the
  /// session before it was connected: open another), or what zookeeper_init refused.
  static result<std::unique_ptr<zookeeper_coordinator>>
  connect(const std::string& connect, std::chrono::milliseconds session_timeout,
          std::chrono::milliseconds limit, session_callback on_state = {});

  struct core; // shared with the C callbacks; defined in the .cpp

private:
  std::unique_ptr<core> core_;
};

} // namespace cafka::cluster
