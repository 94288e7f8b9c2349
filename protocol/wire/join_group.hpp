#pragma once
// JoinGroup (key 11), v0-v5. v2-v4 are v1 on the wire (v2 added the throttle time to
// the response; v3 and v4 changed only broker behaviour: v4 clients understand
// MEMBER_ID_REQUIRED).
//
//   request:  group_id:STRING session_timeout_ms:i32 [v1+ rebalance_timeout_ms:i32]
//             member_id:STRING [v5+ group_instance_id:NULLABLE_STRING] protocol_type:STRING
//             protocols:ARRAY[name:STRING metadata:BYTES]
//   response: [v2+ throttle_time_ms:i32] error_code:i16 generation_id:i32
//             protocol_name:STRING leader:STRING member_id:STRING
//             members:ARRAY[member_id:STRING [v5+ group_instance_id:NULLABLE_STRING]
//               metadata:BYTES]
//
// For the "consumer" protocol type, each protocol's metadata is a subscription
// (consumer_protocol.hpp); the broker only passes it on to the group's leader.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct join_group_protocol {
  std::string name;           ///< the assignor, e.g. "range"
  std::vector<char> metadata; ///< opaque to the broker
};

struct join_group_request {
  std::string group_id;
  int32_t session_timeout_ms = 0;
  /// v1+. v0 has no such field; like Kafka, the decoder then uses the session timeout.
  int32_t rebalance_timeout_ms = 0;
  std::string member_id;                        ///< empty on a member's first join
  std::optional<std::string> group_instance_id; ///< v5+: static membership
  std::string protocol_type;                    ///< "consumer" for consumers
  std::vector<join_group_protocol> protocols;
};

struct join_group_member {
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< v5+
  std::vector<char> metadata;
};

struct join_group_response {
  int32_t throttle_time_ms = 0; ///< v2+
  int16_t error_code = 0;
  int32_t generation_id = -1;
  std::string protocol_name;
  std::string leader;
  std::string member_id;
  std::vector<join_group_member> members; ///< only the leader gets them
};

result<join_group_request> decode_join_group_request(bytes_view body, int16_t version);
void encode_join_group_response(const join_group_response& resp, int16_t version,
                                byte_writer& w);

} // namespace cafka::wire
