#include "protocol/wire/offset_fetch.hpp"

namespace cafka::wire {

using protocol::errc;

result<offset_fetch_request> decode_offset_fetch_request(bytes_view body, int16_t version) {
  offset_fetch_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  auto n = read_array_count(r, 2 + 4); // name length + partition count
  if (n == -1 && version < 2)
    r.fail(errc::bad_length); // "all topics" needs v2
  std::vector<offset_fetch_topic> topics;
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    offset_fetch_topic t;
    t.name = read_string(r);
    t.partition_indexes = read_int32_array(r);
    topics.push_back(std::move(t));
  }
  if (!r.ok())
    return r.error();
  if (n != -1)
    req.topics = std::move(topics);
  return req;
}

void encode_offset_fetch_response(const offset_fetch_response& resp, int16_t version,
                                  byte_writer& w) {
  if (version >= 3)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& t : resp.topics) {
    write_string(w, t.name);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()));
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i64(p.committed_offset);
      if (version >= 5)
        w.write_i32(p.committed_leader_epoch);
      write_nullable_string(w, p.metadata);
      w.write_i16(p.error_code);
    }
  }
  if (version >= 2)
    w.write_i16(resp.error_code);
}

} // namespace cafka::wire
