#pragma once
// OffsetCommit (key 8), v2-v8. v3 added the throttle time to the response, v4 is v3,
// v5 dropped retention_time_ms (the broker's config decides), v6 added the leader
// epoch, v7 the static member's group_instance_id, v8 is v7 flexible (compact strings
// and arrays, a TAG_BUFFER ending every struct; Java clients 3.x). (v0-v1 are not
// advertised.)
//
//   request:  group_id:STRING generation_id:i32 member_id:STRING
//             [v7+ group_instance_id:NULLABLE_STRING] [v2-v4 retention_time_ms:i64]
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32
//               committed_offset:i64 [v6+ committed_leader_epoch:i32]
//               committed_metadata:NULLABLE_STRING]]
//   response: [v3+ throttle_time_ms:i32]
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 error_code:i16]]
//   v8+:      the same fields flexible: tags after each partition, each topic and the body.
//
// generation_id -1 with an empty member_id is a commit from outside any group.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct offset_commit_partition {
  int32_t partition_index = 0;
  int64_t committed_offset = 0; ///< may be negative (kafkajs commits -1/-2 markers)
  int32_t committed_leader_epoch = -1; ///< v6+
  std::optional<std::string> committed_metadata;
};

struct offset_commit_topic {
  std::string name;
  std::vector<offset_commit_partition> partitions;
};

struct offset_commit_request {
  std::string group_id;
  int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< v7+
  int64_t retention_time_ms = -1;               ///< v2-v4; -1 = the broker's default
  std::vector<offset_commit_topic> topics;
};

struct offset_commit_partition_response {
  int32_t partition_index = 0;
  int16_t error_code = 0;
};

struct offset_commit_topic_response {
  std::string name;
  std::vector<offset_commit_partition_response> partitions;
};

struct offset_commit_response {
  int32_t throttle_time_ms = 0; ///< v3+
  std::vector<offset_commit_topic_response> topics;
};

result<offset_commit_request> decode_offset_commit_request(bytes_view body, int16_t version);
void encode_offset_commit_response(const offset_commit_response& resp, int16_t version,
                                   byte_writer& w);

} // namespace cafka::wire
