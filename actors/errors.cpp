#include "actors/errors.hpp"

#include <caf/sec.hpp>

#include "protocol/errc.hpp"
#include "storage/errc.hpp"

namespace cafka {

kafka_error to_kafka_error(std::error_code ec) noexcept {
  if (!ec)
    return kafka_error::none;
  if (ec.category() == storage::storage_category()) {
    switch (static_cast<storage::errc>(ec.value())) {
      case storage::errc::offset_out_of_range: return kafka_error::offset_out_of_range;
      case storage::errc::batch_too_large: return kafka_error::message_too_large;
      case storage::errc::empty_append: return kafka_error::invalid_request;
      case storage::errc::invalid_timestamp: return kafka_error::invalid_timestamp;
      case storage::errc::out_of_order_sequence: return kafka_error::out_of_order_sequence_number;
      case storage::errc::invalid_producer_epoch: return kafka_error::invalid_producer_epoch;
      case storage::errc::invalid_txn_state: return kafka_error::invalid_txn_state;
      case storage::errc::coordinator_fenced: return kafka_error::transaction_coordinator_fenced;
      default: return kafka_error::kafka_storage_error;
    }
  }
  if (ec.category() == protocol::protocol_category()) {
    switch (static_cast<protocol::errc>(ec.value())) {
      case protocol::errc::bad_record: return kafka_error::invalid_record;
      case protocol::errc::unsupported_compression: return kafka_error::unsupported_compression_type;
      case protocol::errc::too_large: return kafka_error::message_too_large;
      default: return kafka_error::corrupt_message; // truncated, bad magic, length or CRC
    }
  }
  return kafka_error::kafka_storage_error; // system errors come from the disk
}

caf::error to_caf_error(std::error_code ec) {
  return caf::make_error(to_kafka_error(ec), ec.message());
}

kafka_error to_kafka_error(const caf::error& err) noexcept {
  if (!err)
    return kafka_error::none;
  if (err.category() == caf::atom("cafka"))
    return static_cast<kafka_error>(err.code());
  if (err.category() == caf::atom("system")) {
    switch (static_cast<caf::sec>(err.code())) {
      case caf::sec::request_timeout: return kafka_error::request_timed_out;
      case caf::sec::request_receiver_down:
      case caf::sec::cannot_connect_to_node:
      case caf::sec::no_route_to_receiving_node: return kafka_error::network_exception;
      default: break;
    }
  }
  return kafka_error::unknown_server_error;
}

std::string describe(const caf::error& err) {
  if (err.category() != caf::atom("cafka"))
    return caf::to_string(err);
  std::string out = protocol::to_string(static_cast<kafka_error>(err.code()));
  auto& ctx = err.context();
  if (ctx.match_elements<std::string>())
    out += ": " + ctx.get_as<std::string>(0); // the usual case: one explanation
  else if (!ctx.empty())
    out += " " + caf::to_string(ctx);
  return out;
}

} // namespace cafka
