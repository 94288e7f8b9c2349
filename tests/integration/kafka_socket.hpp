#pragma once
// A blocking TCP connection to a Kafka listener for tests that must send bytes no
// Kafka client would (hostile frames) or check the wire exactly. Every read is bounded
// by a timeout; nothing here speaks for a real client (those tests use kcat,
// librdkafka and kafka-python).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cafka::test {

class kafka_socket {
public:
  explicit kafka_socket(uint16_t port);
  ~kafka_socket();
  kafka_socket(const kafka_socket&) = delete;
  kafka_socket& operator=(const kafka_socket&) = delete;

  /// Sends raw bytes (frames are the caller's business).
  void send_raw(const std::vector<char>& bytes);
  /// Sends `size:i32` + `body`.
  void send_frame(const std::vector<char>& body);
  /// The next response frame's bytes (without the size), or nullopt when the broker
  /// closed the connection or nothing came within `timeout_ms`.
  std::optional<std::vector<char>> receive_frame(int timeout_ms = 10'000);
  /// Whether the broker closed the connection within `timeout_ms`.
  bool closed_by_peer(int timeout_ms = 10'000);

private:
  bool read_exactly(char* out, size_t n, int timeout_ms);
  int fd_ = -1;
};

/// A non-blocking socket connected to 127.0.0.1:`port`, for tests that write raw bytes at
/// their own pace; throws if it cannot connect.
int connect_nonblocking(uint16_t port);

/// A request frame body: header v1 (api_key, version, correlation id, client id) + body.
std::vector<char> request_frame(int16_t api_key, int16_t version, int32_t correlation_id,
                                const std::vector<char>& body = {});

/// FindCoordinator v0 for `group` at the broker on `port`: (error code, node id), or nullopt
/// when the broker did not answer.
std::optional<std::pair<int16_t, int32_t>> find_coordinator(uint16_t port, const std::string& group);

} // namespace cafka::test
