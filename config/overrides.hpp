#pragma once
// Command-line overrides: `cafka-server config/server.properties --override key=value ...`,
// Kafka's kafka-server-start syntax. Overrides win over the file.

#include "config/error.hpp"
#include "config/properties_file.hpp"

#include <string_view>
#include <vector>

namespace cafka::config {

/// Parses the arguments that follow the properties path: `--override key=value` (two
/// arguments) or `--override=key=value` (one), repeated. The key/value text is split at
/// its first '=' (values may contain '='), blanks around key and value are dropped, an empty
/// value is allowed, and a later override of the same key wins. Entries have line 0.
/// Errors (errc::malformed_override, the message quotes the argument): an override without
/// '=' or with an empty key, `--override` as the last argument, any other argument.
/// Call as parse_overrides({argv + 2, argv + argc}).
outcome<properties> parse_overrides(const std::vector<std::string_view>& args);

} // namespace cafka::config
