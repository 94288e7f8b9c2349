#include "tests/integration/kafka_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/endian.hpp"

namespace cafka::test {

int connect_nonblocking(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

kafka_socket::kafka_socket(uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

kafka_socket::~kafka_socket() {
  if (fd_ >= 0)
    ::close(fd_);
}

void kafka_socket::send_raw(const std::vector<char>& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0)
      return; // the broker closed on us; the caller checks for that
    sent += static_cast<size_t>(n);
  }
}

void kafka_socket::send_frame(const std::vector<char>& body) {
  std::vector<char> frame(4);
  protocol::store_be<int32_t>(frame.data(), static_cast<int32_t>(body.size()));
  frame.insert(frame.end(), body.begin(), body.end());
  send_raw(frame);
}

bool kafka_socket::read_exactly(char* out, size_t n, int timeout_ms) {
  size_t got = 0;
  while (got < n) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0)
      return false;
    auto r = ::recv(fd_, out + got, n - got, 0);
    if (r <= 0)
      return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

std::optional<std::vector<char>> kafka_socket::receive_frame(int timeout_ms) {
  char size_bytes[4];
  if (!read_exactly(size_bytes, 4, timeout_ms))
    return std::nullopt;
  auto size = protocol::load_be<int32_t>(size_bytes);
  if (size < 0 || size > (64 << 20))
    throw std::runtime_error("response frame size out of range: " + std::to_string(size));
  std::vector<char> body(static_cast<size_t>(size));
  if (!read_exactly(body.data(), body.size(), timeout_ms))
    return std::nullopt;
  return body;
}

bool kafka_socket::closed_by_peer(int timeout_ms) {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0)
    return false;
  char c;
  return ::recv(fd_, &c, 1, 0) == 0 || (p.revents & (POLLHUP | POLLERR)) != 0;
}

std::vector<char> request_frame(int16_t api_key, int16_t version, int32_t correlation_id,
                                const std::vector<char>& body) {
  std::vector<char> out;
  protocol::byte_writer w{out};
  w.write_i16(api_key);
  w.write_i16(version);
  w.write_i32(correlation_id);
  w.write_string("cafka-test");
  w.write_raw({body.data(), body.size()});
  return out;
}

std::optional<std::pair<int16_t, int32_t>> find_coordinator(uint16_t port, const std::string& group) {
  std::vector<char> body;
  protocol::byte_writer w{body};
  w.write_string(group);
  kafka_socket socket{port};
  socket.send_frame(request_frame(10, 0, 1, body));
  auto frame = socket.receive_frame();
  if (!frame)
    return std::nullopt;
  protocol::byte_reader r{{frame->data(), frame->size()}};
  r.read_i32(); // correlation id
  auto error = r.read_i16();
  auto id = r.read_i32();
  if (!r.ok())
    return std::nullopt;
  return std::make_pair(error, id);
}

} // namespace cafka::test
