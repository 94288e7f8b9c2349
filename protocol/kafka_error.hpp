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
  offset_metadata_too_large = 12,
  network_exception = 13,
  coordinator_load_in_progress = 14,
  coordinator_not_available = 15,
  not_coordinator = 16,
  invalid_topic_exception = 17,
  record_list_too_large = 18,
  not_enough_replicas = 19,
  not_enough_replicas_after_append = 20,
  invalid_required_acks = 21,
  illegal_generation = 22,
  inconsistent_group_protocol = 23,
  invalid_group_id = 24,
  unknown_member_id = 25,
  invalid_session_timeout = 26,
  rebalance_in_progress = 27,
  invalid_commit_offset_size = 28,
  invalid_timestamp = 32,
  unsupported_version = 35,
  topic_already_exists = 36,
  invalid_partitions = 37,
  invalid_replication_factor = 38,
  invalid_replica_assignment = 39,
  invalid_config = 40,
  not_controller = 41,
  invalid_request = 42,
  unsupported_for_message_format = 43,
  policy_violation = 44,
  out_of_order_sequence_number = 45,
  duplicate_sequence_number = 46,
  invalid_producer_epoch = 47,
  invalid_txn_state = 48,
  invalid_producer_id_mapping = 49,
  invalid_transaction_timeout = 50,
  concurrent_transactions = 51,
  transaction_coordinator_fenced = 52,
  transactional_id_authorization_failed = 53,
  operation_not_attempted = 55,
  kafka_storage_error = 56,
  unknown_producer_id = 59,
  non_empty_group = 68,
  group_id_not_found = 69,
  topic_deletion_disabled = 73,
  fenced_leader_epoch = 74,
  unknown_leader_epoch = 75,
  unsupported_compression_type = 76,
  stale_broker_epoch = 77,
  offset_not_available = 78,
  member_id_required = 79,
  preferred_leader_not_available = 80,
  fenced_instance_id = 82,
  eligible_leaders_not_available = 83,
  election_not_needed = 84,
  no_reassignment_in_progress = 85,
  group_subscribed_to_topic = 86,
  invalid_record = 87,
  producer_fenced = 90,
  transactional_id_not_found = 105,
  unknown_server_error = 255,
};

/// The code as sent on the wire (unknown_server_error is -1).
inline int16_t wire_code(kafka_error e) noexcept {
  return e == kafka_error::unknown_server_error ? int16_t{-1} : static_cast<int16_t>(e);
}

/// Kafka's name of the error, e.g. "OFFSET_OUT_OF_RANGE".
const char* to_string(kafka_error e) noexcept;

} // namespace cafka::protocol
