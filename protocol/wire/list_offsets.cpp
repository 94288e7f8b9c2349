#include "protocol/wire/list_offsets.hpp"

namespace cafka::wire {

namespace {

// Smallest encodings, for bounding hostile array counts: an empty name and an empty
// partition array; partition_index + timestamp.
constexpr size_t min_topic_size = 2 + 4;
constexpr size_t partition_size = 4 + 8;

} // namespace

result<list_offsets_request> decode_list_offsets_request(bytes_view body, int16_t version) {
  byte_reader r{body};
  list_offsets_request req;
  req.replica_id = r.read_i32();
  if (version >= 2)
    req.isolation_level = r.read_i8();
  auto topic_count = read_array_count(r, min_topic_size);
  for (int32_t t = 0; t < topic_count && r.ok(); ++t) {
    list_offsets_topic topic;
    topic.name = read_string(r);
    auto partition_count = read_array_count(r, partition_size);
    for (int32_t p = 0; p < partition_count && r.ok(); ++p) {
      list_offsets_partition partition;
      partition.partition_index = r.read_i32();
      partition.timestamp = r.read_i64();
      topic.partitions.push_back(partition);
    }
    req.topics.push_back(std::move(topic));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_list_offsets_response(const list_offsets_response& resp, int16_t version,
                                  byte_writer& w) {
  if (version >= 2)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& topic : resp.topics) {
    write_string(w, topic.name);
    write_array_count(w, static_cast<int32_t>(topic.partitions.size()));
    for (auto& p : topic.partitions) {
      w.write_i32(p.partition_index);
      w.write_i16(p.error_code);
      w.write_i64(p.timestamp);
      w.write_i64(p.offset);
    }
  }
}

} // namespace cafka::wire
