#include "protocol/wire/list_offsets.hpp"

#include "protocol/kafka_error.hpp"

namespace cafka::wire {

namespace {

// Smallest encodings, for bounding hostile array counts: an empty name and an empty
// partition array; partition_index + [v4+ current_leader_epoch] + timestamp.
constexpr size_t min_topic_size = 2 + 4;
size_t partition_size(int16_t version) { return 4 + (version >= 4 ? 4 : 0) + 8; }

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
    auto partition_count = read_array_count(r, partition_size(version));
    for (int32_t p = 0; p < partition_count && r.ok(); ++p) {
      list_offsets_partition partition;
      partition.partition_index = r.read_i32();
      if (version >= 4)
        partition.current_leader_epoch = r.read_i32();
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
      if (version >= 4)
        w.write_i32(p.leader_epoch);
    }
  }
}

int16_t list_offsets_error_code(int16_t code, int16_t version) {
  using protocol::kafka_error;
  using protocol::wire_code;
  if (version < 5 && code == wire_code(kafka_error::offset_not_available))
    return wire_code(kafka_error::leader_not_available);
  return code;
}

} // namespace cafka::wire
