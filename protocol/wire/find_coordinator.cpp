#include "protocol/wire/find_coordinator.hpp"

namespace cafka::wire {

result<find_coordinator_request> decode_find_coordinator_request(bytes_view body,
                                                                  int16_t version) {
  find_coordinator_request req;
  byte_reader r{body};
  req.key = read_string(r);
  if (version >= 1)
    req.key_type = r.read_i8();
  if (!r.ok())
    return r.error();
  return req;
}

void encode_find_coordinator_response(const find_coordinator_response& resp, int16_t version,
                                      byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  if (version >= 1)
    write_nullable_string(w, resp.error_message);
  w.write_i32(resp.node_id);
  write_string(w, resp.host);
  w.write_i32(resp.port);
}

} // namespace cafka::wire
