#pragma once
// Text -> value for the value types of server.properties, Kafka's rules:
// integers are decimal with an optional sign (Java's Integer/Long.parseInt), booleans are
// true/false in any case, lists are comma-separated with blanks around items dropped.
// The caller trims the whole value first (parse_properties does) and turns a failure into an
// error that names the key.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::config {

struct parsed_integer {
  enum status_t { ok, not_integer, too_small, too_large } status;
  int64_t value; ///< valid when status == ok
};

/// Parses a decimal integer; too_small / too_large when it does not fit [type_min, type_max]
/// (the bounds of the key's Java type, int or long), so overflow is never silent.
parsed_integer parse_integer(std::string_view text, int64_t type_min, int64_t type_max);

/// "true" / "false", case-insensitive; nullopt otherwise.
std::optional<bool> parse_bool(std::string_view text);

/// Splits at ',' and trims spaces/tabs around each item. "" -> {}; empty items are kept
/// ("a,,b" -> {"a", "", "b"}) so the caller can reject them.
std::vector<std::string> split_list(std::string_view text);

/// A port: decimal digits only, 0..65535.
std::optional<uint16_t> parse_port(std::string_view text);

/// ZooKeeper's connect string: host:port[,host:port...][/chroot], hosts as names, IPv4 or
/// [IPv6], ports 1..65535; the chroot, if any, is an absolute path without a trailing '/',
/// empty, "." or ".." segments ("/" alone is allowed and means no chroot).
bool is_valid_zookeeper_connect(std::string_view text);

} // namespace cafka::config
