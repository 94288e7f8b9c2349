#include "protocol/wire/delete_records.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 2; }

} // namespace

result<delete_records_request> decode_delete_records_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  delete_records_request req;
  byte_reader r{body};
  auto topics = read_required_array_count(r, 5, flexible); // a name's length and a partition count
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    delete_records_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 12, flexible);
    for (int32_t j = 0; j < partitions && r.ok(); ++j) {
      delete_records_partition p;
      p.partition_index = r.read_i32();
      p.offset = r.read_i64();
      end_struct(r, flexible);
      t.partitions.push_back(p);
    }
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  req.timeout_ms = r.read_i32();
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_delete_records_response(const delete_records_response& resp, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()), flexible);
  for (auto& t : resp.topics) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i64(p.low_watermark);
      w.write_i16(p.error_code);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
