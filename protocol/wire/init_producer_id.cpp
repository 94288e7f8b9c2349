#include "protocol/wire/init_producer_id.hpp"

namespace cafka::wire {

// v1 changed only quota handling (KIP-219: the response goes out before the throttle);
// its bytes are v0's, so `version` is not needed.
result<init_producer_id_request> decode_init_producer_id_request(bytes_view body, int16_t) {
  init_producer_id_request req;
  byte_reader r{body};
  req.transactional_id = read_nullable_string(r);
  req.transaction_timeout_ms = r.read_i32();
  if (!r.ok())
    return r.error();
  return req;
}

void encode_init_producer_id_response(const init_producer_id_response& resp, int16_t,
                                      byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  w.write_i64(resp.producer_id);
  w.write_i16(resp.producer_epoch);
}

} // namespace cafka::wire
