#include "protocol/wire/leave_group.hpp"

namespace cafka::wire {

result<leave_group_request> decode_leave_group_request(bytes_view body, int16_t /*version*/) {
  leave_group_request req; // v0 and v1 requests are the same
  byte_reader r{body};
  req.group_id = read_string(r);
  req.member_id = read_string(r);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_leave_group_response(const leave_group_response& resp, int16_t version,
                                 byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
}

} // namespace cafka::wire
