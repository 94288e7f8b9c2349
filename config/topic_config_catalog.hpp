#pragma once
// Every topic-level config Kafka has (3.x), with Kafka's default and the broker keys it falls
// back to (its synonyms), as DescribeConfigs lists them. config/topic_config.cpp validates and
// applies each (docs/configs.md says how, and which act only together with a feature).

#include <string>
#include <string_view>
#include <vector>

#include "config/server_config.hpp"

namespace cafka::config {

struct topic_key {
  std::string name;
  std::string default_value;          ///< Kafka's built-in default, as DescribeConfigs shows it
  std::vector<std::string> synonyms;  ///< broker keys, most specific first (log.retention.ms, then .minutes, .hours)
};

/// In Kafka's (alphabetical) order.
const std::vector<topic_key>& topic_keys();
const topic_key* find_topic_key(std::string_view name);

/// The value a topic without an override of `key` has on a broker with `cfg`: the broker's
/// effective setting (log.retention.hours=1 gives retention.ms 3600000), else the default.
std::string broker_default(const topic_key& key, const server_config& cfg);

} // namespace cafka::config
