#pragma once
// The config APIs: DescribeConfigs (key 32) v0-v2, AlterConfigs (33) v0-v1 and
// IncrementalAlterConfigs (44) v0-v1 (v1 flexible: compact strings and arrays, a tag buffer
// after every struct). None of the others is flexible at these versions.
//
//   DescribeConfigs request:  resources:[resource_type:i8 resource_name:STRING
//                               configuration_keys:NULLABLE [STRING]] [v1+]include_synonyms:BOOL
//   DescribeConfigs response: throttle_time_ms:i32 results:[error_code:i16 error_message:NULLABLE_STRING
//                               resource_type:i8 resource_name:STRING configs:[name:STRING
//                               value:NULLABLE_STRING read_only:BOOL [v0]is_default:BOOL
//                               [v1+]config_source:i8 is_sensitive:BOOL
//                               [v1+]synonyms:[name:STRING value:NULLABLE_STRING source:i8]]]
//   AlterConfigs request:     resources:[resource_type:i8 resource_name:STRING
//                               configs:[name:STRING value:NULLABLE_STRING]] validate_only:BOOL
//   IncrementalAlterConfigs:  the same, with config_operation:i8 after each config's name
//   both responses:           throttle_time_ms:i32 responses:[error_code:i16
//                               error_message:NULLABLE_STRING resource_type:i8 resource_name:STRING]
//
// resource_type: 2 topic, 4 broker (8 broker logger); config_source: 1 topic config,
// 2 dynamic broker config, 3 dynamic default broker config, 4 static broker config (the
// properties file), 5 default config; config_operation: 0 set, 1 delete, 2 append, 3 subtract.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

enum class config_resource_type : int8_t { unknown = 0, topic = 2, broker = 4, broker_logger = 8 };

enum class config_source : int8_t {
  unknown = 0,
  topic_config = 1,
  dynamic_broker_config = 2,
  dynamic_default_broker_config = 3,
  static_broker_config = 4,
  default_config = 5,
};

enum class config_operation : int8_t { set = 0, remove = 1, append = 2, subtract = 3 };

struct describe_configs_resource {
  int8_t resource_type = 0;
  std::string resource_name;
  std::optional<std::vector<std::string>> configuration_keys; ///< nullopt: every key
};

struct describe_configs_request {
  std::vector<describe_configs_resource> resources;
  bool include_synonyms = false;
};

struct config_synonym {
  std::string name;
  std::optional<std::string> value;
  int8_t source = 0;
};

struct described_config {
  std::string name;
  std::optional<std::string> value;
  bool read_only = false;
  int8_t config_source = 0; ///< v0 sends is_default = (config_source == default_config)
  bool is_sensitive = false;
  std::vector<config_synonym> synonyms;
};

struct describe_configs_result {
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  int8_t resource_type = 0;
  std::string resource_name;
  std::vector<described_config> configs;
};

struct describe_configs_response {
  int32_t throttle_time_ms = 0;
  std::vector<describe_configs_result> results;
};

struct altered_config {
  std::string name;
  int8_t operation = 0; ///< IncrementalAlterConfigs only (AlterConfigs replaces the whole set)
  std::optional<std::string> value;
};

struct alter_configs_resource {
  int8_t resource_type = 0;
  std::string resource_name;
  std::vector<altered_config> configs;
};

/// AlterConfigs and IncrementalAlterConfigs (`incremental`).
struct alter_configs_request {
  bool incremental = false;
  std::vector<alter_configs_resource> resources;
  bool validate_only = false;
};

struct alter_configs_result {
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  int8_t resource_type = 0;
  std::string resource_name;
};

struct alter_configs_response {
  int32_t throttle_time_ms = 0;
  std::vector<alter_configs_result> responses;
};

// Broker side.
result<describe_configs_request> decode_describe_configs_request(bytes_view body, int16_t version);
void encode_describe_configs_response(const describe_configs_response& resp, int16_t version, byte_writer& w);
result<alter_configs_request> decode_alter_configs_request(bytes_view body, int16_t version);
result<alter_configs_request> decode_incremental_alter_configs_request(bytes_view body, int16_t version);
/// `incremental`: IncrementalAlterConfigs' version rules (v1 flexible).
void encode_alter_configs_response(const alter_configs_response& resp, bool incremental, int16_t version,
                                   byte_writer& w);

// Client side (cafka-configs, cafka-reassign-partitions --throttle).
void encode_describe_configs_request(const describe_configs_request& req, int16_t version, byte_writer& w);
result<describe_configs_response> decode_describe_configs_response(bytes_view body, int16_t version);
/// AlterConfigs or IncrementalAlterConfigs, by req.incremental.
void encode_alter_configs_request(const alter_configs_request& req, int16_t version, byte_writer& w);
result<alter_configs_response> decode_alter_configs_response(bytes_view body, bool incremental, int16_t version);

} // namespace cafka::wire
