#pragma once
// Parsing `--bootstrap-server` strings: "host:port[,host:port...]", with IPv6 hosts in
// brackets ("[::1]:9192"). Pure logic.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <caf/expected.hpp>

namespace cafka::client {

/// Where a node publishes its node actor (its caf.port).
struct endpoint {
  std::string host;
  uint16_t port = 0;

  friend bool operator==(const endpoint& a, const endpoint& b) {
    return a.host == b.host && a.port == b.port;
  }
};

/// "host:port", brackets around IPv6 hosts.
std::string to_string(const endpoint& x);

/// Parses one "host:port". Errors (caf::sec::invalid_argument, with a message that
/// quotes the input): empty input, no port, empty host, a port that is not a number in
/// 1..65535, an unclosed '['.
caf::expected<endpoint> parse_endpoint(std::string_view text);

/// Parses a comma-separated list (blanks around entries ignored); at least one entry.
caf::expected<std::vector<endpoint>> parse_bootstrap(std::string_view text);

} // namespace cafka::client
