#pragma once
// One client connection of the Kafka listener, and the handle through which a request
// handler answers: a reserved slot in the connection's response order.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <caf/io/abstract_broker.hpp>
#include <caf/io/connection_handle.hpp>

#include "actors/response_order.hpp"
#include "cluster/client_quotas.hpp"
#include "metrics/broker_metrics.hpp"
#include "protocol/wire/frame_reader.hpp"
#include "protocol/wire/request_header.hpp"

namespace cafka {

struct kafka_connection;

/// Told by a connection's replies when one is answered (the listener resumes reading).
struct connection_events {
  virtual ~connection_events() = default;
  /// A request of `request_bytes` was answered (or skipped, as acks=0).
  virtual void answered(kafka_connection& conn, uint64_t request_bytes) = 0;
  /// Records `value` against the connection's client quota of `kind`; returns the
  /// throttle time for the response (the connection is then not read from for as long).
  virtual int32_t throttle(kafka_connection& conn, cluster::quota_kind kind, double value) = 0;
};

struct kafka_connection {
  kafka_connection(caf::io::connection_handle h, size_t max_request_bytes)
    : hdl(h), frames(max_request_bytes) {}

  caf::io::connection_handle hdl;
  wire::frame_reader frames;
  response_order order;
  bool open = true;
  /// The peer's address as Kafka shows a group member's host: "/127.0.0.1".
  std::string peer_host;
  /// The client id of the request being served ("" for null); JoinGroup keeps it.
  std::string client_id;
  // Back-pressure (actors/connection_limits.hpp): the bytes of the unanswered requests,
  // response bytes handed to CAF and those it wrote, whether reading is halted.
  uint64_t unanswered_request_bytes = 0;
  uint64_t bytes_handed = 0;
  uint64_t bytes_written = 0;
  bool halted = false;
  /// Client quotas: not read from before this time (0: not muted), and whether a timer
  /// will look at it again then.
  int64_t muted_until_ms = 0;
  bool unmute_scheduled = false;
  int64_t last_active_ms = 0;
  connection_events* events = nullptr; ///< the listener; cleared when it goes
  metrics::broker_metrics* metrics = nullptr; ///< the listener's (it outlives the connection's replies' use)
};

/// The answer to one request. Copyable into asynchronous callbacks; answering after the
/// connection closed does nothing.
class kafka_reply {
public:
  kafka_reply(caf::io::abstract_broker* self, std::shared_ptr<kafka_connection> conn,
              const wire::request_header& header, uint64_t request_bytes)
    : self_(self),
      conn_(std::move(conn)),
      slot_(conn_->order.reserve()),
      request_bytes_(request_bytes),
      correlation_id_(header.correlation_id),
      api_key_(header.api_key),
      version_(header.api_version),
      started_(std::chrono::steady_clock::now()) {}

  int16_t version() const noexcept { return version_; }

  /// The throttle time the request's produce quota asked for (the listener records a
  /// Produce request's bytes when it reads it).
  int32_t throttle_time_ms() const noexcept { return throttle_ms_; }
  void set_throttle_time_ms(int32_t ms) noexcept { throttle_ms_ = ms; }
  /// Records `value` against the connection's quota of `kind` (a fetch's response bytes);
  /// returns the throttle time for the response.
  int32_t record_quota(cluster::quota_kind kind, double value) const {
    return conn_->open && conn_->events ? conn_->events->throttle(*conn_, kind, value) : 0;
  }

  /// The client id of the request (valid while its serve() runs) and the peer's host.
  const std::string& client_id() const noexcept { return conn_->client_id; }
  const std::string& client_host() const noexcept { return conn_->peer_host; }

  /// Tells the connection apart from the listener's others (a partition keeps one
  /// fetch watch per connection).
  uint64_t connection_key() const noexcept { return static_cast<uint64_t>(conn_->hdl.id()); }

  /// Sends the response whose body `encode(byte_writer&)` writes: straight into the
  /// connection's write buffer when no earlier response is outstanding (the usual
  /// case, and one copy less of a large fetch), else into a frame that waits its turn.
  template <class Encode>
  void send(Encode&& encode) const {
    if (!conn_->open)
      return;
    auto flexible = wire::response_header_is_flexible(api_key_, version_);
    if (conn_->order.is_next(slot_)) {
      auto& buf = self_->wr_buf(conn_->hdl);
      auto start = wire::begin_response(buf, correlation_id_, flexible);
      wire::byte_writer w{buf};
      encode(w);
      wire::end_response(buf, start);
      conn_->bytes_handed += buf.size() - start;
      deliver(std::nullopt); // written already: only the later ones are left to send
      self_->flush(conn_->hdl);
      return;
    }
    std::vector<char> frame;
    auto start = wire::begin_response(frame, correlation_id_, flexible);
    wire::byte_writer w{frame};
    encode(w);
    wire::end_response(frame, start);
    deliver(std::move(frame));
  }

  /// Takes the slot without a response (Produce with acks=0).
  void send_nothing() const { deliver(std::nullopt); }

private:
  void deliver(std::optional<std::vector<char>> frame) const {
    if (!conn_->open)
      return;
    auto hdl = conn_->hdl;
    bool wrote = false;
    auto conn = conn_;
    conn->order.complete(slot_, std::move(frame), [&](const std::vector<char>& bytes) {
      auto& buf = self_->wr_buf(hdl);
      buf.insert(buf.end(), bytes.begin(), bytes.end());
      conn->bytes_handed += bytes.size();
      wrote = true;
    });
    if (wrote)
      self_->flush(hdl);
    if (conn->metrics) // Kafka's TotalTimeMs: from reading the request to its response queued
      conn->metrics->record_request(
        api_key_, version_,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count());
    if (conn->events)
      conn->events->answered(*conn, request_bytes_);
  }

  caf::io::abstract_broker* self_;
  std::shared_ptr<kafka_connection> conn_;
  uint64_t slot_;
  uint64_t request_bytes_;
  int32_t correlation_id_;
  int16_t api_key_;
  int16_t version_;
  int32_t throttle_ms_ = 0;
  std::chrono::steady_clock::time_point started_;
};

} // namespace cafka
