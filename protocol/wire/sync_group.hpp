#pragma once
// SyncGroup (key 14), v0-v3. v2 is v1 on the wire.
//
//   request:  group_id:STRING generation_id:i32 member_id:STRING
//             [v3+ group_instance_id:NULLABLE_STRING]
//             assignments:ARRAY[member_id:STRING assignment:BYTES]  (only the leader sends any)
//   response: [v1+ throttle_time_ms:i32] error_code:i16 assignment:BYTES
//
// For the "consumer" protocol type an assignment is a consumer_assignment
// (consumer_protocol.hpp); the broker hands each member its bytes unchanged.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct sync_group_assignment {
  std::string member_id;
  std::vector<char> assignment;
};

struct sync_group_request {
  std::string group_id;
  int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< v3+
  std::vector<sync_group_assignment> assignments;
};

struct sync_group_response {
  int32_t throttle_time_ms = 0; ///< v1+
  int16_t error_code = 0;
  std::vector<char> assignment; ///< empty on error
};

result<sync_group_request> decode_sync_group_request(bytes_view body, int16_t version);
void encode_sync_group_response(const sync_group_response& resp, int16_t version,
                                byte_writer& w);

} // namespace cafka::wire
