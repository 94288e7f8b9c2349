#pragma once
// cafka's typed errors at actor boundaries: caf::error values of the category "cafka"
// whose codes are Kafka's error codes (protocol/kafka_error.hpp). Storage and protocol
// failures are converted here, in one place.

#include <string>
#include <system_error>

#include <caf/error.hpp>
#include <caf/make_message.hpp>

#include "protocol/kafka_error.hpp"

CAF_ERROR_CODE_ENUM(cafka::protocol::kafka_error, "cafka")

namespace cafka {

using protocol::kafka_error;

/// The Kafka error a storage/protocol/system error_code means for a client.
kafka_error to_kafka_error(std::error_code ec) noexcept;

/// A caf::error of category "cafka" for `ec`, with its message as context.
caf::error to_caf_error(std::error_code ec);

/// The Kafka error inside a caf::error: itself for category "cafka", request_timed_out
/// for CAF's timeouts, network_exception for lost connections, else unknown_server_error.
kafka_error to_kafka_error(const caf::error& err) noexcept;

/// "OFFSET_OUT_OF_RANGE (offset out of range)", or CAF's rendering for other categories.
std::string describe(const caf::error& err);

} // namespace cafka
