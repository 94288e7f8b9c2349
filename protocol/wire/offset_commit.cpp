#include "protocol/wire/offset_commit.hpp"

namespace cafka::wire {

namespace {

offset_commit_partition decode_partition(byte_reader& r, int16_t version) {
  offset_commit_partition p;
  p.partition_index = r.read_i32();
  p.committed_offset = r.read_i64();
  if (version >= 6)
    p.committed_leader_epoch = r.read_i32();
  p.committed_metadata = read_nullable_string(r);
  return p;
}

} // namespace

result<offset_commit_request> decode_offset_commit_request(bytes_view body, int16_t version) {
  offset_commit_request req;
  byte_reader r{body};
  req.group_id = read_string(r);
  req.generation_id = r.read_i32();
  req.member_id = read_string(r);
  if (version >= 7)
    req.group_instance_id = read_nullable_string(r);
  if (version <= 4)
    req.retention_time_ms = r.read_i64();
  auto topics = read_array_count(r, 2 + 4); // name length + partition count
  for (int32_t t = 0; t < topics && r.ok(); ++t) {
    offset_commit_topic topic;
    topic.name = read_string(r);
    // index, offset, [epoch,] metadata length
    auto partitions = read_array_count(r, 4 + 8 + (version >= 6 ? 4 : 0) + 2);
    for (int32_t p = 0; p < partitions && r.ok(); ++p)
      topic.partitions.push_back(decode_partition(r, version));
    req.topics.push_back(std::move(topic));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_offset_commit_response(const offset_commit_response& resp, int16_t version,
                                   byte_writer& w) {
  if (version >= 3)
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
