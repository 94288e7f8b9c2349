#include "protocol/wire/offset_for_leader_epoch.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 4; }

// Smallest encodings, for bounding hostile array counts: an empty name and an empty
// partition array (and a tag buffer, v4); partition + [v2+ current_leader_epoch] +
// leader_epoch (+ a tag buffer).
size_t min_topic_size(int16_t version) { return is_flexible_version(version) ? 1 + 1 + 1 : 2 + 4; }
size_t partition_size(int16_t version) {
  return 4 + (version >= 2 ? 4 : 0) + 4 + (is_flexible_version(version) ? 1 : 0);
}

} // namespace

result<offset_for_leader_epoch_request> decode_offset_for_leader_epoch_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  byte_reader r{body};
  offset_for_leader_epoch_request req;
  if (version >= 3)
    req.replica_id = r.read_i32();
  auto topic_count = read_array_count(r, min_topic_size(version), flexible);
  for (int32_t t = 0; t < topic_count && r.ok(); ++t) {
    offset_for_leader_epoch_topic topic;
    topic.topic = read_string(r, flexible);
    auto partition_count = read_array_count(r, partition_size(version), flexible);
    for (int32_t p = 0; p < partition_count && r.ok(); ++p) {
      offset_for_leader_epoch_partition partition;
      partition.partition = r.read_i32();
      if (version >= 2)
        partition.current_leader_epoch = r.read_i32();
      partition.leader_epoch = r.read_i32();
      if (flexible)
        skip_tagged_fields(r);
      topic.partitions.push_back(partition);
    }
    if (flexible)
      skip_tagged_fields(r);
    req.topics.push_back(std::move(topic));
  }
  if (flexible)
    skip_tagged_fields(r);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_offset_for_leader_epoch_response(const offset_for_leader_epoch_response& resp, int16_t version,
                                             byte_writer& w) {
  bool flexible = is_flexible_version(version);
  if (version >= 2)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()), flexible);
  for (auto& topic : resp.topics) {
    write_string(w, topic.topic, flexible);
    write_array_count(w, static_cast<int32_t>(topic.partitions.size()), flexible);
    for (auto& p : topic.partitions) {
      w.write_i16(p.error_code);
      w.write_i32(p.partition);
      if (version >= 1)
        w.write_i32(p.leader_epoch);
      w.write_i64(p.end_offset);
      if (flexible)
        write_empty_tagged_fields(w);
    }
    if (flexible)
      write_empty_tagged_fields(w);
  }
  if (flexible)
    write_empty_tagged_fields(w);
}

} // namespace cafka::wire
