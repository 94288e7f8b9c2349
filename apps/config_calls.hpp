#pragma once
// DescribeConfigs and IncrementalAlterConfigs over a broker's Kafka listener, for the tools
// that read or change topic and broker configs (cafka-configs, cafka-reassign-partitions
// --throttle). Throws as kafka_call does; a malformed answer ends the tool (exit 1).

#include <string>

#include "protocol/wire/configs.hpp"

namespace cafka::tools {

/// DescribeConfigs v1 (synonyms when asked).
wire::describe_configs_response describe_configs(const char* tool, const std::string& broker,
                                                 const wire::describe_configs_request& req, int timeout_ms);

/// IncrementalAlterConfigs v0 (req.incremental must be true).
wire::alter_configs_response incremental_alter_configs(const char* tool, const std::string& broker,
                                                       const wire::alter_configs_request& req, int timeout_ms);

/// Kafka's name of a config source, as kafka-configs prints it (DYNAMIC_TOPIC_CONFIG, ...).
const char* source_name(int8_t source);

} // namespace cafka::tools
