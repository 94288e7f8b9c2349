#include "config/config_description.hpp"

#include <algorithm>

#include "config/topic_config_catalog.hpp"

namespace cafka::config {

namespace {

using wire::config_source;

int8_t code(config_source s) { return static_cast<int8_t>(s); }

bool wanted(const key_filter& keys, const std::string& name) {
  return !keys || std::find(keys->begin(), keys->end(), name) != keys->end();
}

// The entry's value and source are its first synonym's; synonyms are sent only if asked.
wire::described_config entry(std::string name, std::vector<wire::config_synonym> synonyms, bool read_only,
                             bool include_synonyms) {
  wire::described_config c;
  c.name = std::move(name);
  c.read_only = read_only;
  c.value = synonyms.front().value;
  c.config_source = synonyms.front().source;
  if (include_synonyms)
    c.synonyms = std::move(synonyms);
  return c;
}

// The run-time synonyms of broker key `name`: this broker's (unless only the cluster's are
// asked for), then the cluster's.
void add_dynamic(std::vector<wire::config_synonym>& synonyms, const std::string& name,
                 const dynamic_broker_configs& dynamic, bool cluster_only) {
  if (auto it = dynamic.broker.find(name); it != dynamic.broker.end() && !cluster_only)
    synonyms.push_back({name, it->second, code(config_source::dynamic_broker_config)});
  if (auto it = dynamic.cluster_default.find(name); it != dynamic.cluster_default.end())
    synonyms.push_back({name, it->second, code(config_source::dynamic_default_broker_config)});
}

} // namespace

std::vector<wire::described_config> describe_topic(const topic_configs& overrides, const server_config& cfg,
                                                   const dynamic_broker_configs& dynamic, const key_filter& keys,
                                                   bool include_synonyms) {
  std::vector<wire::described_config> out;
  for (auto& key : topic_keys()) {
    if (!wanted(keys, key.name))
      continue;
    std::vector<wire::config_synonym> synonyms;
    if (auto it = overrides.find(key.name); it != overrides.end())
      synonyms.push_back({key.name, it->second, code(config_source::topic_config)});
    bool set_by_broker = false;
    for (auto& s : key.synonyms)
      add_dynamic(synonyms, s, dynamic, false);
    for (auto& s : key.synonyms)
      if (auto it = cfg.given.find(s); it != cfg.given.end()) {
        synonyms.push_back({s, it->second, code(config_source::static_broker_config)});
        set_by_broker = true;
      }
    auto fallback = key.synonyms.empty() ? key.name : key.synonyms.back();
    synonyms.push_back({fallback, key.default_value, code(config_source::default_config)});
    auto c = entry(key.name, synonyms, false, include_synonyms);
    if (set_by_broker && synonyms.front().source == code(config_source::static_broker_config))
      c.value = broker_default(key, cfg); // the effective value (log.retention.hours=1: 3600000)
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<wire::described_config> describe_broker(const std::string& name, const server_config& cfg,
                                                    const dynamic_broker_configs& dynamic, const key_filter& keys,
                                                    bool include_synonyms) {
  std::vector<wire::described_config> out;
  bool defaults_only = name.empty();
  for (auto& key : dynamic_broker_keys()) {
    if (!wanted(keys, key.name))
      continue;
    std::vector<wire::config_synonym> synonyms;
    add_dynamic(synonyms, key.name, dynamic, defaults_only);
    if (defaults_only && synonyms.empty())
      continue;
    if (!defaults_only)
      synonyms.push_back({key.name, key.default_value, code(config_source::default_config)});
    out.push_back(entry(key.name, std::move(synonyms), false, include_synonyms));
  }
  for (auto& key : known_keys()) {
    if (!wanted(keys, key.name))
      continue;
    bool dynamic_key = topic_key_of_dynamic(key.name).has_value();
    std::vector<wire::config_synonym> synonyms;
    if (dynamic_key)
      add_dynamic(synonyms, key.name, dynamic, defaults_only);
    if (defaults_only) {
      if (!synonyms.empty())
        out.push_back(entry(key.name, std::move(synonyms), false, include_synonyms));
      continue;
    }
    if (auto it = cfg.given.find(key.name); it != cfg.given.end())
      synonyms.push_back({key.name, it->second, code(config_source::static_broker_config)});
    std::optional<std::string> fallback;
    if (!key.default_value.empty())
      fallback = key.default_value;
    synonyms.push_back({key.name, fallback, code(config_source::default_config)});
    out.push_back(entry(key.name, std::move(synonyms), !dynamic_key, include_synonyms));
  }
  return out;
}

} // namespace cafka::config
