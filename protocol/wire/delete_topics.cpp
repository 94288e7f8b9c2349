#include "protocol/wire/delete_topics.hpp"

namespace cafka::wire {

using protocol::errc;

result<delete_topics_request> decode_delete_topics_request(bytes_view body, int16_t) {
  delete_topics_request req;
  byte_reader r{body};
  auto n = read_array_count(r, 2); // a name is at least its i16 length
  if (n < 0)
    r.fail(errc::bad_length); // topic_names is not nullable
  for (int32_t i = 0; i < n && r.ok(); ++i)
    req.topic_names.push_back(read_string(r));
  req.timeout_ms = r.read_i32();
  if (!r.ok())
    return r.error();
  return req;
}

void encode_delete_topics_response(const delete_topics_response& resp, int16_t version,
                                   byte_writer& w) {
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.responses.size()));
  for (auto& t : resp.responses) {
    write_string(w, t.name);
    w.write_i16(t.error_code);
  }
}

} // namespace cafka::wire
