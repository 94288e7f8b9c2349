#include "protocol/kafka_error.hpp"

namespace cafka::protocol {

const char* to_string(kafka_error e) noexcept {
  switch (e) {
    case kafka_error::none: return "NONE";
    case kafka_error::offset_out_of_range: return "OFFSET_OUT_OF_RANGE";
    case kafka_error::corrupt_message: return "CORRUPT_MESSAGE";
    case kafka_error::unknown_topic_or_partition: return "UNKNOWN_TOPIC_OR_PARTITION";
    case kafka_error::invalid_fetch_size: return "INVALID_FETCH_SIZE";
    case kafka_error::leader_not_available: return "LEADER_NOT_AVAILABLE";
    case kafka_error::not_leader_or_follower: return "NOT_LEADER_OR_FOLLOWER";
    case kafka_error::request_timed_out: return "REQUEST_TIMED_OUT";
    case kafka_error::message_too_large: return "MESSAGE_TOO_LARGE";
    case kafka_error::network_exception: return "NETWORK_EXCEPTION";
    case kafka_error::coordinator_not_available: return "COORDINATOR_NOT_AVAILABLE";
    case kafka_error::not_coordinator: return "NOT_COORDINATOR";
    case kafka_error::invalid_topic_exception: return "INVALID_TOPIC_EXCEPTION";
    case kafka_error::record_list_too_large: return "RECORD_LIST_TOO_LARGE";
    case kafka_error::invalid_required_acks: return "INVALID_REQUIRED_ACKS";
    case kafka_error::unsupported_version: return "UNSUPPORTED_VERSION";
    case kafka_error::topic_already_exists: return "TOPIC_ALREADY_EXISTS";
    case kafka_error::invalid_partitions: return "INVALID_PARTITIONS";
    case kafka_error::invalid_replication_factor: return "INVALID_REPLICATION_FACTOR";
    case kafka_error::invalid_config: return "INVALID_CONFIG";
    case kafka_error::not_controller: return "NOT_CONTROLLER";
    case kafka_error::invalid_request: return "INVALID_REQUEST";
    case kafka_error::kafka_storage_error: return "KAFKA_STORAGE_ERROR";
    case kafka_error::topic_deletion_disabled: return "TOPIC_DELETION_DISABLED";
    case kafka_error::unsupported_compression_type: return "UNSUPPORTED_COMPRESSION_TYPE";
    case kafka_error::stale_broker_epoch: return "STALE_BROKER_EPOCH";
    case kafka_error::preferred_leader_not_available: return "PREFERRED_LEADER_NOT_AVAILABLE";
    case kafka_error::eligible_leaders_not_available: return "ELIGIBLE_LEADERS_NOT_AVAILABLE";
    case kafka_error::election_not_needed: return "ELECTION_NOT_NEEDED";
    case kafka_error::no_reassignment_in_progress: return "NO_REASSIGNMENT_IN_PROGRESS";
    case kafka_error::invalid_record: return "INVALID_RECORD";
    case kafka_error::offset_metadata_too_large: return "OFFSET_METADATA_TOO_LARGE";
    case kafka_error::coordinator_load_in_progress: return "COORDINATOR_LOAD_IN_PROGRESS";
    case kafka_error::not_enough_replicas: return "NOT_ENOUGH_REPLICAS";
    case kafka_error::not_enough_replicas_after_append: return "NOT_ENOUGH_REPLICAS_AFTER_APPEND";
    case kafka_error::illegal_generation: return "ILLEGAL_GENERATION";
    case kafka_error::inconsistent_group_protocol: return "INCONSISTENT_GROUP_PROTOCOL";
    case kafka_error::invalid_group_id: return "INVALID_GROUP_ID";
    case kafka_error::unknown_member_id: return "UNKNOWN_MEMBER_ID";
    case kafka_error::invalid_session_timeout: return "INVALID_SESSION_TIMEOUT";
    case kafka_error::rebalance_in_progress: return "REBALANCE_IN_PROGRESS";
    case kafka_error::invalid_commit_offset_size: return "INVALID_COMMIT_OFFSET_SIZE";
    case kafka_error::invalid_timestamp: return "INVALID_TIMESTAMP";
    case kafka_error::invalid_replica_assignment: return "INVALID_REPLICA_ASSIGNMENT";
    case kafka_error::unsupported_for_message_format: return "UNSUPPORTED_FOR_MESSAGE_FORMAT";
    case kafka_error::policy_violation: return "POLICY_VIOLATION";
    case kafka_error::out_of_order_sequence_number: return "OUT_OF_ORDER_SEQUENCE_NUMBER";
    case kafka_error::duplicate_sequence_number: return "DUPLICATE_SEQUENCE_NUMBER";
    case kafka_error::invalid_producer_epoch: return "INVALID_PRODUCER_EPOCH";
    case kafka_error::invalid_txn_state: return "INVALID_TXN_STATE";
    case kafka_error::invalid_producer_id_mapping: return "INVALID_PRODUCER_ID_MAPPING";
    case kafka_error::invalid_transaction_timeout: return "INVALID_TRANSACTION_TIMEOUT";
    case kafka_error::concurrent_transactions: return "CONCURRENT_TRANSACTIONS";
    case kafka_error::operation_not_attempted: return "OPERATION_NOT_ATTEMPTED";
    case kafka_error::transaction_coordinator_fenced: return "TRANSACTION_COORDINATOR_FENCED";
    case kafka_error::transactional_id_authorization_failed: return "TRANSACTIONAL_ID_AUTHORIZATION_FAILED";
    case kafka_error::producer_fenced: return "PRODUCER_FENCED";
    case kafka_error::transactional_id_not_found: return "TRANSACTIONAL_ID_NOT_FOUND";
    case kafka_error::unknown_producer_id: return "UNKNOWN_PRODUCER_ID";
    case kafka_error::member_id_required: return "MEMBER_ID_REQUIRED";
    case kafka_error::fenced_instance_id: return "FENCED_INSTANCE_ID";
    case kafka_error::fenced_leader_epoch: return "FENCED_LEADER_EPOCH";
    case kafka_error::unknown_leader_epoch: return "UNKNOWN_LEADER_EPOCH";
    case kafka_error::offset_not_available: return "OFFSET_NOT_AVAILABLE";
    case kafka_error::non_empty_group: return "NON_EMPTY_GROUP";
    case kafka_error::group_id_not_found: return "GROUP_ID_NOT_FOUND";
    case kafka_error::group_subscribed_to_topic: return "GROUP_SUBSCRIBED_TO_TOPIC";
    case kafka_error::unknown_server_error: return "UNKNOWN_SERVER_ERROR";
  }
  return "UNKNOWN_SERVER_ERROR";
}

} // namespace cafka::protocol
