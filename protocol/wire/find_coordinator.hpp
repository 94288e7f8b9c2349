#pragma once
// FindCoordinator (key 10), v0-v2. v2 is v1 on the wire (it only changed how the
// broker answers a transactional id of an old client).
//
//   request v0:    key:STRING                          (the group id)
//   request v1-2:  key:STRING key_type:i8              (0 group, 1 transaction)
//   response v0:   error_code:i16 node_id:i32 host:STRING port:i32
//   response v1-2: throttle_time_ms:i32 error_code:i16 error_message:NULLABLE_STRING
//                  node_id:i32 host:STRING port:i32

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct find_coordinator_request {
  std::string key;
  int8_t key_type = 0; ///< v1+; v0 can only ask for a group coordinator (0)
};

struct find_coordinator_response {
  int32_t throttle_time_ms = 0;             ///< v1+
  int16_t error_code = 0;
  std::optional<std::string> error_message; ///< v1+
  int32_t node_id = -1;
  std::string host;
  int32_t port = -1;
};

result<find_coordinator_request> decode_find_coordinator_request(bytes_view body,
                                                                  int16_t version);
void encode_find_coordinator_response(const find_coordinator_response& resp, int16_t version,
                                      byte_writer& w);

} // namespace cafka::wire
