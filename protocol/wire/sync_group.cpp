#include "protocol/wire/sync_group.hpp"

namespace cafka::wire {

result<sync_group_request> decode_sync_group_request(bytes_view body, int16_t version) {
  sync_group_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  req.generation_id = r.read_i32();
  req.member_id = read_string(r);
  if (version >= 3)
    req.group_instance_id = read_nullable_string(r);
  auto n = read_array_count(r, 2 + 4); // member id length + assignment length
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    sync_group_assignment a;
    a.member_id = read_string(r);
    a.assignment = read_bytes(r);
    req.assignments.push_back(std::move(a));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_sync_group_response(const sync_group_response& resp, int16_t version,
                                byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  w.write_bytes({resp.assignment.data(), resp.assignment.size()});
}

} // namespace cafka::wire
