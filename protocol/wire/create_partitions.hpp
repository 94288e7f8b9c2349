#pragma once
// CreatePartitions (key 37), v0-v3 (v2+ flexible: compact strings and arrays, a tag buffer
// after every struct; v1 and v3 change nothing on the wire). KIP-195.
//
//   request:  topics:[name:STRING count:i32 assignments:NULLABLE [broker_ids:[i32]]]
//             timeout_ms:i32 validate_only:BOOL
//   response: throttle_time_ms:i32 results:[name:STRING error_code:i16 error_message:NULLABLE_STRING]
//
// count is the topic's new total; assignments (null: the broker places them) lists the
// replicas of each added partition.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct create_partitions_topic {
  std::string name;
  int32_t count = 0;
  std::vector<std::vector<int32_t>> assignments; ///< empty: none given (null on the wire)
};

struct create_partitions_request {
  std::vector<create_partitions_topic> topics;
  int32_t timeout_ms = 30000;
  bool validate_only = false;
};

struct create_partitions_result {
  std::string name;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
};

struct create_partitions_response {
  int32_t throttle_time_ms = 0;
  std::vector<create_partitions_result> results;
};

result<create_partitions_request> decode_create_partitions_request(bytes_view body, int16_t version);
void encode_create_partitions_response(const create_partitions_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
