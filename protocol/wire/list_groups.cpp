#include "protocol/wire/list_groups.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 3; }

} // namespace

result<list_groups_request> decode_list_groups_request(bytes_view body, int16_t version) {
  // v0-v2 have no fields; trailing bytes are ignored as for every request.
  list_groups_request req;
  if (!is_flexible_version(version))
    return req;
  byte_reader r{body};
  if (version >= 4) {
    auto n = read_required_array_count(r, 1, true);
    for (int32_t i = 0; i < n && r.ok(); ++i)
      req.states_filter.push_back(read_string(r, true));
  }
  end_struct(r, true);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_list_groups_response(const list_groups_response& resp, int16_t version,
                                 byte_writer& w) {
  bool flexible = is_flexible_version(version);
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  write_array_count(w, static_cast<int32_t>(resp.groups.size()), flexible);
  for (auto& g : resp.groups) {
    write_string(w, g.group_id, flexible);
    write_string(w, g.protocol_type, flexible);
    if (version >= 4)
      write_string(w, g.group_state, flexible);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
