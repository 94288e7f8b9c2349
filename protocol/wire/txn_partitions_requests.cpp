#include "protocol/wire/txn_partitions_requests.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 3; }

// transactional_id, producer_id, producer_epoch: the head of all three requests.
template <class Request>
void read_producer(byte_reader& r, Request& req, bool flexible) {
  req.transactional_id = read_string(r, flexible);
  req.producer_id = r.read_i64();
  req.producer_epoch = r.read_i16();
}

} // namespace

result<add_partitions_to_txn_request> decode_add_partitions_to_txn_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  add_partitions_to_txn_request req;
  byte_reader r{body};
  read_producer(r, req, flexible);
  auto topics = read_required_array_count(r, 5, flexible); // a name's length and a count
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    add_partitions_to_txn_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 4, flexible);
    for (int32_t j = 0; j < partitions && r.ok(); ++j)
      t.partitions.push_back(r.read_i32());
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_add_partitions_to_txn_response(const add_partitions_to_txn_response& resp, int16_t version,
                                           byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.results.size()), flexible);
  for (auto& t : resp.results) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      w.write_i16(p.error_code);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

result<add_offsets_to_txn_request> decode_add_offsets_to_txn_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  add_offsets_to_txn_request req;
  byte_reader r{body};
  read_producer(r, req, flexible);
  req.group_id = read_string(r, flexible);
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

result<end_txn_request> decode_end_txn_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  end_txn_request req;
  byte_reader r{body};
  read_producer(r, req, flexible);
  req.committed = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_txn_error_response(const txn_error_response& resp, int16_t version, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  end_struct(w, is_flexible_version(version));
}

} // namespace cafka::wire
