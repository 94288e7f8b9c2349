#include "protocol/wire/delete_groups.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 2; }

} // namespace

result<delete_groups_request> decode_delete_groups_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  delete_groups_request req;
  byte_reader r{body};
  auto n = read_required_array_count(r, 1, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    req.groups_names.push_back(read_string(r, flexible));
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_delete_groups_response(const delete_groups_response& resp, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.results.size()), flexible);
  for (auto& g : resp.results) {
    write_string(w, g.group_id, flexible);
    w.write_i16(g.error_code);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
