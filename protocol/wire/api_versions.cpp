#include "protocol/wire/api_versions.hpp"

#include "protocol/kafka_error.hpp"

namespace cafka::wire {

result<api_versions_request> decode_api_versions_request(bytes_view body, int16_t version) {
  api_versions_request req;
  if (version < 3)
    return req;
  byte_reader r{body};
  req.client_software_name = read_compact_string(r);
  req.client_software_version = read_compact_string(r);
  skip_tagged_fields(r);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_api_versions_response(const api_versions_response& resp, int16_t version,
                                  byte_writer& w) {
  bool flexible = version >= 3;
  w.write_i16(resp.error_code);
  write_array_count(w, static_cast<int32_t>(resp.api_keys.size()), flexible);
  for (auto& k : resp.api_keys) {
    w.write_i16(k.api_key);
    w.write_i16(k.min_version);
    w.write_i16(k.max_version);
    if (flexible)
      write_empty_tagged_fields(w);
  }
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  if (flexible)
    write_empty_tagged_fields(w);
}

api_versions_response unsupported_api_versions_response() {
  api_versions_response resp;
  resp.error_code = protocol::wire_code(protocol::kafka_error::unsupported_version);
  if (auto range = find_advertised(static_cast<int16_t>(api_key::api_versions)))
    resp.api_keys.push_back(*range);
  return resp;
}

} // namespace cafka::wire
