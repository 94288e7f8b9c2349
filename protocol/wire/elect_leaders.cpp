#include "protocol/wire/elect_leaders.hpp"

namespace cafka::wire {

using protocol::errc;

namespace {

bool is_flexible_version(int16_t version) { return version >= 2; }



} // namespace

result<elect_leaders_request> decode_elect_leaders_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  elect_leaders_request req;
  byte_reader r{body};
  if (version >= 1)
    req.election_type = r.read_i8();
  auto topics = read_array_count(r, 2, flexible);
  if (topics >= 0) {
    req.topic_partitions.emplace();
    for (int32_t i = 0; i < topics && r.ok(); ++i) {
      election_topic t;
      t.topic = read_string(r, flexible);
      auto n = read_required_array_count(r, 4, flexible);
      for (int32_t k = 0; k < n && r.ok(); ++k)
        t.partitions.push_back(r.read_i32());
      end_struct(r, flexible);
      req.topic_partitions->push_back(std::move(t));
    }
  }
  req.timeout_ms = r.read_i32();
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_elect_leaders_response(const elect_leaders_response& resp, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  if (version >= 1)
    w.write_i16(resp.error_code);
  write_array_count(w, static_cast<int32_t>(resp.results.size()), flexible);
  for (auto& t : resp.results) {
    write_string(w, t.topic, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_id);
      w.write_i16(p.error_code);
      write_nullable_string(w, p.error_message, flexible);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

void encode_elect_leaders_request(const elect_leaders_request& req, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  if (version >= 1)
    w.write_i8(req.election_type);
  if (!req.topic_partitions) {
    write_array_count(w, -1, flexible);
  } else {
    write_array_count(w, static_cast<int32_t>(req.topic_partitions->size()), flexible);
    for (auto& t : *req.topic_partitions) {
      write_string(w, t.topic, flexible);
      write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
      for (auto p : t.partitions)
        w.write_i32(p);
      end_struct(w, flexible);
    }
  }
  w.write_i32(req.timeout_ms);
  end_struct(w, flexible);
}

result<elect_leaders_response> decode_elect_leaders_response(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  elect_leaders_response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  if (version >= 1)
    resp.error_code = r.read_i16();
  auto topics = read_required_array_count(r, 2, flexible);
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    election_topic_result t;
    t.topic = read_string(r, flexible);
    auto n = read_required_array_count(r, 8, flexible);
    for (int32_t k = 0; k < n && r.ok(); ++k) {
      election_partition_result p;
      p.partition_id = r.read_i32();
      p.error_code = r.read_i16();
      p.error_message = read_nullable_string(r, flexible);
      end_struct(r, flexible);
      t.partitions.push_back(std::move(p));
    }
    end_struct(r, flexible);
    resp.results.push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return resp;
}

} // namespace cafka::wire
