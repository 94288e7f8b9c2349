#include "apps/configs_resources.hpp"

#include <cstdio>

#include "apps/config_calls.hpp"

namespace cafka::tools {

namespace {

constexpr const char* tool = "cafka-configs";

struct named_resource {
  int8_t type = 0;
  std::string name; ///< "" for --entity-default (brokers)
  std::string kind; ///< "topic" or "broker"
};

named_resource resource_of(const args& a) {
  auto types = a.values("entity-type");
  if (types.size() != 1)
    throw usage_error("give one --entity-type for topics or brokers");
  auto names = a.values("entity-name");
  bool default_entity = a.has("entity-default");
  if (names.size() + (default_entity ? 1 : 0) != 1)
    throw usage_error("give one --entity-name (or, for brokers, --entity-default)");
  named_resource r;
  if (types[0] == "topics") {
    if (default_entity)
      throw usage_error("topics have no --entity-default");
    r = {static_cast<int8_t>(wire::config_resource_type::topic), names[0], "topic"};
  } else {
    r = {static_cast<int8_t>(wire::config_resource_type::broker), default_entity ? "" : names[0], "broker"};
  }
  return r;
}

// As Kafka's: "Dynamic configs for topic t are:", "Default configs for brokers in the cluster are:".
std::string heading(const named_resource& r, bool all) {
  if (r.name.empty())
    return std::string(all ? "All" : "Default") + " configs for brokers in the cluster are:";
  return std::string(all ? "All" : "Dynamic") + " configs for " + r.kind + " " + r.name + " are:";
}

bool dynamic_source(int8_t source) {
  using s = wire::config_source;
  return source == static_cast<int8_t>(s::topic_config) || source == static_cast<int8_t>(s::dynamic_broker_config)
         || source == static_cast<int8_t>(s::dynamic_default_broker_config);
}

} // namespace

bool names_resource(const args& a) {
  for (auto& t : a.values("entity-type"))
    if (t == "topics" || t == "brokers")
      return true;
  return false;
}

int describe_resource(const args& a, const std::string& broker, int timeout_ms) {
  auto r = resource_of(a);
  bool all = a.has("all");
  wire::describe_configs_request req;
  req.resources.push_back({r.type, r.name, std::nullopt});
  req.include_synonyms = true;
  auto resp = describe_configs(tool, broker, req, timeout_ms);
  auto& result = resp.results.front();
  if (result.error_code != 0)
    fail(tool, "error " + std::to_string(result.error_code) + ": " + result.error_message.value_or(""));
  std::printf("%s\n", heading(r, all).c_str());
  for (auto& c : result.configs) {
    if (!all && !dynamic_source(c.config_source))
      continue;
    std::string synonyms;
    for (auto& s : c.synonyms)
      synonyms += (synonyms.empty() ? "" : ", ") + std::string(source_name(s.source)) + ":" + s.name + "="
                  + s.value.value_or("null");
    std::printf("  %s=%s sensitive=%s synonyms={%s}\n", c.name.c_str(), c.value.value_or("null").c_str(),
                c.is_sensitive ? "true" : "false", synonyms.c_str());
  }
  return 0;
}

int alter_resource(const args& a, const std::string& broker, int timeout_ms) {
  auto r = resource_of(a);
  wire::alter_configs_request req;
  req.incremental = true;
  req.resources.push_back({r.type, r.name, {}});
  auto& configs = req.resources.front().configs;
  for (auto& kv : comma_list(a.value_or("add-config", ""))) {
    auto [key, value] = split_key_value(kv, "add-config");
    configs.push_back({key, static_cast<int8_t>(wire::config_operation::set), value});
  }
  for (auto& key : comma_list(a.value_or("delete-config", "")))
    configs.push_back({key, static_cast<int8_t>(wire::config_operation::remove), std::nullopt});
  if (configs.empty())
    throw usage_error("--alter needs --add-config or --delete-config");
  auto resp = incremental_alter_configs(tool, broker, req, timeout_ms);
  auto& result = resp.responses.front();
  if (result.error_code != 0)
    fail(tool, "error " + std::to_string(result.error_code) + ": " + result.error_message.value_or(""));
  if (r.name.empty())
    std::printf("Completed updating default config for brokers in the cluster.\n");
  else
    std::printf("Completed updating config for %s %s.\n", r.kind.c_str(), r.name.c_str());
  return 0;
}

} // namespace cafka::tools
