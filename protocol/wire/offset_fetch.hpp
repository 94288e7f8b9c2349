#pragma once
// OffsetFetch (key 9), v1-v7. v2 made the topics array nullable (null = every topic
// the group has offsets for) and added a top-level error code, v3 the throttle time,
// v4 is v3, v5 added the leader epoch, v6 is flexible (compact strings and arrays, a tag
// buffer after every struct), v7 adds require_stable. (v0 read offsets from ZooKeeper; not
// advertised. v8 batches several groups; not advertised.)
//
//   request:  group_id:STRING topics:ARRAY[name:STRING partition_indexes:ARRAY[i32]]
//             [v7+ require_stable:BOOL]
//             (v2+: null array (-1) = all topics; v1 rejects null, as Kafka does)
//
// require_stable asks for UNSTABLE_OFFSET_COMMIT while a transaction's offsets for the
// partition are pending; cafka has no transactional offset commits, so every offset is stable.
//   response: [v3+ throttle_time_ms:i32]
//             topics:ARRAY[name:STRING partitions:ARRAY[partition_index:i32 committed_offset:i64
//               [v5+ committed_leader_epoch:i32] metadata:NULLABLE_STRING error_code:i16]]
//             [v2+ error_code:i16]

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct offset_fetch_topic {
  std::string name;
  std::vector<int32_t> partition_indexes;
};

struct offset_fetch_request {
  std::string group_id;
  /// nullopt = all topics (v2+ only).
  std::optional<std::vector<offset_fetch_topic>> topics;
  bool require_stable = false; ///< v7+
};

struct offset_fetch_partition_response {
  int32_t partition_index = 0;
  int64_t committed_offset = -1;       ///< -1: nothing committed
  int32_t committed_leader_epoch = -1; ///< v5+
  std::optional<std::string> metadata;
  int16_t error_code = 0;
};

struct offset_fetch_topic_response {
  std::string name;
  std::vector<offset_fetch_partition_response> partitions;
};

struct offset_fetch_response {
  int32_t throttle_time_ms = 0; ///< v3+
  std::vector<offset_fetch_topic_response> topics;
  int16_t error_code = 0; ///< v2+
};

result<offset_fetch_request> decode_offset_fetch_request(bytes_view body, int16_t version);
void encode_offset_fetch_response(const offset_fetch_response& resp, int16_t version,
                                  byte_writer& w);

} // namespace cafka::wire
