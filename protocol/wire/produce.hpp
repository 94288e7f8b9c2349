#pragma once
// Produce (key 0), v0-v7. The request layout is the same for v3-v7 (v3 added
// transactional_id); v0-v2 carry legacy message sets (magic 0/1), v3+ record batches.
//
//   request:  [v3+ transactional_id:NULLABLE_STRING] acks:i16 timeout_ms:i32
//             topic_data:ARRAY[name:STRING partition_data:ARRAY[index:i32 records:NULLABLE_RECORDS(i32 len)]]
//   response: responses:ARRAY[name:STRING partition_responses:ARRAY[index:i32 error_code:i16
//               base_offset:i64 [v2+ log_append_time_ms:i64] [v5+ log_start_offset:i64]]]
//             [v1+ throttle_time_ms:i32]          (throttle comes last in v1-v8)

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct produce_partition_data {
  int32_t index = 0;
  std::optional<std::vector<char>> records; ///< the batches as sent; nullopt for null
};

struct produce_topic_data {
  std::string name;
  std::vector<produce_partition_data> partitions;
};

struct produce_request {
  std::optional<std::string> transactional_id; ///< v3+
  int16_t acks = -1;
  int32_t timeout_ms = 0;
  std::vector<produce_topic_data> topics;
};

struct produce_partition_response {
  int32_t index = 0;
  int16_t error_code = 0;
  int64_t base_offset = -1;
  int64_t log_append_time_ms = -1; ///< v2+
  int64_t log_start_offset = -1;   ///< v5+
};

struct produce_topic_response {
  std::string name;
  std::vector<produce_partition_response> partitions;
};

struct produce_response {
  std::vector<produce_topic_response> topics;
  int32_t throttle_time_ms = 0; ///< v1+
};

result<produce_request> decode_produce_request(bytes_view body, int16_t version);
void encode_produce_response(const produce_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
