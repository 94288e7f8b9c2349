#pragma once
// OffsetForLeaderEpoch (key 23), v0-v4: where a leader epoch ends on the leader (KIP-101,
// KIP-279, KIP-320). v4 is flexible (compact strings and arrays, a TAG_BUFFER after each
// partition, topic and the body).
//
//   request:  [v3+ replica_id:i32]
//             topics:ARRAY[topic:STRING partitions:ARRAY[partition:i32
//               [v2+ current_leader_epoch:i32] leader_epoch:i32]]
//   response: [v2+ throttle_time_ms:i32]
//             topics:ARRAY[topic:STRING partitions:ARRAY[error_code:i16 partition:i32
//               [v1+ leader_epoch:i32] end_offset:i64]]
// error_code comes before partition, unlike the other APIs. current_leader_epoch -1 (and
// v0-v1, which have none): not checked. replica_id: -1 consumer, -2 debug (v0-v2's value).

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct offset_for_leader_epoch_partition {
  int32_t partition = 0;
  int32_t current_leader_epoch = -1; ///< v2+
  int32_t leader_epoch = 0;
};

struct offset_for_leader_epoch_topic {
  std::string topic;
  std::vector<offset_for_leader_epoch_partition> partitions;
};

struct offset_for_leader_epoch_request {
  int32_t replica_id = -2; ///< v3+
  std::vector<offset_for_leader_epoch_topic> topics;
};

struct offset_for_leader_epoch_partition_response {
  int16_t error_code = 0;
  int32_t partition = 0;
  int32_t leader_epoch = -1; ///< v1+
  int64_t end_offset = -1;
};

struct offset_for_leader_epoch_topic_response {
  std::string topic;
  std::vector<offset_for_leader_epoch_partition_response> partitions;
};

struct offset_for_leader_epoch_response {
  int32_t throttle_time_ms = 0; ///< v2+
  std::vector<offset_for_leader_epoch_topic_response> topics;
};

result<offset_for_leader_epoch_request> decode_offset_for_leader_epoch_request(bytes_view body, int16_t version);
void encode_offset_for_leader_epoch_response(const offset_for_leader_epoch_response& resp, int16_t version,
                                             byte_writer& w);

} // namespace cafka::wire
