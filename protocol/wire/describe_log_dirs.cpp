#include "protocol/wire/describe_log_dirs.hpp"

namespace cafka::wire {

result<describe_log_dirs_request> decode_describe_log_dirs_request(bytes_view body, int16_t) {
  describe_log_dirs_request req;
  byte_reader r{body};
  auto n = read_array_count(r, 2 + 4); // -1: null, every partition
  if (n >= 0) {
    req.topics.emplace();
    for (int32_t i = 0; i < n && r.ok(); ++i) {
      log_dirs_topic t;
      t.topic = read_string(r);
      t.partitions = read_int32_array(r);
      req.topics->push_back(std::move(t));
    }
  }
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_log_dirs_response(const describe_log_dirs_response& resp, int16_t, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.results.size()));
  for (auto& d : resp.results) {
    w.write_i16(d.error_code);
    write_string(w, d.log_dir);
    write_array_count(w, static_cast<int32_t>(d.topics.size()));
    for (auto& t : d.topics) {
      write_string(w, t.name);
      write_array_count(w, static_cast<int32_t>(t.partitions.size()));
      for (auto& p : t.partitions) {
        w.write_i32(p.partition_index);
        w.write_i64(p.partition_size);
        w.write_i64(p.offset_lag);
        w.write_i8(p.is_future_key ? 1 : 0);
      }
    }
  }
}

} // namespace cafka::wire
