#include "actors/caf_port_gate.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "actors/log_line.hpp"
#include "protocol/caf_port_handshake.hpp"

namespace cafka {

namespace hs = protocol::caf_handshake;
using clock_type = std::chrono::steady_clock;

namespace {

// A connection in its handshake: greeting sent, hello being read.
struct pending_peer {
  int fd = -1;
  std::string peer;
  hs::nonce server_nonce{};
  hs::hello_bytes hello{};
  size_t received = 0;
  clock_type::time_point deadline;
};

std::string peer_name(const sockaddr_storage& addr) {
  char host[INET6_ADDRSTRLEN] = "?";
  uint16_t port = 0;
  if (addr.ss_family == AF_INET) {
    auto& a = reinterpret_cast<const sockaddr_in&>(addr);
    inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
    port = ntohs(a.sin_port);
  } else if (addr.ss_family == AF_INET6) {
    auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
    port = ntohs(a.sin6_port);
  }
  return std::string(host) + ":" + std::to_string(port);
}

// A listening non-blocking socket on host:port, or -1 with `error_text`.
int listen_on(const std::string& host, uint16_t port, std::string& error_text) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  auto service = std::to_string(port);
  if (int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    error_text = "cannot resolve '" + host + "': " + gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  for (auto* ai = found; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0)
      continue;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0) {
      error_text = std::strerror(errno);
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  return fd;
}

uint16_t bound_port(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(addr).sin6_port)
                                    : ntohs(reinterpret_cast<sockaddr_in&>(addr).sin_port);
}

// The whole of a small message on a fresh socket: its send buffer is empty, so a short
// write means the peer is gone (or hostile), never that we must wait.
bool send_all(int fd, const uint8_t* data, size_t size) {
  return send(fd, data, size, MSG_NOSIGNAL) == static_cast<ssize_t>(size);
}

} // namespace

struct caf_port_gate::impl {
  caf_port_gate_options opts;
  admit_fn admit;
  int listener = -1;
  int wake = -1; // eventfd: the destructor's stop signal
  uint16_t port = 0;
  std::vector<pending_peer> pending;
  clock_type::time_point accept_paused_until{};
  std::thread thread;

  void run();
  void accept_all();
  // True when the peer is done with (admitted or closed).
  bool on_readable(pending_peer& p);
  void refuse(pending_peer& p, const char* why) {
    log_line(log_level::info, log_component::caf_port, "caf.port: closing %s: %s", p.peer.c_str(), why);
    close(p.fd);
  }
};

void caf_port_gate::impl::accept_all() {
  for (;;) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    int fd = accept4(listener, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: pause accepting instead of spinning on the ready listener.
        log_line(log_level::warn, log_component::caf_port, "caf.port: accept failed: %s; pausing accepts for 100 ms", std::strerror(errno));
        accept_paused_until = clock_type::now() + std::chrono::milliseconds(100);
      }
      return; // EAGAIN (all taken), or an aborted connection
    }
    pending_peer p;
    p.fd = fd;
    p.peer = peer_name(addr);
    if (pending.size() >= opts.max_pending) {
      refuse(p, "too many connections in their handshake");
      continue;
    }
    p.server_nonce = hs::random_nonce();
    p.deadline = clock_type::now() + opts.timeout;
    auto greeting = hs::make_greeting(p.server_nonce);
    if (!send_all(fd, greeting.data(), greeting.size())) {
      refuse(p, "sending the greeting failed");
      continue;
    }
    pending.push_back(std::move(p));
  }
}

bool caf_port_gate::impl::on_readable(pending_peer& p) {
  auto n = recv(p.fd, p.hello.data() + p.received, p.hello.size() - p.received, 0);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return false;
  if (n <= 0) {
    refuse(p, n == 0 ? "closed during the handshake" : std::strerror(errno));
    return true;
  }
  p.received += static_cast<size_t>(n);
  if (p.received < p.hello.size())
    return false;
  auto client_nonce = hs::check_hello(opts.secret, p.server_nonce, p.hello.data(), p.hello.size());
  if (!client_nonce) {
    refuse(p, "failed the handshake (not a cafka peer, or another caf.secret.file)");
    return true;
  }
  auto proof = hs::make_proof(opts.secret, p.server_nonce, *client_nonce);
  if (!send_all(p.fd, proof.data(), proof.size())) {
    refuse(p, "sending the proof failed");
    return true;
  }
  admit(p.fd, port);
  return true;
}

void caf_port_gate::impl::run() {
  std::vector<pollfd> fds;
  for (;;) {
    auto now = clock_type::now();
    // Deadlines first: a peer that sends nothing is closed, whatever the others do.
    for (size_t i = 0; i < pending.size();) {
      if (pending[i].deadline <= now) {
        refuse(pending[i], "no handshake in time");
        pending[i] = std::move(pending.back());
        pending.pop_back();
      } else {
        ++i;
      }
    }
    auto next = now + opts.timeout;
    for (auto& p : pending)
      next = std::min(next, p.deadline);
    bool accepting = now >= accept_paused_until;
    if (!accepting)
      next = std::min(next, accept_paused_until);
    fds.clear();
    fds.push_back({wake, POLLIN, 0});
    fds.push_back({accepting ? listener : -1, POLLIN, 0});
    for (auto& p : pending)
      fds.push_back({p.fd, POLLIN, 0});
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count() + 1;
    if (poll(fds.data(), fds.size(), static_cast<int>(wait)) < 0 && errno != EINTR) {
      log_line(log_level::warn, log_component::caf_port, "caf.port: poll failed: %s", std::strerror(errno));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if (fds[0].revents != 0)
      return;
    // Read the pending peers in the order polled, before accept_all() adds new ones.
    std::vector<pending_peer> still;
    for (size_t i = 0; i < pending.size(); ++i) {
      if (fds[i + 2].revents != 0 && on_readable(pending[i]))
        continue;
      still.push_back(std::move(pending[i]));
    }
    pending = std::move(still);
    if (fds[1].revents != 0)
      accept_all();
  }
}

std::unique_ptr<caf_port_gate> caf_port_gate::open(caf_port_gate_options opts, admit_fn admit,
                                                   std::string& error_text) {
  auto p = std::make_unique<impl>();
  p->listener = listen_on(opts.host, opts.port, error_text);
  if (p->listener < 0)
    return nullptr;
  p->wake = eventfd(0, EFD_CLOEXEC);
  p->port = bound_port(p->listener);
  p->opts = std::move(opts);
  p->admit = std::move(admit);
  auto* raw = p.get();
  p->thread = std::thread([raw] { raw->run(); });
  return std::make_unique<caf_port_gate>(std::move(p));
}

caf_port_gate::caf_port_gate(std::unique_ptr<impl> p) : impl_(std::move(p)) {}

caf_port_gate::~caf_port_gate() {
  uint64_t one = 1;
  if (write(impl_->wake, &one, sizeof one) < 0)
    log_line(log_level::warn, log_component::caf_port, "caf.port: cannot stop the gate: %s", std::strerror(errno));
  impl_->thread.join();
  for (auto& p : impl_->pending)
    close(p.fd);
  close(impl_->listener);
  close(impl_->wake);
}

uint16_t caf_port_gate::port() const { return impl_->port; }

namespace {

// Exactly `size` bytes by `deadline`, or why not.
std::string receive_exactly(int fd, uint8_t* out, size_t size, clock_type::time_point deadline) {
  size_t got = 0;
  while (got < size) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now()).count();
    if (left <= 0)
      return "no answer in time";
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(left)) < 0 && errno != EINTR)
      return std::strerror(errno);
    if (pfd.revents == 0)
      continue;
    auto n = recv(fd, out + got, size - got, MSG_DONTWAIT);
    if (n == 0)
      return "the peer closed the connection (another caf.secret.file, or not a cafka caf.port?)";
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        continue;
      return std::strerror(errno);
    }
    got += static_cast<size_t>(n);
  }
  return {};
}

} // namespace

std::string caf_port_client_handshake(int fd, std::string_view secret, std::chrono::milliseconds timeout) {
  auto deadline = clock_type::now() + timeout;
  hs::greeting_bytes greeting{};
  if (auto err = receive_exactly(fd, greeting.data(), greeting.size(), deadline); !err.empty())
    return "reading the greeting: " + err;
  auto server_nonce = hs::read_greeting(greeting.data(), greeting.size());
  if (!server_nonce)
    return "not a cafka caf.port (no handshake greeting)";
  auto client_nonce = hs::random_nonce();
  auto hello = hs::make_hello(secret, *server_nonce, client_nonce);
  if (!send_all(fd, hello.data(), hello.size()))
    return "sending the hello failed";
  hs::proof_bytes proof{};
  if (auto err = receive_exactly(fd, proof.data(), proof.size(), deadline); !err.empty())
    return "reading the proof: " + err;
  if (!hs::check_proof(secret, *server_nonce, client_nonce, proof.data(), proof.size()))
    return "the peer does not know the secret (another caf.secret.file?)";
  return {};
}

} // namespace cafka
