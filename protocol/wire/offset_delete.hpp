#pragma once
// OffsetDelete (key 47), v0 (never flexible).
//
//   request:  group_id:STRING topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32]]
//   response: error_code:i16 throttle_time_ms:i32   (the error first, unlike every other API)
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 error_code:i16]]

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct offset_delete_topic {
  std::string name;
  std::vector<int32_t> partitions;
};

struct offset_delete_request {
  std::string group_id;
  std::vector<offset_delete_topic> topics;
};

struct offset_delete_partition_result {
  int32_t partition_index = 0;
  int16_t error_code = 0;
};

struct offset_delete_topic_result {
  std::string name;
  std::vector<offset_delete_partition_result> partitions;
};

struct offset_delete_response {
  int16_t error_code = 0;
  int32_t throttle_time_ms = 0;
  std::vector<offset_delete_topic_result> topics;
};

result<offset_delete_request> decode_offset_delete_request(bytes_view body, int16_t version);
void encode_offset_delete_response(const offset_delete_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
