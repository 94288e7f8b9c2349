#include "config/topic_config.hpp"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>

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
    {"segment.jitter.ms", {0, long_max, "an integer >= 0", [](cfg& c, int64_t v) { c.roll_jitter_ms = v; }}},
    {"file.delete.delay.ms", {0, long_max, "an integer >= 0", [](cfg& c, int64_t v) { c.file_delete_delay_ms = v; }}},
    // Combined after the loop (apply_timestamp_bounds).
    {"message.timestamp.before.max.ms", {0, long_max, "an integer >= 0", [](cfg&, int64_t) {}}},
    {"message.timestamp.after.max.ms", {0, long_max, "an integer >= 0", [](cfg&, int64_t) {}}},
    {"message.timestamp.difference.max.ms", {0, long_max, "an integer >= 0", [](cfg&, int64_t) {}}},
    // Replication settings: read by the partition's leader and the controller from the
    // topic's config, not by its log.
    {"min.insync.replicas", {1, int_max, "an integer >= 1", [](cfg&, int64_t) {}}},
    // Settings of the log cleaner, which reads them for compacted topics only (as Kafka's).
    {"delete.retention.ms", {0, long_max, "an integer >= 0", [](cfg& c, int64_t v) { c.delete_retention_ms = v; }}},
    {"min.compaction.lag.ms", {0, long_max, "an integer >= 0", [](cfg& c, int64_t v) { c.min_compaction_lag_ms = v; }}},
    {"max.compaction.lag.ms", {1, long_max, "an integer >= 1", [](cfg& c, int64_t v) { c.max_compaction_lag_ms = v; }}},
    // Tiered storage's local share: without remote storage (refused below) Kafka ignores them.
    {"local.retention.ms", {-2, long_max, "an integer >= -2", [](cfg&, int64_t) {}}},
    {"local.retention.bytes", {-2, long_max, "an integer >= -2", [](cfg&, int64_t) {}}},
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

namespace {

// compression.type: the codec number of storage::log_config::compression (-1: producer).
std::optional<int8_t> compression_of(const std::string& value) {
  static const std::map<std::string, int8_t, std::less<>> codecs{
    {"producer", -1}, {"uncompressed", 0}, {"gzip", 1}, {"snappy", 2}, {"lz4", 3}, {"zstd", 4}};
  auto it = codecs.find(value);
  return it == codecs.end() ? std::nullopt : std::optional<int8_t>{it->second};
}

// message.format.version: ignored since Kafka 3.0 (inter.broker.protocol.version >= 3.0
// writes v2 batches whatever it says), but still a version: 0.10.2, 2.8-IV1, 3.0-IV1.
bool is_message_format_version(const std::string& value) {
  size_t at = 0, parts = 0;
  auto digits = [&] {
    auto start = at;
    while (at < value.size() && value[at] >= '0' && value[at] <= '9')
      ++at;
    return at > start;
  };
  do {
    if (!digits())
      return false;
    ++parts;
  } while (at < value.size() && value[at] == '.' && ++at);
  if (parts < 2 || parts > 3)
    return false;
  if (at == value.size())
    return true;
  if (value.compare(at, 3, "-IV") != 0)
    return false;
  at += 3;
  return digits() && at == value.size();
}

// A key whose value is a word or a flag rather than a number: whether `key` is one, and the
// error for a bad value.
struct word_key_outcome {
  bool handled = false;
  std::optional<config_error> error;
};

word_key_outcome apply_word_key(storage::log_config& base, const std::string& key, const std::string& value) {
  if (key == "compression.type") {
    auto codec = compression_of(value);
    if (!codec)
      return {true, bad_value(key, value, "producer, uncompressed, gzip, snappy, lz4 or zstd")};
    base.compression = *codec;
    return {true, std::nullopt};
  }
  if (key == "message.timestamp.type") {
    if (value != "CreateTime" && value != "LogAppendTime")
      return {true, bad_value(key, value, "CreateTime or LogAppendTime")};
    base.log_append_time = value == "LogAppendTime";
    return {true, std::nullopt};
  }
  if (key == "preallocate" || key == "message.downconversion.enable" || key == "remote.storage.enable"
      || key == "unclean.leader.election.enable") {
    auto flag = parse_bool(value);
    if (!flag)
      return {true, bad_value(key, value, "true or false")};
    if (key == "preallocate")
      base.preallocate = *flag;
    // Kafka refuses tiered storage on a broker without remote.log.storage.system.enable.
    if (key == "remote.storage.enable" && *flag)
      return {true, config_error{errc::invalid_value, key + ": tiered storage is not available on this broker"}};
    // message.downconversion.enable: cafka never down-converts (Fetch v4+ only), so both
    // values hold as they are.
    return {true, std::nullopt};
  }
  if (key == "message.format.version") {
    if (!is_message_format_version(value))
      return {true, bad_value(key, value, "a Kafka version such as 3.0-IV1 (ignored since 3.0, as by Kafka)")};
    return {true, std::nullopt};
  }
  if (key == "min.cleanable.dirty.ratio") {
    char* end = nullptr;
    double ratio = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(ratio >= 0.0 && ratio <= 1.0))
      return {true, bad_value(key, value, "a number from 0 to 1")};
    base.min_cleanable_dirty_ratio = ratio;
    return {true, std::nullopt};
  }
  return {};
}

// message.timestamp.before/after.max.ms, or difference.max.ms where one is unset (Long.MAX),
// as Kafka 3.6's LogConfig reads them.
void apply_timestamp_bounds(storage::log_config& base, const topic_configs& configs) {
  auto number = [&](const char* key) -> std::optional<int64_t> {
    auto it = configs.find(key);
    if (it == configs.end())
      return std::nullopt;
    return parse_integer(it->second, long_min, long_max).value;
  };
  auto difference = number("message.timestamp.difference.max.ms");
  auto bound = [&](const char* key, int64_t& field) {
    auto own = number(key);
    if (own && *own != long_max)
      field = *own;
    else if (difference)
      field = *difference;
  };
  bound("message.timestamp.before.max.ms", base.timestamp_before_max_ms);
  bound("message.timestamp.after.max.ms", base.timestamp_after_max_ms);
}

} // namespace

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
    if (auto word = apply_word_key(base, key, value); word.handled) {
      if (word.error)
        return *word.error;
      continue;
    }
    if (key == "leader.replication.throttled.replicas" || key == "follower.replication.throttled.replicas") {
      if (!is_throttled_replica_list(value))
        return bad_value(key, value, "* or a list of partition:broker");
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
  apply_timestamp_bounds(base, configs);
  return base;
}

} // namespace cafka::config
