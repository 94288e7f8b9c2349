#include "protocol/wire/describe_producers.hpp"

namespace cafka::wire {

namespace {

constexpr bool flexible = true; // every version

} // namespace

result<describe_producers_request> decode_describe_producers_request(bytes_view body, int16_t) {
  describe_producers_request req;
  byte_reader r{body};
  auto topics = read_required_array_count(r, 3, flexible); // name, count, tags
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    describe_producers_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 4, flexible);
    for (int32_t j = 0; j < partitions && r.ok(); ++j)
      t.partition_indexes.push_back(r.read_i32());
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_producers_response(const describe_producers_response& resp, int16_t, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.topics.size()), flexible);
  for (auto& t : resp.topics) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i16(p.error_code);
      write_nullable_string(w, p.error_message, flexible);
      write_array_count(w, static_cast<int32_t>(p.active_producers.size()), flexible);
      for (auto& a : p.active_producers) {
        w.write_i64(a.producer_id);
        w.write_i32(a.producer_epoch);
        w.write_i32(a.last_sequence);
        w.write_i64(a.last_timestamp);
        w.write_i32(a.coordinator_epoch);
        w.write_i64(a.current_txn_start_offset);
        end_struct(w, flexible);
      }
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
