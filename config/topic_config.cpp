#include "config/topic_config.hpp"

#include <cstdint>
#include <functional>
#include <limits>

#include "config/topic_config_catalog.hpp"
#include "config/value_parsers.hpp"

namespace cafka::config {

namespace {

config_error bad_value(const std::string& key, const std::string& value, const std::string& allowed) {
  return {errc::invalid_value, key + ": invalid value '" + value + "': expected " + allowed};
}

constexpr int64_t int_max = std::numeric_limits<int32_t>::max();
constexpr int64_t long_max = std::numeric_limits<int64_t>::max();
constexpr int64_t long_min = std::numeric_limits<int64_t>::min();

struct integer_key {
  int64_t min;
  int64_t type_max;
  const char* allowed;
  std::function<void(storage::log_config&, int64_t)> set;
};

const std::map<std::string, integer_key, std::less<>>& integer_keys() {
  using cfg = storage::log_config;
  static const std::map<std::string, integer_key, std::less<>> keys{
    {"retention.ms", {-1, long_max, "an integer >= -1", [](cfg& c, int64_t v) { c.retention_ms = v; }}},
    {"retention.bytes", {-1, long_max, "an integer >= -1", [](cfg& c, int64_t v) { c.retention_bytes = v; }}},
    {"segment.bytes", {14, int_max, "an integer >= 14", [](cfg& c, int64_t v) { c.segment_bytes = v; }}},
    {"segment.ms", {1, long_max, "an integer >= 1", [](cfg& c, int64_t v) { c.roll_ms = v; }}},
    {"max.message.bytes", {0, int_max, "an integer >= 0",
                           [](cfg& c, int64_t v) { c.max_message_bytes = static_cast<int32_t>(v); }}},
    {"flush.messages", {1, long_max, "an integer >= 1", [](cfg& c, int64_t v) { c.flush_interval_messages = v; }}},
    {"flush.ms", {0, long_max, "an integer >= 0", [](cfg& c, int64_t v) { c.flush_interval_ms = v; }}},
    {"segment.index.bytes", {4, int_max, "an integer >= 4",
                             [](cfg& c, int64_t v) { c.index_max_bytes = static_cast<int32_t>(v); }}},
    {"index.interval.bytes", {0, int_max, "an integer >= 0",
                              [](cfg& c, int64_t v) { c.index_interval_bytes = static_cast<int32_t>(v); }}},
    // Replication settings: read by the partition's leader and the controller from the
    // topic's config, not by its log.
    {"min.insync.replicas", {1, int_max, "an integer >= 1", [](cfg&, int64_t) {}}},
  };
  return keys;
}

// "*" or "partition:broker,..." (leader/follower.replication.throttled.replicas).
bool is_throttled_replica_list(const std::string& value) {
  if (value.empty() || value == "*")
    return true;
  for (auto& item : split_list(value)) {
    auto colon = item.find(':');
    if (colon == std::string::npos)
      return false;
    for (auto part : {item.substr(0, colon), item.substr(colon + 1)})
      if (parse_integer(part, 0, int_max).status != parsed_integer::ok)
        return false;
  }
  return true;
}

// A key cafka does not implement keeps its default: the same text, or the same number.
bool is_default(const topic_key& key, const std::string& value) {
  if (value == key.default_value)
    return true;
  auto a = parse_integer(value, long_min, long_max), b = parse_integer(key.default_value, long_min, long_max);
  if (a.status == parsed_integer::ok && b.status == parsed_integer::ok)
    return a.value == b.value;
  auto flag = parse_bool(value);
  return flag && key.default_value == (*flag ? "true" : "false");
}

} // namespace

std::optional<std::string> invalid_topic_name(std::string_view name) {
  if (name.empty())
    return "topic name is empty";
  if (name.size() > 249)
    return "topic name is longer than 249 characters";
  if (name == "." || name == "..")
    return "topic name cannot be '.' or '..'";
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
              || c == '_' || c == '-';
    if (!ok)
      return "topic name '" + std::string(name) + "' has characters other than [a-zA-Z0-9._-]";
  }
  return std::nullopt;
}

outcome<storage::log_config> apply_topic_configs(storage::log_config base, const topic_configs& configs) {
  for (auto& [key, value] : configs) {
    if (key == "cleanup.policy") {
      auto items = split_list(value);
      bool del = false, compact = false, ok = !items.empty();
      for (auto& item : items) {
        if (item == "delete")
          del = true;
        else if (item == "compact")
          compact = true;
        else
          ok = false;
      }
      if (!ok)
        return bad_value(key, value, "delete, compact or compact,delete");
      base.cleanup_delete = del;
      base.cleanup_compact = compact;
      continue;
    }
    if (key == "unclean.leader.election.enable") {
      if (value != "true" && value != "false")
        return bad_value(key, value, "true or false");
      continue;
    }
    if (key == "leader.replication.throttled.replicas" || key == "follower.replication.throttled.replicas") {
      if (!is_throttled_replica_list(value))
        return bad_value(key, value, "* or a list of partition:broker");
      continue;
    }
    auto* known = find_topic_key(key);
    if (known == nullptr)
      return config_error{errc::invalid_value, key + ": unknown topic configuration key"};
    if (!known->implemented) {
      if (!is_default(*known, value))
        return config_error{errc::invalid_value, key + ": cafka does not implement values other than the default '"
                                                   + known->default_value + "' (got '" + value + "')"};
      continue;
    }
    auto it = integer_keys().find(key);
    if (it == integer_keys().end())
      return config_error{errc::invalid_value, key + ": unknown topic configuration key"};
    auto parsed = parse_integer(value, long_min, it->second.type_max);
    if (parsed.status != parsed_integer::ok || parsed.value < it->second.min)
      return bad_value(key, value, it->second.allowed);
    it->second.set(base, parsed.value);
  }
  return base;
}

} // namespace cafka::config
