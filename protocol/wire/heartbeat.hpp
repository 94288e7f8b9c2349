#pragma once
// Heartbeat (key 12), v0-v3. v2 is v1 on the wire.
//
//   request:  group_id:STRING generation_id:i32 member_id:STRING
//             [v3+ group_instance_id:NULLABLE_STRING]
//   response: [v1+ throttle_time_ms:i32] error_code:i16

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct heartbeat_request {
  std::string group_id;
  int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< v3+
};

struct heartbeat_response {
  int32_t throttle_time_ms = 0; ///< v1+
  int16_t error_code = 0;
};

result<heartbeat_request> decode_heartbeat_request(bytes_view body, int16_t version);
void encode_heartbeat_response(const heartbeat_response& resp, int16_t version,
                               byte_writer& w);

} // namespace cafka::wire
