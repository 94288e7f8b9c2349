#include "protocol/wire/join_group.hpp"

namespace cafka::wire {

result<join_group_request> decode_join_group_request(bytes_view body, int16_t version) {
  join_group_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  req.session_timeout_ms = r.read_i32();
  req.rebalance_timeout_ms = version >= 1 ? r.read_i32() : req.session_timeout_ms;
  req.member_id = read_string(r);
  if (version >= 5)
    req.group_instance_id = read_nullable_string(r);
  req.protocol_type = read_string(r);
  auto n = read_array_count(r, 2 + 4); // name length + metadata length
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    join_group_protocol p;
    p.name = read_string(r);
    p.metadata = read_bytes(r);
    req.protocols.push_back(std::move(p));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_join_group_response(const join_group_response& resp, int16_t version,
                                byte_writer& w) {
  if (version >= 2)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  w.write_i32(resp.generation_id);
  write_string(w, resp.protocol_name);
  write_string(w, resp.leader);
  write_string(w, resp.member_id);
  write_array_count(w, static_cast<int32_t>(resp.members.size()));
  for (auto& m : resp.members) {
    write_string(w, m.member_id);
    if (version >= 5)
      write_nullable_string(w, m.group_instance_id);
    w.write_bytes({m.metadata.data(), m.metadata.size()});
  }
}

} // namespace cafka::wire
