#include "client/bootstrap.hpp"

#include <caf/error.hpp>
#include <caf/make_message.hpp>
#include <caf/sec.hpp>

namespace cafka::client {

namespace {

caf::error bad(std::string_view text, const char* why) {
  return caf::make_error(caf::sec::invalid_argument,
                         "bootstrap server '" + std::string{text} + "': " + why
                           + " (expected host:port, e.g. 127.0.0.1:9192)");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

std::string to_string(const endpoint& x) {
  if (x.host.find(':') != std::string::npos)
    return "[" + x.host + "]:" + std::to_string(x.port);
  return x.host + ":" + std::to_string(x.port);
}

caf::expected<endpoint> parse_endpoint(std::string_view text) {
  auto s = trim(text);
  if (s.empty())
    return bad(text, "empty");
  std::string_view host;
  std::string_view rest;
  if (s.front() == '[') {
    auto close = s.find(']');
    if (close == std::string_view::npos)
      return bad(text, "missing ']' after an IPv6 address");
    host = s.substr(1, close - 1);
    rest = s.substr(close + 1);
    if (rest.empty() || rest.front() != ':')
      return bad(text, "missing port");
    rest.remove_prefix(1);
  } else {
    auto colon = s.rfind(':');
    if (colon == std::string_view::npos)
      return bad(text, "missing port");
    host = s.substr(0, colon);
    rest = s.substr(colon + 1);
    if (host.find(':') != std::string_view::npos)
      return bad(text, "IPv6 addresses need brackets");
  }
  if (host.empty())
    return bad(text, "missing host");
  if (rest.empty())
    return bad(text, "missing port");
  uint32_t port = 0;
  for (char c : rest) {
    if (c < '0' || c > '9')
      return bad(text, "port is not a number");
    port = port * 10 + static_cast<uint32_t>(c - '0');
    if (port > 65535)
      return bad(text, "port out of range 1..65535");
  }
  if (port == 0)
    return bad(text, "port out of range 1..65535");
  return endpoint{std::string{host}, static_cast<uint16_t>(port)};
}

caf::expected<std::vector<endpoint>> parse_bootstrap(std::string_view text) {
  std::vector<endpoint> out;
  size_t pos = 0;
  for (;;) {
    auto comma = text.find(',', pos);
    auto item = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    auto ep = parse_endpoint(item);
    if (!ep)
      return ep.error();
    out.push_back(std::move(*ep));
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  return out;
}

} // namespace cafka::client
