#pragma once
// caf.port's gate: accepts connections, runs the handshake of protocol/caf_port_handshake.hpp
// and passes on only the sockets whose peer proved the cluster secret (publish_on_caf_port()
// gives them to CAF's BASP broker). CAF's decoder trusts its input (random bytes crashed
// it), so it must never see a byte from a peer that has not proven the secret.
//
// Threads: one thread of its own, polling non-blocking sockets (never a CAF scheduler
// thread); `admit` runs on it. At most `max_pending` handshakes at a time, each closed after
// `timeout`; every refused or failed connection is closed with one log line.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cafka {

struct caf_port_gate_options {
  std::string host;              ///< address to bind ("" = all interfaces)
  uint16_t port = 0;             ///< 0 = any free port
  std::string secret;            ///< the shared secret both sides prove
  size_t max_pending = 64;       ///< handshakes in progress at once; more are closed at once
  std::chrono::milliseconds timeout{10000}; ///< a handshake not done by then is closed
};

class caf_port_gate {
public:
  /// Takes a connected socket whose peer proved the secret, the proof already sent, and
  /// the gate's bound port.
  using admit_fn = std::function<void(int fd, uint16_t gate_port)>;

  /// Listens and starts the thread. nullptr and `error_text` set if it cannot listen.
  static std::unique_ptr<caf_port_gate> open(caf_port_gate_options opts, admit_fn admit,
                                             std::string& error_text);

  /// Stops accepting, closes the connections still in their handshake, joins the thread.
  ~caf_port_gate();

  /// The bound port.
  uint16_t port() const;

  caf_port_gate(const caf_port_gate&) = delete;
  caf_port_gate& operator=(const caf_port_gate&) = delete;

  struct impl;
  explicit caf_port_gate(std::unique_ptr<impl> p);

private:
  std::unique_ptr<impl> impl_;
};

/// The connecting side, on a connected socket: reads the greeting, sends the hello and
/// checks the gate's proof, reading no byte beyond it (what follows is BASP's). Blocks up
/// to `timeout`. Returns "" on success, else why it failed.
std::string caf_port_client_handshake(int fd, std::string_view secret, std::chrono::milliseconds timeout);

} // namespace cafka
