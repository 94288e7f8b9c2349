#pragma once
// DeleteGroups (key 42), v0-v2 (flexible from v2).
//
//   request:  groups_names:ARRAY[STRING]
//   response: throttle_time_ms:i32 results:ARRAY[group_id:STRING error_code:i16]

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct delete_groups_request {
  std::vector<std::string> groups_names;
};

struct delete_group_result {
  std::string group_id;
  int16_t error_code = 0;
};

struct delete_groups_response {
  int32_t throttle_time_ms = 0;
  std::vector<delete_group_result> results;
};

result<delete_groups_request> decode_delete_groups_request(bytes_view body, int16_t version);
void encode_delete_groups_response(const delete_groups_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
