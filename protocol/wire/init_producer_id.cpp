#include "protocol/wire/init_producer_id.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 2; }

} // namespace

result<init_producer_id_request> decode_init_producer_id_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  init_producer_id_request req;
  byte_reader r{body};
  req.transactional_id = read_nullable_string(r, flexible);
  req.transaction_timeout_ms = r.read_i32();
  if (version >= 3) {
    req.producer_id = r.read_i64();
    req.producer_epoch = r.read_i16();
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_init_producer_id_response(const init_producer_id_response& resp, int16_t version,
                                      byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  w.write_i64(resp.producer_id);
  w.write_i16(resp.producer_epoch);
  end_struct(w, is_flexible_version(version));
}

} // namespace cafka::wire
