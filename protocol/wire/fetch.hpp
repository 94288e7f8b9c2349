#pragma once
// Fetch (key 1), v4-v11 (all non-flexible; v4 is the first with record batches).
//
//   request:  replica_id:i32 max_wait_ms:i32 min_bytes:i32 max_bytes:i32 isolation_level:i8
//             [v7+ session_id:i32 session_epoch:i32]
//             topics:ARRAY[topic:STRING partitions:ARRAY[partition:i32 [v9+ current_leader_epoch:i32]
//               fetch_offset:i64 [v5+ log_start_offset:i64] partition_max_bytes:i32]]
//             [v7+ forgotten_topics_data:ARRAY[topic:STRING partitions:ARRAY[i32]]]
//             [v11+ rack_id:STRING]
//   response: throttle_time_ms:i32 [v7+ error_code:i16 session_id:i32]
//             responses:ARRAY[topic:STRING partitions:ARRAY[partition_index:i32 error_code:i16
//               high_watermark:i64 last_stable_offset:i64 [v5+ log_start_offset:i64]
//               aborted_transactions:NULLABLE ARRAY[producer_id:i64 first_offset:i64]
//               [v11+ preferred_read_replica:i32] records:NULLABLE_RECORDS(i32 len)]]

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct fetch_partition {
  int32_t partition = 0;
  int32_t current_leader_epoch = -1; ///< v9+
  int64_t fetch_offset = 0;
  int64_t log_start_offset = -1; ///< v5+
  int32_t partition_max_bytes = 0;
};

struct fetch_topic {
  std::string topic;
  std::vector<fetch_partition> partitions;
};

struct forgotten_topic {
  std::string topic;
  std::vector<int32_t> partitions;
};

struct fetch_request {
  int32_t replica_id = -1;
  int32_t max_wait_ms = 0;
  int32_t min_bytes = 0;
  int32_t max_bytes = 0x7fffffff;
  int8_t isolation_level = 0;
  int32_t session_id = 0;     ///< v7+
  int32_t session_epoch = -1; ///< v7+
  std::vector<fetch_topic> topics;
  std::vector<forgotten_topic> forgotten_topics; ///< v7+
  std::string rack_id;                           ///< v11+
};

struct aborted_transaction {
  int64_t producer_id = 0;
  int64_t first_offset = 0;
};

struct fetch_partition_response {
  int32_t partition_index = 0;
  int16_t error_code = 0;
  int64_t high_watermark = -1;
  int64_t last_stable_offset = -1;
  int64_t log_start_offset = -1; ///< v5+
  std::vector<aborted_transaction> aborted_transactions; ///< sent as an array, never null
  int32_t preferred_read_replica = -1; ///< v11+
  std::vector<char> records; ///< whole stored batches; empty = length 0
};

struct fetch_topic_response {
  std::string topic;
  std::vector<fetch_partition_response> partitions;
};

struct fetch_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0; ///< v7+
  int32_t session_id = 0; ///< v7+
  std::vector<fetch_topic_response> topics;
};

result<fetch_request> decode_fetch_request(bytes_view body, int16_t version);
void encode_fetch_response(const fetch_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
