#include "protocol/wire/transactions_admin.hpp"

namespace cafka::wire {

namespace {

constexpr bool flexible = true; // every version

} // namespace

result<describe_transactions_request> decode_describe_transactions_request(bytes_view body, int16_t) {
  describe_transactions_request req;
  byte_reader r{body};
  auto ids = read_required_array_count(r, 1, flexible);
  for (int32_t i = 0; i < ids && r.ok(); ++i)
    req.transactional_ids.push_back(read_string(r, flexible));
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_transactions_response(const describe_transactions_response& resp, int16_t, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.transaction_states.size()), flexible);
  for (auto& t : resp.transaction_states) {
    w.write_i16(t.error_code);
    write_string(w, t.transactional_id, flexible);
    write_string(w, t.transaction_state, flexible);
    w.write_i32(t.transaction_timeout_ms);
    w.write_i64(t.transaction_start_time_ms);
    w.write_i64(t.producer_id);
    w.write_i16(t.producer_epoch);
    write_array_count(w, static_cast<int32_t>(t.topics.size()), flexible);
    for (auto& topic : t.topics) {
      write_string(w, topic.topic, flexible);
      write_array_count(w, static_cast<int32_t>(topic.partitions.size()), flexible);
      for (auto p : topic.partitions)
        w.write_i32(p);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

result<list_transactions_request> decode_list_transactions_request(bytes_view body, int16_t version) {
  list_transactions_request req;
  byte_reader r{body};
  auto states = read_required_array_count(r, 1, flexible);
  for (int32_t i = 0; i < states && r.ok(); ++i)
    req.state_filters.push_back(read_string(r, flexible));
  auto ids = read_required_array_count(r, 8, flexible);
  for (int32_t i = 0; i < ids && r.ok(); ++i)
    req.producer_id_filters.push_back(r.read_i64());
  if (version >= 1)
    req.duration_filter = r.read_i64();
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_list_transactions_response(const list_transactions_response& resp, int16_t, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  write_array_count(w, static_cast<int32_t>(resp.unknown_state_filters.size()), flexible);
  for (auto& s : resp.unknown_state_filters)
    write_string(w, s, flexible);
  write_array_count(w, static_cast<int32_t>(resp.transaction_states.size()), flexible);
  for (auto& t : resp.transaction_states) {
    write_string(w, t.transactional_id, flexible);
    w.write_i64(t.producer_id);
    write_string(w, t.transaction_state, flexible);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

} // namespace cafka::wire
