#include "protocol/wire/heartbeat.hpp"

namespace cafka::wire {

result<heartbeat_request> decode_heartbeat_request(bytes_view body, int16_t version) {
  heartbeat_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  req.generation_id = r.read_i32();
  req.member_id = read_string(r);
  if (version >= 3)
    req.group_instance_id = read_nullable_string(r);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_heartbeat_response(const heartbeat_response& resp, int16_t version,
                               byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
}

} // namespace cafka::wire
