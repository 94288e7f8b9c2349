#pragma once
// LeaveGroup (key 13), v0-v1. (v3 replaced member_id by a members array for batch
// leaves of static members; cafka does not advertise it.)
//
//   request:  group_id:STRING member_id:STRING
//   response: [v1+ throttle_time_ms:i32] error_code:i16

#include <cstdint>
#include <string>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct leave_group_request {
  std::string group_id;
  std::string member_id;
};

struct leave_group_response {
  int32_t throttle_time_ms = 0; ///< v1+
  int16_t error_code = 0;
};

result<leave_group_request> decode_leave_group_request(bytes_view body, int16_t version);
void encode_leave_group_response(const leave_group_response& resp, int16_t version,
                                 byte_writer& w);

} // namespace cafka::wire
