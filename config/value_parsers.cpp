#include "config/value_parsers.hpp"

#include <cctype>
#include <charconv>
#include <limits>

namespace cafka::config {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\f'; };
  while (!s.empty() && blank(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && blank(s.back()))
    s.remove_suffix(1);
  return s;
}

bool is_host_name(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_')
      return false;
  return true;
}

/// Hex digits, ':' and '.', and a zone id after '%' (fe80::1%eth0).
bool is_ipv6_literal(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != ':' && c != '.' && c != '%')
      return false;
  return s.find(':') != std::string_view::npos;
}

bool is_zookeeper_host(std::string_view entry) {
  std::string_view host;
  std::string_view port;
  if (!entry.empty() && entry.front() == '[') {
    auto close = entry.find(']');
    if (close == std::string_view::npos || close + 1 >= entry.size() || entry[close + 1] != ':')
      return false;
    host = entry.substr(1, close - 1);
    port = entry.substr(close + 2);
    if (!is_ipv6_literal(host))
      return false;
  } else {
    auto colon = entry.find(':');
    if (colon == std::string_view::npos)
      return false;
    host = entry.substr(0, colon);
    port = entry.substr(colon + 1);
    if (!is_host_name(host))
      return false;
  }
  auto p = parse_port(port);
  return p && *p != 0;
}

bool is_chroot(std::string_view path) {
  if (path == "/")
    return true;
  if (path.empty() || path.front() != '/' || path.back() == '/')
    return false;
  for (std::size_t i = 1; i <= path.size();) {
    auto next = path.find('/', i);
    if (next == std::string_view::npos)
      next = path.size();
    auto segment = path.substr(i, next - i);
    if (segment.empty() || segment == "." || segment == "..")
      return false;
    for (char c : segment)
      if (std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c)))
        return false;
    i = next + 1;
  }
  return true;
}

} // namespace

parsed_integer parse_integer(std::string_view text, int64_t type_min, int64_t type_max) {
  bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && text.front() == '+') // Java accepts a leading '+', from_chars does not
    text.remove_prefix(1);
  auto digits = negative ? text.substr(1) : text;
  if (digits.empty())
    return {parsed_integer::not_integer, 0};
  for (char c : digits)
    if (!is_digit(c))
      return {parsed_integer::not_integer, 0};
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    return {negative ? parsed_integer::too_small : parsed_integer::too_large, 0};
  if (ec != std::errc{} || end != text.data() + text.size())
    return {parsed_integer::not_integer, 0};
  if (value < type_min)
    return {parsed_integer::too_small, 0};
  if (value > type_max)
    return {parsed_integer::too_large, 0};
  return {parsed_integer::ok, value};
}

std::optional<bool> parse_bool(std::string_view text) {
  auto equals_ignoring_case = [text](std::string_view word) {
    if (text.size() != word.size())
      return false;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(text[i])) != word[i])
        return false;
    return true;
  };
  if (equals_ignoring_case("true"))
    return true;
  if (equals_ignoring_case("false"))
    return false;
  return std::nullopt;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  if (trim(text).empty())
    return items;
  for (std::size_t start = 0;;) {
    auto comma = text.find(',', start);
    auto item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    items.emplace_back(trim(item));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return items;
}

std::optional<uint16_t> parse_port(std::string_view text) {
  if (text.empty() || text.size() > 5)
    return std::nullopt;
  unsigned value = 0;
  for (char c : text) {
    if (!is_digit(c))
      return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > std::numeric_limits<uint16_t>::max())
    return std::nullopt;
  return static_cast<uint16_t>(value);
}

bool is_valid_zookeeper_connect(std::string_view text) {
  auto slash = text.find('/');
  auto hosts = text.substr(0, slash);
  if (slash != std::string_view::npos && !is_chroot(text.substr(slash)))
    return false;
  if (hosts.empty())
    return false;
  for (std::size_t start = 0;;) {
    auto comma = hosts.find(',', start);
    auto entry = hosts.substr(start, comma == std::string_view::npos ? hosts.npos : comma - start);
    if (!is_zookeeper_host(entry))
      return false;
    if (comma == std::string_view::npos)
      return true;
    start = comma + 1;
  }
}

} // namespace cafka::config
