#pragma once
// AlterPartitionReassignments (key 45) and ListPartitionReassignments (key 46), v0, both
// flexible from v0 (compact strings and arrays, a tag buffer after every struct). KIP-455.
//
//   alter request:  timeout_ms:i32 topics:[name:STRING partitions:[partition_index:i32
//                   replicas:NULLABLE [i32]]]            (replicas null: cancel)
//   alter response: throttle_time_ms:i32 error_code:i16 error_message:NULLABLE_STRING
//                   responses:[name:STRING partitions:[partition_index:i32 error_code:i16
//                   error_message:NULLABLE_STRING]]
//   list request:   timeout_ms:i32 topics:NULLABLE [name:STRING partition_indexes:[i32]]
//                   (null: every reassignment)
//   list response:  throttle_time_ms:i32 error_code:i16 error_message:NULLABLE_STRING
//                   topics:[name:STRING partitions:[partition_index:i32 replicas:[i32]
//                   adding_replicas:[i32] removing_replicas:[i32]]]
// Both sides are here: the broker's, and cafka-reassign-partitions'.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct reassignable_partition {
  int32_t partition_index = 0;
  std::optional<std::vector<int32_t>> replicas; ///< nullopt: cancel
};

struct reassignable_topic {
  std::string name;
  std::vector<reassignable_partition> partitions;
};

struct alter_partition_reassignments_request {
  int32_t timeout_ms = 60000;
  std::vector<reassignable_topic> topics;
};

struct reassignment_partition_result {
  int32_t partition_index = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
};

struct reassignment_topic_result {
  std::string name;
  std::vector<reassignment_partition_result> partitions;
};

struct alter_partition_reassignments_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::vector<reassignment_topic_result> responses;
};

struct listed_topic {
  std::string name;
  std::vector<int32_t> partition_indexes;
};

struct list_partition_reassignments_request {
  int32_t timeout_ms = 60000;
  std::optional<std::vector<listed_topic>> topics; ///< nullopt: all
};

struct ongoing_partition_reassignment {
  int32_t partition_index = 0;
  std::vector<int32_t> replicas, adding_replicas, removing_replicas;
};

struct ongoing_topic_reassignment {
  std::string name;
  std::vector<ongoing_partition_reassignment> partitions;
};

struct list_partition_reassignments_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::vector<ongoing_topic_reassignment> topics;
};

result<alter_partition_reassignments_request> decode_alter_partition_reassignments_request(bytes_view body);
void encode_alter_partition_reassignments_response(const alter_partition_reassignments_response& resp, byte_writer& w);
result<list_partition_reassignments_request> decode_list_partition_reassignments_request(bytes_view body);
void encode_list_partition_reassignments_response(const list_partition_reassignments_response& resp, byte_writer& w);

void encode_alter_partition_reassignments_request(const alter_partition_reassignments_request& req, byte_writer& w);
result<alter_partition_reassignments_response> decode_alter_partition_reassignments_response(bytes_view body);
void encode_list_partition_reassignments_request(const list_partition_reassignments_request& req, byte_writer& w);
result<list_partition_reassignments_response> decode_list_partition_reassignments_response(bytes_view body);

} // namespace cafka::wire
