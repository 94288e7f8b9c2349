#include "protocol/wire/offset_delete.hpp"

namespace cafka::wire {

result<offset_delete_request> decode_offset_delete_request(bytes_view body, int16_t) {
  offset_delete_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  auto topics = read_required_array_count(r, 6, false); // a name's length and a partition count
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    offset_delete_topic t;
    t.name = read_string(r);
    auto partitions = read_required_array_count(r, 4, false);
    for (int32_t j = 0; j < partitions && r.ok(); ++j)
      t.partitions.push_back(r.read_i32());
    req.topics.push_back(std::move(t));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_offset_delete_response(const offset_delete_response& resp, int16_t, byte_writer& w) {
  w.write_i16(resp.error_code);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& t : resp.topics) {
    write_string(w, t.name);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()));
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i16(p.error_code);
    }
  }
}

} // namespace cafka::wire
