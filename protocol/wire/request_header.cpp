#include "protocol/wire/request_header.hpp"

#include "protocol/endian.hpp"
#include "protocol/wire/api_keys.hpp"

namespace cafka::wire {

result<request_header> decode_request_header(byte_reader& r) {
  request_header h;
  h.api_key = r.read_i16();
  h.api_version = r.read_i16();
  h.correlation_id = r.read_i32();
  h.client_id = read_nullable_string(r);
  if (r.ok() && find_advertised(h.api_key) && is_flexible(h.api_key, h.api_version))
    skip_tagged_fields(r);
  if (!r.ok())
    return r.error();
  return h;
}

bool response_header_is_flexible(int16_t key, int16_t version) {
  return key != static_cast<int16_t>(api_key::api_versions) && is_flexible(key, version);
}

size_t begin_response(std::vector<char>& out, int32_t correlation_id, bool flexible_header) {
  auto start = out.size();
  byte_writer w{out};
  w.write_i32(0); // size, patched by end_response
  w.write_i32(correlation_id);
  if (flexible_header)
    write_empty_tagged_fields(w);
  return start;
}

void end_response(std::vector<char>& out, size_t start) {
  auto size = static_cast<int32_t>(out.size() - start - 4);
  protocol::store_be<int32_t>(out.data() + start, size);
}

} // namespace cafka::wire
