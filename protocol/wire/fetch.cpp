#include "protocol/wire/fetch.hpp"

namespace cafka::wire {

namespace {

// Smallest encodings, for bounding hostile array counts: an empty name and an empty
// partition array.
constexpr size_t min_topic_size = 2 + 4;

// partition + [v9+ current_leader_epoch] + fetch_offset + [v5+ log_start_offset]
// + partition_max_bytes.
size_t partition_size(int16_t version) {
  return 4 + (version >= 9 ? 4 : 0) + 8 + (version >= 5 ? 8 : 0) + 4;
}

fetch_partition read_partition(byte_reader& r, int16_t version) {
  fetch_partition p;
  p.partition = r.read_i32();
  if (version >= 9)
    p.current_leader_epoch = r.read_i32();
  p.fetch_offset = r.read_i64();
  if (version >= 5)
    p.log_start_offset = r.read_i64();
  p.partition_max_bytes = r.read_i32();
  return p;
}

void write_partition(byte_writer& w, const fetch_partition_response& p, int16_t version) {
  w.write_i32(p.partition_index);
  w.write_i16(p.error_code);
  w.write_i64(p.high_watermark);
  w.write_i64(p.last_stable_offset);
  if (version >= 5)
    w.write_i64(p.log_start_offset);
  // Always an array, never null, as kafka-wire-notes.md §2c recommends.
  write_array_count(w, static_cast<int32_t>(p.aborted_transactions.size()));
  for (auto& a : p.aborted_transactions) {
    w.write_i64(a.producer_id);
    w.write_i64(a.first_offset);
  }
  if (version >= 11)
    w.write_i32(p.preferred_read_replica);
  // NULLABLE_RECORDS, the layout of BYTES; no records is length 0, as Kafka sends it.
  w.write_bytes(bytes_view{p.records.data(), p.records.size()});
}

} // namespace

result<fetch_request> decode_fetch_request(bytes_view body, int16_t version) {
  byte_reader r{body};
  fetch_request req;
  req.replica_id = r.read_i32();
  req.max_wait_ms = r.read_i32();
  req.min_bytes = r.read_i32();
  req.max_bytes = r.read_i32();
  req.isolation_level = r.read_i8();
  if (version >= 7) {
    req.session_id = r.read_i32();
    req.session_epoch = r.read_i32();
  }
  auto topic_count = read_array_count(r, min_topic_size);
  for (int32_t t = 0; t < topic_count && r.ok(); ++t) {
    fetch_topic topic;
    topic.topic = read_string(r);
    auto partition_count = read_array_count(r, partition_size(version));
    for (int32_t p = 0; p < partition_count && r.ok(); ++p)
      topic.partitions.push_back(read_partition(r, version));
    req.topics.push_back(std::move(topic));
  }
  if (version >= 7) {
    auto forgotten_count = read_array_count(r, min_topic_size);
    for (int32_t t = 0; t < forgotten_count && r.ok(); ++t) {
      forgotten_topic topic;
      topic.topic = read_string(r);
      topic.partitions = read_int32_array(r);
      req.forgotten_topics.push_back(std::move(topic));
    }
  }
  if (version >= 11)
    req.rack_id = read_string(r);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_fetch_response(const fetch_response& resp, int16_t version, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  if (version >= 7) {
    w.write_i16(resp.error_code);
    w.write_i32(resp.session_id);
  }
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& topic : resp.topics) {
    write_string(w, topic.topic);
    write_array_count(w, static_cast<int32_t>(topic.partitions.size()));
    for (auto& p : topic.partitions)
      write_partition(w, p, version);
  }
}

} // namespace cafka::wire
