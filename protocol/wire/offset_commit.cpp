#include "protocol/wire/offset_commit.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 8; }

offset_commit_partition decode_partition(byte_reader& r, int16_t version, bool flexible) {
  offset_commit_partition p;
  p.partition_index = r.read_i32();
  p.committed_offset = r.read_i64();
  if (version >= 6)
    p.committed_leader_epoch = r.read_i32();
  p.committed_metadata = read_nullable_string(r, flexible);
  end_struct(r, flexible);
  return p;
}

// The least a partition takes: index, offset, [epoch,] metadata length [, tag buffer].
size_t min_partition_size(int16_t version, bool flexible) {
  size_t epoch = version >= 6 ? 4 : 0;
  return 4 + 8 + epoch + (flexible ? 1 + 1 : 2);
}

offset_commit_topic decode_topic(byte_reader& r, int16_t version, bool flexible) {
  offset_commit_topic topic;
  topic.name = read_string(r, flexible);
  auto partitions = read_array_count(r, min_partition_size(version, flexible), flexible);
  for (int32_t p = 0; p < partitions && r.ok(); ++p)
    topic.partitions.push_back(decode_partition(r, version, flexible));
  end_struct(r, flexible);
  return topic;
}

} // namespace

result<offset_commit_request> decode_offset_commit_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  offset_commit_request req;
  byte_reader r{body};
  req.group_id = read_string(r, flexible);
  req.generation_id = r.read_i32();
  req.member_id = read_string(r, flexible);
  if (version >= 7)
    req.group_instance_id = read_nullable_string(r, flexible);
  if (version <= 4)
    req.retention_time_ms = r.read_i64();
  // name length + partition count [+ tag buffer]
  auto topics = read_array_count(r, flexible ? 1 + 1 + 1 : 2 + 4, flexible);
  for (int32_t t = 0; t < topics && r.ok(); ++t)
    req.topics.push_back(decode_topic(r, version, flexible));
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_offset_commit_response(const offset_commit_response& resp, int16_t version,
                                   byte_writer& w) {
  bool flexible = is_flexible_version(version);
  if (version >= 3)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()), flexible);
  for (auto& t : resp.topics) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i16(p.error_code);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
