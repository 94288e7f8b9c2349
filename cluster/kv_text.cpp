#include "cluster/kv_text.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <limits>

#include "cluster/errc.hpp"

namespace cafka::cluster {
namespace {

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
         || c == '_' || c == '-' || c == '%';
}

void append_escaped(std::string& out, std::string_view value) {
  for (char c : value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
}

result<std::string> unescape(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '\r')
      return errc::malformed_data;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == value.size())
      return errc::malformed_data;
    switch (value[i]) {
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return errc::malformed_data;
    }
  }
  return out;
}

} // namespace

bool is_valid_kv_key(std::string_view key) noexcept {
  return !key.empty() && std::all_of(key.begin(), key.end(), is_key_char);
}

kv_writer& kv_writer::add(std::string_view key, std::string_view value) {
  assert(is_valid_kv_key(key));
  text_ += key;
  text_ += '=';
  append_escaped(text_, value);
  text_ += '\n';
  return *this;
}

kv_writer& kv_writer::add_int(std::string_view key, int64_t value) {
  return add(key, std::to_string(value));
}

kv_writer& kv_writer::add_ints(std::string_view key, const std::vector<int32_t>& values) {
  std::string list;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0)
      list += ',';
    list += std::to_string(values[i]);
  }
  return add(key, list);
}

result<kv_fields> kv_fields::parse(std::string_view text) {
  kv_fields out;
  while (!text.empty()) {
    auto eol = text.find('\n');
    auto line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.empty())
      continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos || !is_valid_kv_key(line.substr(0, eq)))
      return errc::malformed_data;
    auto value = unescape(line.substr(eq + 1));
    if (!value)
      return value.error();
    if (!out.fields_.emplace(std::string(line.substr(0, eq)), std::move(*value)).second)
      return errc::malformed_data; // duplicate key
  }
  return out;
}

status kv_fields::require_version(int64_t version) const {
  auto v = integer("version", version, version);
  return v ? status{} : status{v.error()};
}

bool kv_fields::has(std::string_view key) const {
  return fields_.find(key) != fields_.end();
}

result<std::string> kv_fields::text(std::string_view key) const {
  auto it = fields_.find(key);
  if (it == fields_.end())
    return errc::malformed_data;
  return it->second;
}

result<int64_t> kv_fields::integer(std::string_view key, int64_t min, int64_t max) const {
  auto it = fields_.find(key);
  if (it == fields_.end())
    return errc::malformed_data;
  return parse_kv_int(it->second, min, max);
}

result<std::vector<int32_t>> kv_fields::id_list(std::string_view key) const {
  auto it = fields_.find(key);
  if (it == fields_.end())
    return errc::malformed_data;
  return parse_kv_id_list(it->second);
}

result<int64_t> parse_kv_int(std::string_view text, int64_t min, int64_t max) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < min
      || value > max)
    return errc::malformed_data;
  return value;
}

result<std::vector<int32_t>> parse_kv_id_list(std::string_view text) {
  std::vector<int32_t> ids;
  if (text.empty())
    return ids;
  for (;;) {
    auto comma = text.find(',');
    auto id = parse_kv_int(text.substr(0, comma), 0, std::numeric_limits<int32_t>::max());
    if (!id)
      return id.error();
    ids.push_back(static_cast<int32_t>(*id));
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
  }
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return errc::malformed_data; // a replica or ISR member listed twice
  return ids;
}

} // namespace cafka::cluster
