#include "apps/kafka_call.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "protocol/byte_reader.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::tools {

namespace {

constexpr int32_t correlation_id = 1;

struct socket_fd {
  int fd = -1;
  ~socket_fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

int connect_to(const std::string& host_port) {
  auto colon = host_port.rfind(':');
  if (colon == std::string::npos)
    throw std::runtime_error("bad address '" + host_port + "'");
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  auto host = host_port.substr(0, colon);
  if (::getaddrinfo(host.c_str(), host_port.c_str() + colon + 1, &hints, &found) != 0 || !found)
    throw std::runtime_error("cannot resolve '" + host_port + "'");
  int fd = -1;
  for (auto* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0)
    throw std::runtime_error("cannot connect to " + host_port + ": " + std::strerror(errno));
  return fd;
}

// Reads exactly `n` bytes before `deadline`.
void read_exactly(int fd, char* out, size_t n, std::chrono::steady_clock::time_point deadline,
                  const std::string& who) {
  while (n > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
      throw std::runtime_error("no answer from " + who + " in time");
    auto got = ::recv(fd, out, n, 0);
    if (got <= 0)
      throw std::runtime_error(who + " closed the connection");
    out += got;
    n -= static_cast<size_t>(got);
  }
}

} // namespace

std::vector<char> kafka_call(const std::string& host_port, int16_t api_key, int16_t api_version,
                             const std::vector<char>& body, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool flexible = wire::is_flexible(api_key, api_version);
  std::vector<char> frame(4);
  wire::byte_writer w{frame};
  w.write_i16(api_key);
  w.write_i16(api_version);
  w.write_i32(correlation_id);
  wire::write_nullable_string(w, std::optional<std::string>{"cafka-tools"});
  if (flexible)
    wire::write_empty_tagged_fields(w);
  frame.insert(frame.end(), body.begin(), body.end());
  auto size = static_cast<uint32_t>(frame.size() - 4);
  for (int i = 0; i < 4; ++i)
    frame[i] = static_cast<char>(size >> (24 - 8 * i));
  socket_fd s{connect_to(host_port)};
  for (size_t sent = 0; sent < frame.size();) {
    auto n = ::send(s.fd, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (n <= 0)
      throw std::runtime_error("sending to " + host_port + " failed");
    sent += static_cast<size_t>(n);
  }
  unsigned char prefix[4];
  read_exactly(s.fd, reinterpret_cast<char*>(prefix), 4, deadline, host_port);
  auto length = (uint32_t{prefix[0]} << 24) | (uint32_t{prefix[1]} << 16) | (uint32_t{prefix[2]} << 8) | prefix[3];
  if (length < 4 || length > 256u * 1024 * 1024)
    throw std::runtime_error(host_port + " sent a response of " + std::to_string(length) + " bytes");
  std::vector<char> response(length);
  read_exactly(s.fd, response.data(), length, deadline, host_port);
  wire::byte_reader r{{response.data(), response.size()}};
  if (r.read_i32() != correlation_id)
    throw std::runtime_error(host_port + " answered another request");
  if (flexible)
    wire::skip_tagged_fields(r);
  if (!r.ok())
    throw std::runtime_error(host_port + " sent a malformed response");
  auto rest = r.rest();
  return {rest.data(), rest.data() + rest.size()};
}

} // namespace cafka::tools
