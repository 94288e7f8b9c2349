#include "protocol/wire/configs.hpp"

namespace cafka::wire {

namespace {

// Only IncrementalAlterConfigs v1 is flexible among the versions served.
bool is_flexible_alter(bool incremental, int16_t version) { return incremental && version >= 1; }

result<alter_configs_request> decode_alter(bytes_view body, bool incremental, int16_t version) {
  bool flexible = is_flexible_alter(incremental, version);
  alter_configs_request req;
  req.incremental = incremental;
  byte_reader r{body};
  auto resources = read_required_array_count(r, 1 + 2 + 4, flexible);
  for (int32_t i = 0; i < resources && r.ok(); ++i) {
    alter_configs_resource res;
    res.resource_type = r.read_i8();
    res.resource_name = read_string(r, flexible);
    auto configs = read_required_array_count(r, 2 + 2, flexible);
    for (int32_t c = 0; c < configs && r.ok(); ++c) {
      altered_config cfg;
      cfg.name = read_string(r, flexible);
      if (incremental)
        cfg.operation = r.read_i8();
      cfg.value = read_nullable_string(r, flexible);
      end_struct(r, flexible);
      res.configs.push_back(std::move(cfg));
    }
    end_struct(r, flexible);
    req.resources.push_back(std::move(res));
  }
  req.validate_only = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

} // namespace

result<describe_configs_request> decode_describe_configs_request(bytes_view body, int16_t version) {
  describe_configs_request req;
  byte_reader r{body};
  auto resources = read_required_array_count(r, 1 + 2 + 4, false);
  for (int32_t i = 0; i < resources && r.ok(); ++i) {
    describe_configs_resource res;
    res.resource_type = r.read_i8();
    res.resource_name = read_string(r);
    auto keys = read_array_count(r, 2); // -1: null, every key
    if (keys >= 0) {
      res.configuration_keys.emplace();
      for (int32_t k = 0; k < keys && r.ok(); ++k)
        res.configuration_keys->push_back(read_string(r));
    }
    req.resources.push_back(std::move(res));
  }
  if (version >= 1)
    req.include_synonyms = r.read_i8() != 0;
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_configs_response(const describe_configs_response& resp, int16_t version, byte_writer& w) {
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.results.size()));
  for (auto& res : resp.results) {
    w.write_i16(res.error_code);
    write_nullable_string(w, res.error_message);
    w.write_i8(res.resource_type);
    write_string(w, res.resource_name);
    write_array_count(w, static_cast<int32_t>(res.configs.size()));
    for (auto& c : res.configs) {
      write_string(w, c.name);
      write_nullable_string(w, c.value);
      w.write_i8(c.read_only ? 1 : 0);
      if (version == 0)
        w.write_i8(c.config_source == static_cast<int8_t>(config_source::default_config) ? 1 : 0);
      else
        w.write_i8(c.config_source);
      w.write_i8(c.is_sensitive ? 1 : 0);
      if (version >= 1) {
        write_array_count(w, static_cast<int32_t>(c.synonyms.size()));
        for (auto& s : c.synonyms) {
          write_string(w, s.name);
          write_nullable_string(w, s.value);
          w.write_i8(s.source);
        }
      }
    }
  }
}

result<alter_configs_request> decode_alter_configs_request(bytes_view body, int16_t version) {
  return decode_alter(body, false, version);
}

result<alter_configs_request> decode_incremental_alter_configs_request(bytes_view body, int16_t version) {
  return decode_alter(body, true, version);
}

void encode_alter_configs_response(const alter_configs_response& resp, bool incremental, int16_t version,
                                   byte_writer& w) {
  bool flexible = is_flexible_alter(incremental, version);
  w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.responses.size()), flexible);
  for (auto& res : resp.responses) {
    w.write_i16(res.error_code);
    write_nullable_string(w, res.error_message, flexible);
    w.write_i8(res.resource_type);
    write_string(w, res.resource_name, flexible);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
}

void encode_describe_configs_request(const describe_configs_request& req, int16_t version, byte_writer& w) {
  write_array_count(w, static_cast<int32_t>(req.resources.size()));
  for (auto& res : req.resources) {
    w.write_i8(res.resource_type);
    write_string(w, res.resource_name);
    if (!res.configuration_keys) {
      w.write_i32(-1);
    } else {
      write_array_count(w, static_cast<int32_t>(res.configuration_keys->size()));
      for (auto& k : *res.configuration_keys)
        write_string(w, k);
    }
  }
  if (version >= 1)
    w.write_i8(req.include_synonyms ? 1 : 0);
}

result<describe_configs_response> decode_describe_configs_response(bytes_view body, int16_t version) {
  describe_configs_response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  auto results = read_required_array_count(r, 2 + 2 + 1 + 2 + 4, false);
  for (int32_t i = 0; i < results && r.ok(); ++i) {
    describe_configs_result res;
    res.error_code = r.read_i16();
    res.error_message = read_nullable_string(r);
    res.resource_type = r.read_i8();
    res.resource_name = read_string(r);
    auto configs = read_required_array_count(r, 2 + 2 + 3, false);
    for (int32_t c = 0; c < configs && r.ok(); ++c) {
      described_config cfg;
      cfg.name = read_string(r);
      cfg.value = read_nullable_string(r);
      cfg.read_only = r.read_i8() != 0;
      auto source = r.read_i8();
      cfg.config_source = version == 0 ? static_cast<int8_t>(source != 0 ? config_source::default_config
                                                                          : config_source::unknown)
                                       : source;
      cfg.is_sensitive = r.read_i8() != 0;
      if (version >= 1) {
        auto synonyms = read_required_array_count(r, 2 + 2 + 1, false);
        for (int32_t s = 0; s < synonyms && r.ok(); ++s) {
          config_synonym syn;
          syn.name = read_string(r);
          syn.value = read_nullable_string(r);
          syn.source = r.read_i8();
          cfg.synonyms.push_back(std::move(syn));
        }
      }
      res.configs.push_back(std::move(cfg));
    }
    resp.results.push_back(std::move(res));
  }
  if (!r.ok())
    return r.error();
  return resp;
}

void encode_alter_configs_request(const alter_configs_request& req, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_alter(req.incremental, version);
  write_array_count(w, static_cast<int32_t>(req.resources.size()), flexible);
  for (auto& res : req.resources) {
    w.write_i8(res.resource_type);
    write_string(w, res.resource_name, flexible);
    write_array_count(w, static_cast<int32_t>(res.configs.size()), flexible);
    for (auto& c : res.configs) {
      write_string(w, c.name, flexible);
      if (req.incremental)
        w.write_i8(c.operation);
      write_nullable_string(w, c.value, flexible);
      end_struct(w, flexible);
    }
    end_struct(w, flexible);
  }
  w.write_i8(req.validate_only ? 1 : 0);
  end_struct(w, flexible);
}

result<alter_configs_response> decode_alter_configs_response(bytes_view body, bool incremental, int16_t version) {
  bool flexible = is_flexible_alter(incremental, version);
  alter_configs_response resp;
  byte_reader r{body};
  resp.throttle_time_ms = r.read_i32();
  auto n = read_required_array_count(r, 2 + 2 + 1 + 2, flexible);
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    alter_configs_result res;
    res.error_code = r.read_i16();
    res.error_message = read_nullable_string(r, flexible);
    res.resource_type = r.read_i8();
    res.resource_name = read_string(r, flexible);
    end_struct(r, flexible);
    resp.responses.push_back(std::move(res));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return resp;
}

} // namespace cafka::wire
