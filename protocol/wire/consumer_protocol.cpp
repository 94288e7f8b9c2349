#include "protocol/wire/consumer_protocol.hpp"

namespace cafka::wire {

using protocol::errc;

namespace {

std::vector<consumer_topic_partitions> read_topic_partitions(byte_reader& r) {
  std::vector<consumer_topic_partitions> out;
  auto n = read_array_count(r, 2 + 4); // topic length + partition count
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    consumer_topic_partitions tp;
    tp.topic = read_string(r);
    tp.partitions = read_int32_array(r);
    out.push_back(std::move(tp));
  }
  return out;
}

void write_topic_partitions(byte_writer& w, const std::vector<consumer_topic_partitions>& tps) {
  write_array_count(w, static_cast<int32_t>(tps.size()));
  for (auto& tp : tps) {
    write_string(w, tp.topic);
    write_int32_array(w, tp.partitions);
  }
}

void write_user_data(byte_writer& w, const std::optional<std::vector<char>>& data) {
  if (data)
    w.write_nullable_bytes(bytes_view{data->data(), data->size()});
  else
    w.write_nullable_bytes(std::nullopt);
}

// Kafka rejects versions below the first one; there is no version -1 to fall back to.
int16_t read_version(byte_reader& r) {
  auto version = r.read_i16();
  if (version < 0)
    r.fail(errc::bad_length);
  return version;
}

} // namespace

result<consumer_subscription> decode_consumer_subscription(bytes_view metadata) {
  consumer_subscription s;
  byte_reader r{metadata};
  s.version = read_version(r);
  s.topics = read_string_array(r);
  s.user_data = read_nullable_bytes(r);
  if (s.version >= 1)
    s.owned_partitions = read_topic_partitions(r);
  if (s.version >= 2)
    s.generation_id = r.read_i32();
  if (s.version >= 3)
    s.rack_id = read_nullable_string(r);
  if (!r.ok())
    return r.error();
  return s;
}

void encode_consumer_subscription(const consumer_subscription& s, byte_writer& w) {
  w.write_i16(s.version);
  write_array_count(w, static_cast<int32_t>(s.topics.size()));
  for (auto& t : s.topics)
    write_string(w, t);
  write_user_data(w, s.user_data);
  if (s.version >= 1)
    write_topic_partitions(w, s.owned_partitions);
  if (s.version >= 2)
    w.write_i32(s.generation_id);
  if (s.version >= 3)
    write_nullable_string(w, s.rack_id);
}

result<consumer_assignment> decode_consumer_assignment(bytes_view assignment) {
  consumer_assignment a;
  byte_reader r{assignment};
  a.version = read_version(r);
  a.assigned_partitions = read_topic_partitions(r);
  a.user_data = read_nullable_bytes(r);
  if (!r.ok())
    return r.error();
  return a;
}

void encode_consumer_assignment(const consumer_assignment& a, byte_writer& w) {
  w.write_i16(a.version);
  write_topic_partitions(w, a.assigned_partitions);
  write_user_data(w, a.user_data);
}

} // namespace cafka::wire
