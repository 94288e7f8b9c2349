#pragma once
// One entry of `listeners`: NAME://host:port, Kafka's syntax.
// - NAME: letters, digits, '_' and '-'; stored upper-case (Kafka's ListenerName is
//   case-insensitive). cafka serves the PLAINTEXT protocol; other names are accepted here
//   and left to the listener that binds them.
// - host: a name or IPv4 address, an IPv6 address in brackets ([::1]), or empty for the
//   default interface (0.0.0.0 binds all interfaces, as in Kafka).
// - port: 0..65535 (0 = any free port).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cafka::config {

struct listener {
  std::string name; ///< upper-case, e.g. "PLAINTEXT"
  std::string host; ///< without brackets; may be empty
  uint16_t port = 0;
};

bool operator==(const listener& a, const listener& b);
inline bool operator!=(const listener& a, const listener& b) { return !(a == b); }

/// Parses one listener; nullopt if `text` is not NAME://host:port as described above.
std::optional<listener> parse_listener(std::string_view text);

/// NAME://host:port, with brackets around an IPv6 host; parse_listener(to_string(l)) == l.
std::string to_string(const listener& l);

} // namespace cafka::config
