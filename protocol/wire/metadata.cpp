#include "protocol/wire/metadata.hpp"

namespace cafka::wire {

using protocol::errc;

namespace {

void encode_partition(const metadata_partition& p, int16_t version, byte_writer& w) {
  w.write_i16(p.error_code);
  w.write_i32(p.partition_index);
  w.write_i32(p.leader_id);
  write_int32_array(w, p.replica_nodes);
  write_int32_array(w, p.isr_nodes);
  if (version >= 5)
    write_int32_array(w, p.offline_replicas);
}

} // namespace

result<metadata_request> decode_metadata_request(bytes_view body, int16_t version) {
  metadata_request req;
  byte_reader r{body};
  auto n = read_array_count(r, 2); // a topic is at least its i16 name length
  if (n == -1 && version == 0)
    r.fail(errc::bad_length); // v0's array is not nullable (Kafka rejects it too)
  std::vector<std::string> names;
  for (int32_t i = 0; i < n && r.ok(); ++i)
    names.push_back(read_string(r));
  if (version >= 4)
    req.allow_auto_topic_creation = r.read_i8() != 0;
  if (!r.ok())
    return r.error();
  // v0 has no way to ask for "no topics": its empty array means all of them.
  bool all_topics = version == 0 ? n == 0 : n == -1;
  if (!all_topics)
    req.topics = std::move(names);
  return req;
}

void encode_metadata_response(const metadata_response& resp, int16_t version, byte_writer& w) {
  if (version >= 3)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.brokers.size()));
  for (auto& b : resp.brokers) {
    w.write_i32(b.node_id);
    write_string(w, b.host);
    w.write_i32(b.port);
    if (version >= 1)
      write_nullable_string(w, b.rack);
  }
  if (version >= 2)
    write_nullable_string(w, resp.cluster_id);
  if (version >= 1)
    w.write_i32(resp.controller_id);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()));
  for (auto& t : resp.topics) {
    w.write_i16(t.error_code);
    write_string(w, t.name);
    if (version >= 1)
      w.write_i8(t.is_internal ? 1 : 0);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()));
    for (auto& p : t.partitions)
      encode_partition(p, version, w);
  }
}

} // namespace cafka::wire
