#include "config/listener.hpp"

#include "config/value_parsers.hpp"

#include <cctype>

namespace cafka::config {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

bool is_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

bool is_ipv6_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '.' || c == '%';
}

template <class Pred>
bool all_of(std::string_view s, Pred pred) {
  for (char c : s)
    if (!pred(c))
      return false;
  return true;
}

} // namespace

bool operator==(const listener& a, const listener& b) {
  return a.name == b.name && a.host == b.host && a.port == b.port;
}

std::optional<listener> parse_listener(std::string_view text) {
  auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0)
    return std::nullopt;
  auto name = text.substr(0, scheme_end);
  if (!all_of(name, is_name_char))
    return std::nullopt;
  auto address = text.substr(scheme_end + 3);
  std::string_view host;
  std::string_view port;
  if (!address.empty() && address.front() == '[') {
    auto close = address.find(']');
    if (close == std::string_view::npos || close + 1 >= address.size()
        || address[close + 1] != ':')
      return std::nullopt;
    host = address.substr(1, close - 1);
    port = address.substr(close + 2);
    if (host.empty() || !all_of(host, is_ipv6_char))
      return std::nullopt;
  } else {
    auto colon = address.rfind(':');
    if (colon == std::string_view::npos)
      return std::nullopt;
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
    if (!all_of(host, is_host_char))
      return std::nullopt;
  }
  auto number = parse_port(port);
  if (!number)
    return std::nullopt;
  listener result{std::string(name), std::string(host), *number};
  for (auto& c : result.name)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

std::string to_string(const listener& l) {
  bool bracket = l.host.find(':') != std::string::npos;
  return l.name + "://" + (bracket ? "[" + l.host + "]" : l.host) + ":" + std::to_string(l.port);
}

} // namespace cafka::config
