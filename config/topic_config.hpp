#pragma once
// Topic names and topic-level configuration overrides (what `cafka-topics --create
// --config k=v` and CreateTopics carry), validated like Kafka does.
//
// Keys: every topic config Kafka has (config/topic_config_catalog.hpp). Those cafka
// implements take any valid value; the others only their default. A key Kafka does not
// have is an error (Kafka refuses unknown topic configs with INVALID_CONFIG).

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "config/error.hpp"
#include "storage/log_config.hpp"

namespace cafka::config {

using topic_configs = std::map<std::string, std::string>;

/// Kafka's rule: 1..249 characters of [a-zA-Z0-9._-], not "." or "..". Returns the
/// reason when the name is not valid.
std::optional<std::string> invalid_topic_name(std::string_view name);

/// The broker defaults with the topic's overrides applied. Errors (invalid_value) name
/// the key, the value and what is allowed.
outcome<storage::log_config> apply_topic_configs(storage::log_config base,
                                                 const topic_configs& configs);

} // namespace cafka::config
