#include "apps/config_calls.hpp"

#include "apps/kafka_call.hpp"
#include "apps/tool_args.hpp"
#include "protocol/wire/api_keys.hpp"

namespace cafka::tools {

wire::describe_configs_response describe_configs(const char* tool, const std::string& broker,
                                                 const wire::describe_configs_request& req, int timeout_ms) {
  constexpr int16_t version = 1;
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_describe_configs_request(req, version, w);
  auto answer = kafka_call(broker, static_cast<int16_t>(wire::api_key::describe_configs), version, body, timeout_ms);
  auto resp = wire::decode_describe_configs_response({answer.data(), answer.size()}, version);
  if (!resp || resp->results.size() != req.resources.size())
    fail(tool, broker + " sent a malformed DescribeConfigs response");
  return *resp;
}

wire::alter_configs_response incremental_alter_configs(const char* tool, const std::string& broker,
                                                       const wire::alter_configs_request& req, int timeout_ms) {
  constexpr int16_t version = 0;
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_alter_configs_request(req, version, w);
  auto answer =
    kafka_call(broker, static_cast<int16_t>(wire::api_key::incremental_alter_configs), version, body, timeout_ms);
  auto resp = wire::decode_alter_configs_response({answer.data(), answer.size()}, true, version);
  if (!resp || resp->responses.size() != req.resources.size())
    fail(tool, broker + " sent a malformed IncrementalAlterConfigs response");
  return *resp;
}

const char* source_name(int8_t source) {
  switch (static_cast<wire::config_source>(source)) {
    case wire::config_source::topic_config: return "DYNAMIC_TOPIC_CONFIG";
    case wire::config_source::dynamic_broker_config: return "DYNAMIC_BROKER_CONFIG";
    case wire::config_source::dynamic_default_broker_config: return "DYNAMIC_DEFAULT_BROKER_CONFIG";
    case wire::config_source::static_broker_config: return "STATIC_BROKER_CONFIG";
    case wire::config_source::default_config: return "DEFAULT_CONFIG";
    default: return "UNKNOWN";
  }
}

} // namespace cafka::tools
