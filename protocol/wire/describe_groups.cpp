#include "protocol/wire/describe_groups.hpp"

namespace cafka::wire {

result<describe_groups_request> decode_describe_groups_request(bytes_view body,
                                                               int16_t version) {
  describe_groups_request req;
  byte_reader r{body};
  // A null array (-1) reads as no groups, as Kafka's non-nullable arrays do not allow it
  // but describing nothing is harmless.
  req.groups = read_string_array(r);
  if (version >= 3)
    req.include_authorized_operations = r.read_i8() != 0;
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_groups_response(const describe_groups_response& resp, int16_t version,
                                     byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.groups.size()));
  for (auto& g : resp.groups) {
    w.write_i16(g.error_code);
    write_string(w, g.group_id);
    write_string(w, g.group_state);
    write_string(w, g.protocol_type);
    write_string(w, g.protocol_data);
    write_array_count(w, static_cast<int32_t>(g.members.size()));
    for (auto& m : g.members) {
      write_string(w, m.member_id);
      if (version >= 4)
        write_nullable_string(w, m.group_instance_id);
      write_string(w, m.client_id);
      write_string(w, m.client_host);
      w.write_bytes({m.member_metadata.data(), m.member_metadata.size()});
      w.write_bytes({m.member_assignment.data(), m.member_assignment.size()});
    }
    if (version >= 3)
      w.write_i32(g.authorized_operations);
  }
}

} // namespace cafka::wire
