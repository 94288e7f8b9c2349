#include "config/dynamic_broker_config.hpp"

#include <algorithm>
#include <limits>

#include "config/properties_file.hpp"
#include "config/server_config.hpp"
#include "config/topic_config.hpp"
#include "config/value_parsers.hpp"

namespace cafka::config {

namespace {

constexpr int64_t long_max = std::numeric_limits<int64_t>::max();

// The connection limits, which Kafka's DynamicConnectionQuota changes at run time (new
// connections are admitted by the new limits; open ones stay).
bool is_connection_limit_key(std::string_view key) {
  static const std::vector<std::string_view> keys{"max.connections", "max.connections.per.ip",
                                                  "max.connections.per.ip.overrides"};
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// A dynamic connection limit as server.properties would take it: the same checks, the same
// message naming the key.
outcome<server_config> connection_key_applied(const std::string& key, const std::string& value) {
  properties one;
  one.set(key, value);
  auto built = make_server_config(one);
  if (!built)
    return built.error();
  return built->config;
}

// The dynamic log and replication keys and the topic keys they are the broker default of.
const std::map<std::string, std::string, std::less<>>& dynamic_log_keys() {
  static const std::map<std::string, std::string, std::less<>> keys{
    {"log.segment.bytes", "segment.bytes"},
    {"log.roll.ms", "segment.ms"},
    {"log.retention.ms", "retention.ms"},
    {"log.retention.bytes", "retention.bytes"},
    {"log.flush.interval.messages", "flush.messages"},
    {"log.flush.interval.ms", "flush.ms"},
    {"log.index.interval.bytes", "index.interval.bytes"},
    {"log.index.size.max.bytes", "segment.index.bytes"},
    {"message.max.bytes", "max.message.bytes"},
    {"min.insync.replicas", "min.insync.replicas"},
    {"unclean.leader.election.enable", "unclean.leader.election.enable"},
  };
  return keys;
}

int64_t rate_of(const dynamic_broker_configs& c, std::string_view name) {
  for (auto& k : dynamic_broker_keys())
    if (k.name == name) {
      auto parsed = parse_integer(effective_value(c, k), 0, long_max);
      return parsed.status == parsed_integer::ok ? parsed.value : long_max;
    }
  return long_max;
}

} // namespace

bool operator==(const dynamic_broker_configs& a, const dynamic_broker_configs& b) {
  return a.broker == b.broker && a.cluster_default == b.cluster_default;
}

const std::vector<dynamic_key>& dynamic_broker_keys() {
  static const std::vector<dynamic_key> keys{
    {"follower.replication.throttled.rate", std::to_string(long_max)},
    {"leader.replication.throttled.rate", std::to_string(long_max)},
  };
  return keys;
}

std::optional<dynamic_refusal> refuse_dynamic(const std::string& key, const std::string& value) {
  for (auto& k : dynamic_broker_keys()) {
    if (k.name != key)
      continue;
    auto parsed = parse_integer(value, std::numeric_limits<int64_t>::min(), long_max);
    if (parsed.status != parsed_integer::ok || parsed.value < 0)
      return dynamic_refusal{40, key + ": invalid value '" + value + "': expected an integer >= 0 (bytes/s)"};
    return std::nullopt;
  }
  if (auto topic_key = topic_key_of_dynamic(key)) {
    // Validated as the topic key it stands in for; the message names the broker key.
    auto checked = apply_topic_configs(storage::log_config{}, {{*topic_key, value}});
    if (checked)
      return std::nullopt;
    auto message = checked.error().message;
    if (message.rfind(*topic_key, 0) == 0)
      message = key + message.substr(topic_key->size());
    return dynamic_refusal{40, message};
  }
  if (is_connection_limit_key(key)) {
    if (auto applied = connection_key_applied(key, value); !applied)
      return dynamic_refusal{40, applied.error().message};
    return std::nullopt;
  }
  auto& known = known_keys();
  bool is_broker_key = std::any_of(known.begin(), known.end(), [&](const key_info& k) { return k.name == key; });
  if (is_broker_key)
    return dynamic_refusal{42, "Cannot update these configs dynamically: " + key};
  return dynamic_refusal{40, key + ": unknown broker configuration key"};
}

std::string effective_value(const dynamic_broker_configs& c, const dynamic_key& key) {
  if (auto it = c.broker.find(key.name); it != c.broker.end())
    return it->second;
  if (auto it = c.cluster_default.find(key.name); it != c.cluster_default.end())
    return it->second;
  return key.default_value;
}

// These broker keys are named as their topic keys: effective_value() with no built-in
// default says whether either dynamic entity sets one.
int32_t min_insync_replicas_default(const dynamic_broker_configs& c, int32_t static_value) {
  auto value = effective_value(c, {"min.insync.replicas", ""});
  auto parsed = parse_integer(value, 1, std::numeric_limits<int32_t>::max());
  return parsed.status == parsed_integer::ok ? static_cast<int32_t>(parsed.value) : static_value;
}

bool unclean_leader_election_default(const dynamic_broker_configs& c, bool static_value) {
  return parse_bool(effective_value(c, {"unclean.leader.election.enable", ""})).value_or(static_value);
}

connection_limits connection_limits_in_force(const dynamic_broker_configs& c, const server_config& static_config) {
  connection_limits out{static_config.max_connections, static_config.max_connections_per_ip,
                        static_config.max_connections_per_ip_overrides};
  for (auto* entries : {&c.cluster_default, &c.broker}) // this broker's win
    for (auto& [key, value] : *entries) {
      if (!is_connection_limit_key(key))
        continue;
      auto applied = connection_key_applied(key, value);
      if (!applied) // refused when stored; a hand-edited znode keeps the last good limit
        continue;
      if (key == "max.connections")
        out.max_total = applied->max_connections;
      else if (key == "max.connections.per.ip")
        out.max_per_ip = applied->max_connections_per_ip;
      else
        out.per_ip_overrides = applied->max_connections_per_ip_overrides;
    }
  return out;
}

std::string format_broker_configs_file(const dynamic_broker_configs& c) {
  std::string out = "version=1\n";
  for (auto& [k, v] : c.broker)
    out += "broker." + k + "=" + v + "\n";
  for (auto& [k, v] : c.cluster_default)
    out += "default." + k + "=" + v + "\n";
  return out;
}

std::optional<dynamic_broker_configs> parse_broker_configs_file(std::string_view text) {
  dynamic_broker_configs c;
  bool versioned = false;
  while (!text.empty()) {
    auto end = text.find('\n');
    auto line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (line.empty())
      continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos)
      return std::nullopt;
    auto key = line.substr(0, eq);
    auto value = std::string(line.substr(eq + 1));
    if (key == "version") {
      versioned = value == "1";
      continue;
    }
    for (auto [prefix, into] : {std::pair{std::string_view{"broker."}, &c.broker},
                                std::pair{std::string_view{"default."}, &c.cluster_default}})
      if (key.substr(0, prefix.size()) == prefix) {
        (*into)[std::string(key.substr(prefix.size()))] = value;
        key = {};
        break;
      }
    if (!key.empty())
      return std::nullopt;
  }
  if (!versioned)
    return std::nullopt;
  return c;
}

std::optional<std::string> topic_key_of_dynamic(std::string_view broker_key) {
  auto it = dynamic_log_keys().find(broker_key);
  if (it == dynamic_log_keys().end())
    return std::nullopt;
  return it->second;
}

std::map<std::string, std::string> dynamic_topic_defaults(const dynamic_broker_configs& c) {
  std::map<std::string, std::string> out;
  for (auto* entries : {&c.cluster_default, &c.broker}) // this broker's win
    for (auto& [key, value] : *entries)
      if (auto topic_key = topic_key_of_dynamic(key))
        out[*topic_key] = value;
  return out;
}

int64_t leader_throttled_rate(const dynamic_broker_configs& c) {
  return rate_of(c, "leader.replication.throttled.rate");
}

int64_t follower_throttled_rate(const dynamic_broker_configs& c) {
  return rate_of(c, "follower.replication.throttled.rate");
}

} // namespace cafka::config
