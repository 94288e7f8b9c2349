#include "protocol/wire/create_topics.hpp"

namespace cafka::wire {

using protocol::errc;

namespace {

// Minimum encoded sizes, for bounding array counts by the bytes left.
constexpr size_t min_topic_size = 2 + 4 + 2 + 4 + 4; // name, partitions, factor, two counts
constexpr size_t min_assignment_size = 4 + 4;        // partition_index, broker_ids count
constexpr size_t min_config_size = 2 + 2;            // name, value

// Every array in this request is non-nullable: a null count is malformed.
int32_t read_non_null_count(byte_reader& r, size_t min_element_size) {
  auto n = read_array_count(r, min_element_size);
  if (n < 0)
    r.fail(errc::bad_length);
  return n;
}

create_topic_assignment read_assignment(byte_reader& r) {
  create_topic_assignment a;
  a.partition_index = r.read_i32();
  auto n = read_non_null_count(r, 4);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    a.broker_ids.push_back(r.read_i32());
  return a;
}

create_topic_config read_config(byte_reader& r) {
  create_topic_config c;
  c.name = read_string(r);
  c.value = read_nullable_string(r);
  return c;
}

create_topic read_topic(byte_reader& r) {
  create_topic t;
  t.name = read_string(r);
  t.num_partitions = r.read_i32();
  t.replication_factor = r.read_i16();
  auto assignments = read_non_null_count(r, min_assignment_size);
  for (int32_t i = 0; i < assignments && r.ok(); ++i)
    t.assignments.push_back(read_assignment(r));
  auto configs = read_non_null_count(r, min_config_size);
  for (int32_t i = 0; i < configs && r.ok(); ++i)
    t.configs.push_back(read_config(r));
  return t;
}

} // namespace

result<create_topics_request> decode_create_topics_request(bytes_view body, int16_t version) {
  create_topics_request req;
  byte_reader r{body};
  auto n = read_non_null_count(r, min_topic_size);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    req.topics.push_back(read_topic(r));
  req.timeout_ms = r.read_i32();
  if (version >= 1)
    req.validate_only = r.read_i8() != 0;
  if (!r.ok())
    return r.error();
  return req;
}

void encode_create_topics_response(const create_topics_response& resp, int16_t version,
                                   byte_writer& w) {
  if (version >= 2)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& t : resp.topics) {
    write_string(w, t.name);
    w.write_i16(t.error_code);
    if (version >= 1)
      write_nullable_string(w, t.error_message);
  }
}

} // namespace cafka::wire
