#include "protocol/wire/describe_cluster.hpp"

namespace cafka::wire {

result<describe_cluster_request> decode_describe_cluster_request(bytes_view body, int16_t version) {
  describe_cluster_request req;
  byte_reader r{body};
  req.include_cluster_authorized_operations = r.read_i8() != 0;
  if (version >= 1)
    req.endpoint_type = r.read_i8();
  end_struct(r, true);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_cluster_response(const describe_cluster_response& resp, int16_t version, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  write_nullable_string(w, resp.error_message, true);
  if (version >= 1)
    w.write_i8(resp.endpoint_type);
  write_string(w, resp.cluster_id, true);
  w.write_i32(resp.controller_id);
  write_array_count(w, static_cast<int32_t>(resp.brokers.size()), true);
  for (auto& b : resp.brokers) {
    w.write_i32(b.broker_id);
    write_string(w, b.host, true);
    w.write_i32(b.port);
    write_nullable_string(w, b.rack, true);
    end_struct(w, true);
  }
  w.write_i32(resp.cluster_authorized_operations);
  end_struct(w, true);
}

} // namespace cafka::wire
