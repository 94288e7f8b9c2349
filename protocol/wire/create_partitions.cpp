#include "protocol/wire/create_partitions.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 2; }

} // namespace

result<create_partitions_request> decode_create_partitions_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  create_partitions_request req;
  byte_reader r{body};
  auto topics = read_required_array_count(r, 2 + 4 + 1, flexible);
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    create_partitions_topic t;
    t.name = read_string(r, flexible);
    t.count = r.read_i32();
    auto assignments = read_array_count(r, 1, flexible); // -1: null
    for (int32_t a = 0; a < assignments && r.ok(); ++a) {
      auto n = read_required_array_count(r, 4, flexible);
      std::vector<int32_t> brokers;
      for (int32_t k = 0; k < n && r.ok(); ++k)
        brokers.push_back(r.read_i32());
      end_struct(r, flexible);
      t.assignments.push_back(std::move(brokers));
    }
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  req.timeout_ms = r.read_i32();
  req.validate_only = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_create_partitions_response(const create_partitions_response& resp, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.results.size()), flexible);
  for (auto& t : resp.results) {
    write_string(w, t.name, flexible);
    w.write_i16(t.error_code);
    write_nullable_string(w, t.error_message, flexible);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
