#include "protocol/wire/client_quotas.hpp"

#include <cstring>

namespace cafka::wire {

using protocol::errc;

namespace {

bool is_flexible_version(int16_t version) { return version >= 1; }

double read_f64(byte_reader& r) {
  auto bits = static_cast<uint64_t>(r.read_i64());
  double out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

void write_f64(byte_writer& w, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  w.write_i64(static_cast<int64_t>(bits));
}



std::vector<quota_entity_component> read_entity(byte_reader& r, bool flexible) {
  std::vector<quota_entity_component> out;
  auto n = read_required_array_count(r, 2, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    quota_entity_component c;
    c.entity_type = read_string(r, flexible);
    c.entity_name = read_nullable_string(r, flexible);
    end_struct(r, flexible);
    out.push_back(std::move(c));
  }
  return out;
}

void write_entity(byte_writer& w, const std::vector<quota_entity_component>& entity, bool flexible) {
  write_array_count(w, static_cast<int32_t>(entity.size()), flexible);
  for (auto& c : entity) {
    write_string(w, c.entity_type, flexible);
    write_nullable_string(w, c.entity_name, flexible);
    end_struct(w, flexible);
  }
}

} // namespace

result<describe_client_quotas_request> decode_describe_client_quotas_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  describe_client_quotas_request req;
  byte_reader r{body};
  auto n = read_required_array_count(r, 4, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    quota_filter_component c;
    c.entity_type = read_string(r, flexible);
    c.match_type = r.read_i8();
    c.match = read_nullable_string(r, flexible);
    end_struct(r, flexible);
    req.components.push_back(std::move(c));
  }
  req.strict = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_client_quotas_response(const describe_client_quotas_response& resp, int16_t version,
                                            byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  w.write_i16(resp.error_code);
  write_nullable_string(w, resp.error_message, flexible);
  if (!resp.entries) {
    write_array_count(w, -1, flexible);
  } else {
    write_array_count(w, static_cast<int32_t>(resp.entries->size()), flexible);
    for (auto& e : *resp.entries) {
      write_entity(w, e.entity, flexible);
      write_array_count(w, static_cast<int32_t>(e.values.size()), flexible);
      for (auto& v : e.values) {
        write_string(w, v.key, flexible);
        write_f64(w, v.value);
        end_struct(w, flexible);
      }
      end_struct(w, flexible);
    }
  }
  end_struct(w, flexible);
}

result<alter_client_quotas_request> decode_alter_client_quotas_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  alter_client_quotas_request req;
  byte_reader r{body};
  auto n = read_required_array_count(r, 2, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    alter_client_quota_entry e;
    e.entity = read_entity(r, flexible);
    auto ops = read_required_array_count(r, 11, flexible);
    for (int32_t j = 0; j < ops && r.ok(); ++j) {
      quota_op op;
      op.key = read_string(r, flexible);
      op.value = read_f64(r);
      op.remove = r.read_i8() != 0;
      end_struct(r, flexible);
      e.ops.push_back(std::move(op));
    }
    end_struct(r, flexible);
    req.entries.push_back(std::move(e));
  }
  req.validate_only = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_alter_client_quotas_response(const alter_client_quotas_response& resp, int16_t version,
                                         byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.entries.size()), flexible);
  for (auto& e : resp.entries) {
    w.write_i16(e.error_code);
    write_nullable_string(w, e.error_message, flexible);
    write_entity(w, e.entity, flexible);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

void encode_describe_client_quotas_request(const describe_client_quotas_request& req, int16_t version,
                                           byte_writer& w) {
  bool flexible = is_flexible_version(version);
  write_array_count(w, static_cast<int32_t>(req.components.size()), flexible);
  for (auto& c : req.components) {
    write_string(w, c.entity_type, flexible);
    w.write_i8(c.match_type);
    write_nullable_string(w, c.match, flexible);
    end_struct(w, flexible);
  }
  w.write_i8(req.strict ? 1 : 0);
  end_struct(w, flexible);
}

result<describe_client_quotas_response> decode_describe_client_quotas_response(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  describe_client_quotas_response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  resp.error_code = r.read_i16();
  resp.error_message = read_nullable_string(r, flexible);
  auto n = read_array_count(r, 2, flexible);
  if (n >= 0) {
    resp.entries.emplace();
    for (int32_t i = 0; i < n && r.ok(); ++i) {
      client_quota_entry e;
      e.entity = read_entity(r, flexible);
      auto values = read_required_array_count(r, 10, flexible);
      for (int32_t j = 0; j < values && r.ok(); ++j) {
        quota_value v;
        v.key = read_string(r, flexible);
        v.value = read_f64(r);
        end_struct(r, flexible);
        e.values.push_back(std::move(v));
      }
      end_struct(r, flexible);
      resp.entries->push_back(std::move(e));
    }
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return resp;
}

void encode_alter_client_quotas_request(const alter_client_quotas_request& req, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  write_array_count(w, static_cast<int32_t>(req.entries.size()), flexible);
  for (auto& e : req.entries) {
    write_entity(w, e.entity, flexible);
    write_array_count(w, static_cast<int32_t>(e.ops.size()), flexible);
    for (auto& op : e.ops) {
      write_string(w, op.key, flexible);
      write_f64(w, op.value);
      w.write_i8(op.remove ? 1 : 0);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  w.write_i8(req.validate_only ? 1 : 0);
  end_struct(w, flexible);
}

result<alter_client_quotas_response> decode_alter_client_quotas_response(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  alter_client_quotas_response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  auto n = read_required_array_count(r, 4, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    alter_client_quota_result e;
    e.error_code = r.read_i16();
    e.error_message = read_nullable_string(r, flexible);
    e.entity = read_entity(r, flexible);
    end_struct(r, flexible);
    resp.entries.push_back(std::move(e));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return resp;
}

} // namespace cafka::wire
