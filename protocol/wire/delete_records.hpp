#pragma once
// DeleteRecords (key 21), v0-2 (v2 flexible).
//
//   request:  topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 offset:i64]]
//             timeout_ms:i32
//   response: throttle_time_ms:i32
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 low_watermark:i64
//                                                       error_code:i16]]
// An offset of -1 asks for the high watermark (Kafka's DeleteRecordsRequest.HIGH_WATERMARK).

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

inline constexpr int64_t delete_records_to_high_watermark = -1;

struct delete_records_partition {
  int32_t partition_index = 0;
  int64_t offset = 0;
};

struct delete_records_topic {
  std::string name;
  std::vector<delete_records_partition> partitions;
};

struct delete_records_request {
  std::vector<delete_records_topic> topics;
  int32_t timeout_ms = 0;
};

struct delete_records_partition_result {
  int32_t partition_index = 0;
  int64_t low_watermark = -1;
  int16_t error_code = 0;
};

struct delete_records_topic_result {
  std::string name;
  std::vector<delete_records_partition_result> partitions;
};

struct delete_records_response {
  int32_t throttle_time_ms = 0;
  std::vector<delete_records_topic_result> topics;
};

result<delete_records_request> decode_delete_records_request(bytes_view body, int16_t version);
void encode_delete_records_response(const delete_records_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
