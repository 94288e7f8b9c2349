#pragma once
// A real cafka-server process for end-to-end tests: started on a free caf.port and a
// free Kafka listener port with its own log.dirs, stopped (SIGTERM) or killed (SIGKILL)
// by its PID. Every wait is bounded; a server that does not come up fails the test
// instead of hanging it.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cafka::test {

class server_process {
public:
  /// Starts build/bin/cafka-server with config/server.properties, log.dirs = `log_dir`,
  /// caf.port = 0 and listeners = PLAINTEXT://127.0.0.1:0 (free ports), plus `overrides`
  /// ("key=value"; later ones win, so they may replace those defaults), and waits until
  /// it prints its listening line.
  explicit server_process(std::string log_dir, std::vector<std::string> overrides = {});
  ~server_process();
  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  uint16_t caf_port() const noexcept { return caf_port_; }
  /// The Kafka wire-protocol port; 0 if the listening line names no `kafka` listener.
  uint16_t kafka_port() const noexcept { return kafka_port_; }
  /// The metrics endpoint's port (0 when metrics.listener is off).
  uint16_t metrics_port() const noexcept { return metrics_port_; }
  /// "127.0.0.1:<kafka_port>", for Kafka clients' bootstrap.servers.
  std::string bootstrap() const { return "127.0.0.1:" + std::to_string(kafka_port_); }
  pid_t pid() const noexcept { return pid_; }
  bool running() const noexcept { return pid_ > 0; }

  /// SIGTERM and wait; returns the exit status (0 after a clean shutdown).
  int stop();
  /// SIGKILL and wait: a crash.
  void kill_hard();
  /// Everything the server printed so far (stdout and stderr).
  std::string output();

private:
  void drain();

  std::string log_dir_;
  std::string out_path_;
  pid_t pid_ = -1;
  std::string output_;
  uint16_t caf_port_ = 0;
  uint16_t kafka_port_ = 0;
  uint16_t metrics_port_ = 0;
};

/// A fresh folder under /tmp, removed at destruction.
struct scratch_dir {
  std::string path;
  scratch_dir();
  ~scratch_dir();
};

} // namespace cafka::test
