#pragma once
// Kafka's error codes, which are also cafka's typed errors at actor boundaries (as the
// caf::error category "cafka"), so that the wire layer passes them through unchanged.
// Values are Kafka's numbers; unknown_server_error is -1 on the wire and 255 here
// (caf::error stores a uint8_t code).

#include <cstdint>

namespace cafka::protocol {

enum class kafka_error : uint8_t {
  none = 0,
  offset_out_of_range = 1,
  corrupt_message = 2,
  unknown_topic_or_partition = 3,
  invalid_fetch_size = 4,
  leader_not_available = 5,
  not_leader_or_follower = 6,
  request_timed_out = 7,
  message_too_large = 10,
  network_exception = 13,
  coordinator_not_available = 15,
  not_coordinator = 16,
  invalid_topic_exception = 17,
  record_list_too_large = 18,
  invalid_required_acks = 21,
  unsupported_version = 35,
  topic_already_exists = 36,
  invalid_partitions = 37,
  invalid_replication_factor = 38,
  invalid_config = 40,
  not_controller = 41,
  invalid_request = 42,
  kafka_storage_error = 56,
  topic_deletion_disabled = 73,
  unsupported_compression_type = 76,
  invalid_record = 87,
  unknown_server_error = 255,
};

/// The code as sent on the wire (unknown_server_error is -1).
inline int16_t wire_code(kafka_error e) noexcept {
  return e == kafka_error::unknown_server_error ? int16_t{-1} : static_cast<int16_t>(e);
}

/// Kafka's name of the error, e.g. "OFFSET_OUT_OF_RANGE".
const char* to_string(kafka_error e) noexcept;

} // namespace cafka::protocol
