#include "cluster/quota_znodes.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cluster/errc.hpp"
#include "cluster/kv_text.hpp"
#include "cluster/percent_encoding.hpp"

namespace cafka::cluster {

namespace {

constexpr std::string_view default_name = "<default>";
constexpr std::string_view config_key_prefix = "config.";

std::string name_of(const entity_part& part) {
  return part.kind == entity_part::form::default_entity ? std::string{default_name} : percent_encode(part.name);
}

result<entity_part> part_of(std::string_view name) {
  if (name == default_name)
    return entity_part::any_default();
  auto decoded = percent_decode(name);
  if (!decoded)
    return decoded.error();
  return entity_part::named_as(std::move(*decoded));
}

std::string value_text(quota_kind kind, double value) {
  char buf[64];
  if (kind == quota_kind::request_percentage)
    std::snprintf(buf, sizeof buf, "%.17g", value);
  else
    std::snprintf(buf, sizeof buf, "%.0f", value);
  return buf;
}

result<double> value_of(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    return errc::malformed_data;
  return v;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    auto slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos)
      return out;
    start = slash + 1;
  }
}

} // namespace

std::string quota_entity_path(const quota_entity& e) {
  using form = entity_part::form;
  if (e.user.kind != form::absent) {
    auto path = "users/" + name_of(e.user);
    if (e.client_id.kind != form::absent)
      path += "/clients/" + name_of(e.client_id);
    return path;
  }
  return "clients/" + name_of(e.client_id);
}

result<quota_entity> quota_entity_of_path(std::string_view path) {
  auto parts = split_path(path);
  for (auto p : parts)
    if (p.empty())
      return errc::malformed_data;
  quota_entity e;
  if (parts.size() == 2 && parts[0] == "clients") {
    auto c = part_of(parts[1]);
    if (!c)
      return c.error();
    e.client_id = *c;
    return e;
  }
  if ((parts.size() == 2 || (parts.size() == 4 && parts[2] == "clients")) && parts[0] == "users") {
    auto u = part_of(parts[1]);
    if (!u)
      return u.error();
    e.user = *u;
    if (parts.size() == 4) {
      auto c = part_of(parts[3]);
      if (!c)
        return c.error();
      e.client_id = *c;
    }
    return e;
  }
  return errc::malformed_data;
}

std::string quota_znode_path(const quota_entity& entity) { return "/config/" + quota_entity_path(entity); }

std::string encode_quota_values(const quota_values& values) {
  kv_writer w;
  w.add_int("version", 1);
  for (auto& [kind, value] : values)
    w.add(std::string{config_key_prefix} + percent_encode(key_of(kind)), value_text(kind, value));
  return w.text();
}

result<quota_values> decode_quota_values(std::string_view text) {
  quota_values out;
  if (text.empty())
    return out;
  auto fields = kv_fields::parse(text);
  if (!fields)
    return fields.error();
  if (auto st = fields->require_version(1); !st)
    return st.error();
  for (auto& [key, value] : fields->all()) {
    if (key.compare(0, config_key_prefix.size(), config_key_prefix) != 0)
      continue;
    auto name = percent_decode(std::string_view{key}.substr(config_key_prefix.size()));
    if (!name)
      return name.error();
    auto kind = quota_kind_of(*name);
    if (!kind)
      continue;
    auto v = value_of(value);
    if (!v)
      return v.error();
    out[*kind] = *v;
  }
  return out;
}

std::string encode_config_change(const std::string& entity_path) {
  kv_writer w;
  w.add_int("version", 1);
  w.add("entity_path", entity_path);
  return w.text();
}

std::string format_quota_file(const quota_table& table) {
  kv_writer w;
  w.add_int("version", 1);
  for (auto& [entity, values] : table.entries())
    for (auto& [kind, value] : values)
      w.add(percent_encode(quota_entity_path(entity)) + "." + percent_encode(key_of(kind)), value_text(kind, value));
  return w.text();
}

result<quota_table> parse_quota_file(std::string_view text) {
  auto fields = kv_fields::parse(text);
  if (!fields)
    return fields.error();
  if (auto st = fields->require_version(1); !st)
    return st.error();
  quota_table table;
  for (auto& [key, value] : fields->all()) {
    if (key == "version")
      continue;
    auto dot = key.rfind('.');
    if (dot == std::string::npos)
      return errc::malformed_data;
    auto path = percent_decode(std::string_view{key}.substr(0, dot));
    auto name = percent_decode(std::string_view{key}.substr(dot + 1));
    if (!path || !name)
      return errc::malformed_data;
    auto entity = quota_entity_of_path(*path);
    auto kind = quota_kind_of(*name);
    auto v = value_of(value);
    if (!entity || !kind || !v)
      return errc::malformed_data;
    table.set(*entity, *kind, *v);
  }
  return table;
}

} // namespace cafka::cluster
