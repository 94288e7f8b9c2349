#pragma once
// A real ZooKeeper server for tests (Debian's `zookeeper` package, run with
// zkServer.sh start-foreground, which execs java: the PID we keep is the server's).
//
// It gets a fresh folder under /tmp (zoo.cfg, data/, server.log), a free 127.0.0.1 port
// (clientPortAddress=127.0.0.1; the admin server is off), tickTime=500 and session timeouts
// allowed from 1 s to 60 s. Every wait is bounded: a server that does not answer "ruok" with
// "imok" in time makes the constructor (or start()) throw with the end of its log. stop() sends
// SIGTERM to that PID (SIGKILL if it does not exit in time); start() brings it back on the same
// port and data dir (sessions and persistent nodes survive). The destructor stops it and removes
// the folder.
//
// Compiled into cluster_tests and integration_tests (tests/CMakeLists.txt adds this file).

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace cafka::test {

class zookeeper_server {
public:
  zookeeper_server();
  ~zookeeper_server();
  zookeeper_server(const zookeeper_server&) = delete;
  zookeeper_server& operator=(const zookeeper_server&) = delete;

  uint16_t port() const noexcept { return port_; }
  /// "127.0.0.1:<port>", for zookeeper.connect (append a chroot if wanted).
  std::string hosts() const { return "127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const noexcept { return pid_; }
  bool running() const noexcept { return pid_ > 0; }

  /// SIGTERM to the server's PID and wait for it (SIGKILL after a bounded wait).
  void stop();
  /// Starts it again (same port, same data) and waits until it answers; throws if it does not.
  void start();
  /// The server's stdout and stderr so far.
  std::string log() const;

private:
  bool answers() const;

  std::string dir_;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
};

/// Ends a live session the classic way: a second handle takes it over with the same id and
/// password and closes it. The original handle then sees its session expired. Returns false if
/// the second handle did not connect within `limit`.
bool force_session_expiry(const std::string& hosts, int64_t session_id,
                          const std::string& password,
                          std::chrono::milliseconds limit = std::chrono::seconds(20));

} // namespace cafka::test
