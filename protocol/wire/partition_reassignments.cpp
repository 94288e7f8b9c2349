#include "protocol/wire/partition_reassignments.hpp"

namespace cafka::wire {

namespace {

constexpr bool flexible = true; // every version (v0)

std::vector<int32_t> read_ids(byte_reader& r) {
  std::vector<int32_t> out;
  auto n = read_required_array_count(r, 4, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    out.push_back(r.read_i32());
  return out;
}

void write_ids(byte_writer& w, const std::vector<int32_t>& ids) {
  write_array_count(w, static_cast<int32_t>(ids.size()), flexible);
  for (auto id : ids)
    w.write_i32(id);
}

void write_top_error(byte_writer& w, int32_t throttle, int16_t error, const std::optional<std::string>& message) {
  w.write_i32(throttle);
  w.write_i16(error);
  write_nullable_string(w, message, flexible);
}

// Both responses: [name:STRING partitions:[...]], each partition as `write_partition` has it.
template <class Topic, class WritePartition>
void write_topics(byte_writer& w, const std::vector<Topic>& topics, WritePartition write_partition) {
  write_array_count(w, static_cast<int32_t>(topics.size()), flexible);
  for (auto& t : topics) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      write_partition(p);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

// The client side of the same: the top-level error, then the topics.
template <class Response, class Topic, class ReadPartition>
result<Response> read_response(bytes_view body, std::vector<Topic> Response::*topics, ReadPartition read_partition) {
  Response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  resp.error_code = r.read_i16();
  resp.error_message = read_nullable_string(r, flexible);
  auto count = read_required_array_count(r, 3, flexible);
  for (int32_t i = 0; i < count && r.ok(); ++i) {
    Topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 8, flexible);
    for (int32_t k = 0; k < partitions && r.ok(); ++k) {
      t.partitions.push_back(read_partition(r));
      end_struct(r, flexible);
    }
    end_struct(r, flexible);
    (resp.*topics).push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return resp;
}

} // namespace

result<alter_partition_reassignments_request> decode_alter_partition_reassignments_request(bytes_view body) {
  alter_partition_reassignments_request req;
  byte_reader r{body};
  req.timeout_ms = r.read_i32();
  auto topics = read_required_array_count(r, 3, flexible);
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    reassignable_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 6, flexible);
    for (int32_t k = 0; k < partitions && r.ok(); ++k) {
      reassignable_partition p;
      p.partition_index = r.read_i32();
      auto n = read_array_count(r, 4, flexible); // -1: null, a cancel
      if (n >= 0) {
        p.replicas.emplace();
        for (int32_t j = 0; j < n && r.ok(); ++j)
          p.replicas->push_back(r.read_i32());
      }
      end_struct(r, flexible);
      t.partitions.push_back(std::move(p));
    }
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_alter_partition_reassignments_response(const alter_partition_reassignments_response& resp, byte_writer& w) {
  write_top_error(w, resp.throttle_time_ms, resp.error_code, resp.error_message);
  write_topics(w, resp.responses, [&w](const reassignment_partition_result& p) {
    w.write_i32(p.partition_index);
    w.write_i16(p.error_code);
    write_nullable_string(w, p.error_message, flexible);
  });
}

result<list_partition_reassignments_request> decode_list_partition_reassignments_request(bytes_view body) {
  list_partition_reassignments_request req;
  byte_reader r{body};
  req.timeout_ms = r.read_i32();
  auto topics = read_array_count(r, 3, flexible);
  if (topics >= 0) {
    req.topics.emplace();
    for (int32_t i = 0; i < topics && r.ok(); ++i) {
      listed_topic t;
      t.name = read_string(r, flexible);
      t.partition_indexes = read_ids(r);
      end_struct(r, flexible);
      req.topics->push_back(std::move(t));
    }
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_list_partition_reassignments_response(const list_partition_reassignments_response& resp, byte_writer& w) {
  write_top_error(w, resp.throttle_time_ms, resp.error_code, resp.error_message);
  write_topics(w, resp.topics, [&w](const ongoing_partition_reassignment& p) {
    w.write_i32(p.partition_index);
    write_ids(w, p.replicas);
    write_ids(w, p.adding_replicas);
    write_ids(w, p.removing_replicas);
  });
}

void encode_alter_partition_reassignments_request(const alter_partition_reassignments_request& req, byte_writer& w) {
  w.write_i32(req.timeout_ms);
  write_array_count(w, static_cast<int32_t>(req.topics.size()), flexible);
  for (auto& t : req.topics) {
    write_string(w, t.name, flexible);
    write_array_count(w, static_cast<int32_t>(t.partitions.size()), flexible);
    for (auto& p : t.partitions) {
      w.write_i32(p.partition_index);
      if (p.replicas)
        write_ids(w, *p.replicas);
      else
        write_array_count(w, -1, flexible);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

result<alter_partition_reassignments_response> decode_alter_partition_reassignments_response(bytes_view body) {
  return read_response(body, &alter_partition_reassignments_response::responses, [](byte_reader& r) {
    reassignment_partition_result p;
    p.partition_index = r.read_i32();
    p.error_code = r.read_i16();
    p.error_message = read_nullable_string(r, flexible);
    return p;
  });
}

void encode_list_partition_reassignments_request(const list_partition_reassignments_request& req, byte_writer& w) {
  w.write_i32(req.timeout_ms);
  if (!req.topics) {
    write_array_count(w, -1, flexible);
  } else {
    write_array_count(w, static_cast<int32_t>(req.topics->size()), flexible);
    for (auto& t : *req.topics) {
      write_string(w, t.name, flexible);
      write_ids(w, t.partition_indexes);
      end_struct(w, flexible);
    }
  }
  end_struct(w, flexible);
}

result<list_partition_reassignments_response> decode_list_partition_reassignments_response(bytes_view body) {
  return read_response(body, &list_partition_reassignments_response::topics, [](byte_reader& r) {
    ongoing_partition_reassignment p;
    p.partition_index = r.read_i32();
    p.replicas = read_ids(r);
    p.adding_replicas = read_ids(r);
    p.removing_replicas = read_ids(r);
    return p;
  });
}

} // namespace cafka::wire
