#pragma once
// Limits of the Kafka listeners, as pure logic (no CAF): how many connections may be open
// (max.connections over every listener, max.connections.per.ip with its overrides), and
// when a connection may be read from (back-pressure: Kafka stops reading a connection that
// has an unsent response; cafka reads ahead a few requests, then stops until answers are
// written and the socket takes them).

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace cafka {

/// Open connections per client address, shared by the listeners of one broker (they run
/// on different threads).
class connection_counts {
public:
  connection_counts(int32_t max_total, int32_t max_per_ip, std::map<std::string, int32_t> per_ip_overrides)
    : max_total_(max_total), max_per_ip_(max_per_ip), overrides_(std::move(per_ip_overrides)) {}

  /// Counts a new connection from `ip` if the limits allow it; empty on success, else
  /// the name of the key that refused it.
  std::string admit(const std::string& ip);
  /// New limits (dynamic broker configs): later admissions follow them; open connections stay.
  void set_limits(int32_t max_total, int32_t max_per_ip, std::map<std::string, int32_t> per_ip_overrides);
  /// A connection admitted from `ip` closed.
  void release(const std::string& ip);

  int32_t total() const;

private:
  int32_t limit_for(const std::string& ip) const;

  mutable std::mutex mutex_;
  int32_t max_total_;
  int32_t max_per_ip_;
  std::map<std::string, int32_t> overrides_;
  std::map<std::string, int32_t> open_;
  int32_t total_ = 0;
};

/// What one listener allows before it stops reading.
struct read_limits {
  /// Requests of one connection read and not yet answered. Kafka reads one at a time, but a
  /// librdkafka producer with linger.ms=0 pipelines one-record requests into the socket, and
  /// each acks=all request waits a replication round trip (about 2 ms here): 8 capped such a
  /// connection at ~4,000 requests/s and latency grew without bound at 20,000 records/s.
  /// Memory stays bounded by queued.max.requests over the listener.
  uint64_t unanswered_per_connection = 100;
  /// Response bytes of one connection handed to the socket layer and not yet written
  /// (socket.send.buffer.bytes, at least 64 KiB).
  uint64_t unsent_bytes_per_connection = 102400;
  /// queued.max.requests and queued.max.request.bytes, over the listener's connections.
  uint64_t queued_requests = 500;
  uint64_t queued_request_bytes = UINT64_MAX;
};

/// The load of one connection and of the whole listener.
struct connection_load {
  uint64_t unanswered = 0;
  uint64_t unsent_bytes = 0;
};
struct listener_load {
  uint64_t requests = 0;
  uint64_t request_bytes = 0;
};

/// Whether the next request of a connection may be read now.
inline bool may_read(const connection_load& c, const listener_load& l, const read_limits& limits) noexcept {
  return c.unanswered < limits.unanswered_per_connection && c.unsent_bytes <= limits.unsent_bytes_per_connection
         && l.requests < limits.queued_requests && l.request_bytes < limits.queued_request_bytes;
}

} // namespace cafka
