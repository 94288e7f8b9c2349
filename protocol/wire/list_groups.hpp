#pragma once
// ListGroups (key 16), v0-v4. v1 added the throttle time; v2 is v1 on the wire; v3 is
// flexible (compact strings and arrays, a tag buffer after every struct); v4 adds the state
// filter (KIP-518) and each group's state.
//
//   request v0-v2:  (empty)
//   request v3:     (a tag buffer)
//   request v4:     states_filter:[STRING]  (empty: every state)
//   response v0:    error_code:i16 groups:ARRAY[group_id:STRING protocol_type:STRING [v4+ group_state:STRING]]
//   response v1+:   throttle_time_ms:i32 + v0

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct list_groups_request {
  std::vector<std::string> states_filter; ///< v4+; Kafka's state names ("Stable", "Empty", ...)
};

struct listed_group {
  std::string group_id;
  std::string protocol_type; ///< "consumer" for consumer groups; "" for offsets-only groups
  std::string group_state;   ///< v4+
};

struct list_groups_response {
  int32_t throttle_time_ms = 0; ///< v1+
  int16_t error_code = 0;
  std::vector<listed_group> groups;
};

result<list_groups_request> decode_list_groups_request(bytes_view body, int16_t version);
void encode_list_groups_response(const list_groups_response& resp, int16_t version,
                                 byte_writer& w);

} // namespace cafka::wire
