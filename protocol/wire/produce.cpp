#include "protocol/wire/produce.hpp"

namespace cafka::wire {

namespace {

// Smallest encodings, for bounding hostile array counts: an empty name and an empty
// partition array; an index and a null records field.
constexpr size_t min_topic_size = 2 + 4;
constexpr size_t min_partition_size = 4 + 4;

} // namespace

result<produce_request> decode_produce_request(bytes_view body, int16_t version) {
  byte_reader r{body};
  produce_request req;
  if (version >= 3)
    req.transactional_id = read_nullable_string(r);
  req.acks = r.read_i16();
  req.timeout_ms = r.read_i32();
  auto topic_count = read_array_count(r, min_topic_size);
  for (int32_t t = 0; t < topic_count && r.ok(); ++t) {
    produce_topic_data topic;
    topic.name = read_string(r);
    auto partition_count = read_array_count(r, min_partition_size);
    for (int32_t p = 0; p < partition_count && r.ok(); ++p) {
      produce_partition_data partition;
      partition.index = r.read_i32();
      // NULLABLE_RECORDS has the layout of NULLABLE_BYTES; the batches inside are
      // validated later, by whoever appends them.
      partition.records = read_nullable_bytes(r);
      topic.partitions.push_back(std::move(partition));
    }
    req.topics.push_back(std::move(topic));
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_produce_response(const produce_response& resp, int16_t version, byte_writer& w) {
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& topic : resp.topics) {
    write_string(w, topic.name);
    write_array_count(w, static_cast<int32_t>(topic.partitions.size()));
    for (auto& p : topic.partitions) {
      w.write_i32(p.index);
      w.write_i16(p.error_code);
      w.write_i64(p.base_offset);
      if (version >= 2)
        w.write_i64(p.log_append_time_ms);
      if (version >= 5)
        w.write_i64(p.log_start_offset);
    }
  }
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
}

} // namespace cafka::wire
