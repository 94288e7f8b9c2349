#include "protocol/wire/list_groups.hpp"

namespace cafka::wire {

result<list_groups_request> decode_list_groups_request(bytes_view, int16_t) {
  // v0-v2 have no fields; trailing bytes are ignored as for every request.
  return list_groups_request{};
}

void encode_list_groups_response(const list_groups_response& resp, int16_t version,
                                 byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  write_array_count(w, static_cast<int32_t>(resp.groups.size()));
  for (auto& g : resp.groups) {
    write_string(w, g.group_id);
    write_string(w, g.protocol_type);
  }
}

} // namespace cafka::wire
