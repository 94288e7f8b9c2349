#include "protocol/wire/offset_fetch.hpp"

namespace cafka::wire {

using protocol::errc;

namespace {

bool is_flexible_version(int16_t version) { return version >= 6; }

} // namespace

result<offset_fetch_request> decode_offset_fetch_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  offset_fetch_request req;
  byte_reader r{body};
  req.group_id = read_string(r, flexible);
  auto n = read_array_count(r, 2 + 4, flexible); // name length + partition count
  if (n == -1 && version < 2)
    r.fail(errc::bad_length); // "all topics" needs v2
  std::vector<offset_fetch_topic> topics;
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    offset_fetch_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 4, flexible);
    for (int32_t k = 0; k < partitions && r.ok(); ++k)
      t.partition_indexes.push_back(r.read_i32());
    end_struct(r, flexible);
    topics.push_back(std::move(t));
  }
  if (version >= 7)
    req.require_stable = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  if (n != -1)
    req.topics = std::move(topics);
  return req;
}

void encode_offset_fetch_response(const offset_fetch_response& resp, int16_t version,
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
      w.write_i64(p.committed_offset);
      if (version >= 5)
        w.write_i32(p.committed_leader_epoch);
      write_nullable_string(w, p.metadata, flexible);
      w.write_i16(p.error_code);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  if (version >= 2)
    w.write_i16(resp.error_code);
  end_struct(w, flexible);
}

} // namespace cafka::wire
