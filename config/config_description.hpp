#pragma once
// DescribeConfigs' answer for one resource, as Kafka's ConfigHelper builds it (see
// ../shared/docs/compaction-txn-admin-notes.md §3), without I/O.
//
// A topic lists every topic config (config/topic_config_catalog.hpp) with its value in force:
// the topic's override (TOPIC_CONFIG), else the broker synonym set at run time for this
// broker (DYNAMIC_BROKER_CONFIG) or every broker (DYNAMIC_DEFAULT_BROKER_CONFIG), else the one
// the properties file set (STATIC_BROKER_CONFIG), else the default (DEFAULT_CONFIG); synonyms,
// when asked, in that order. A broker lists its static keys (config/server_config.hpp's
// known_keys) and the dynamic-only ones (config/dynamic_broker_config.hpp) the same way;
// read_only = not changeable at run time. The broker resource "" is the cluster-wide dynamic
// defaults only. Keys asked for that do
// not exist are left out, as Kafka does.

#include <optional>
#include <string>
#include <vector>

#include "config/dynamic_broker_config.hpp"
#include "config/server_config.hpp"
#include "config/topic_config.hpp"
#include "protocol/wire/configs.hpp"

namespace cafka::config {

using key_filter = std::optional<std::vector<std::string>>; ///< nullopt: every key

std::vector<wire::described_config> describe_topic(const topic_configs& overrides, const server_config& cfg,
                                                   const dynamic_broker_configs& dynamic, const key_filter& keys,
                                                   bool include_synonyms);

/// `name`: this broker's id as text, or "" for the cluster defaults.
std::vector<wire::described_config> describe_broker(const std::string& name, const server_config& cfg,
                                                    const dynamic_broker_configs& dynamic, const key_filter& keys,
                                                    bool include_synonyms);

} // namespace cafka::config
