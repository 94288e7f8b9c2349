#pragma once
// ListOffsets (key 2), v1-v5 (v6 is the first flexible one).
//
//   request:  replica_id:i32 [v2+ isolation_level:i8]
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32
//               [v4+ current_leader_epoch:i32] timestamp:i64]]
//   response: [v2+ throttle_time_ms:i32]
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 error_code:i16
//               timestamp:i64 offset:i64 [v4+ leader_epoch:i32]]]
// timestamp -1 = latest, -2 = earliest (both answered with timestamp -1). v3 = v2 and
// v5 = v4 in layout; v5 clients also understand OFFSET_NOT_AVAILABLE (78), which older
// ones must get as LEADER_NOT_AVAILABLE (5): see list_offsets_error_code.

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct list_offsets_partition {
  int32_t partition_index = 0;
  int32_t current_leader_epoch = -1; ///< v4+; -1: not checked
  int64_t timestamp = -1;
};

struct list_offsets_topic {
  std::string name;
  std::vector<list_offsets_partition> partitions;
};

struct list_offsets_request {
  int32_t replica_id = -1;
  int8_t isolation_level = 0; ///< v2+
  std::vector<list_offsets_topic> topics;
};

struct list_offsets_partition_response {
  int32_t partition_index = 0;
  int16_t error_code = 0;
  int64_t timestamp = -1;
  int64_t offset = -1;
  int32_t leader_epoch = -1; ///< v4+; -1: unknown
};

struct list_offsets_topic_response {
  std::string name;
  std::vector<list_offsets_partition_response> partitions;
};

struct list_offsets_response {
  int32_t throttle_time_ms = 0; ///< v2+
  std::vector<list_offsets_topic_response> topics;
};

result<list_offsets_request> decode_list_offsets_request(bytes_view body, int16_t version);
void encode_list_offsets_response(const list_offsets_response& resp, int16_t version, byte_writer& w);

/// The error code a client of `version` gets for `code`: OFFSET_NOT_AVAILABLE (78) is
/// LEADER_NOT_AVAILABLE (5) below v5, as Kafka answers them (both say "retry").
int16_t list_offsets_error_code(int16_t code, int16_t version);

} // namespace cafka::wire
