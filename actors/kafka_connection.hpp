#pragma once
// One client connection of the Kafka listener, and the handle through which a request
// handler answers: a reserved slot in the connection's response order.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <caf/io/abstract_broker.hpp>
#include <caf/io/connection_handle.hpp>

#include "actors/response_order.hpp"
#include "protocol/wire/frame_reader.hpp"
#include "protocol/wire/request_header.hpp"

namespace cafka {

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
};

/// The answer to one request. Copyable into asynchronous callbacks; answering after the
/// connection closed does nothing.
class kafka_reply {
public:
  kafka_reply(caf::io::abstract_broker* self, std::shared_ptr<kafka_connection> conn,
              const wire::request_header& header)
    : self_(self),
      conn_(std::move(conn)),
      slot_(conn_->order.reserve()),
      correlation_id_(header.correlation_id),
      api_key_(header.api_key),
      version_(header.api_version) {}

  int16_t version() const noexcept { return version_; }

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
    conn_->order.complete(slot_, std::move(frame), [&](const std::vector<char>& bytes) {
      auto& buf = self_->wr_buf(hdl);
      buf.insert(buf.end(), bytes.begin(), bytes.end());
      wrote = true;
    });
    if (wrote)
      self_->flush(hdl);
  }

  caf::io::abstract_broker* self_;
  std::shared_ptr<kafka_connection> conn_;
  uint64_t slot_;
  int32_t correlation_id_;
  int16_t api_key_;
  int16_t version_;
};

} // namespace cafka
