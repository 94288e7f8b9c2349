#include "config/topic_config_catalog.hpp"

#include <algorithm>

namespace cafka::config {

namespace {

const std::string long_max = "9223372036854775807";

} // namespace

const std::vector<topic_key>& topic_keys() {
  static const std::vector<topic_key> keys{
    {"cleanup.policy", "delete", {"log.cleanup.policy"}, true},
    {"compression.type", "producer", {"compression.type"}, false},
    {"delete.retention.ms", "86400000", {"log.cleaner.delete.retention.ms"}, false},
    {"file.delete.delay.ms", "60000", {"log.segment.delete.delay.ms"}, false},
    {"flush.messages", long_max, {"log.flush.interval.messages"}, true},
    {"flush.ms", long_max, {"log.flush.interval.ms"}, true},
    {"follower.replication.throttled.replicas", "", {}, true},
    {"index.interval.bytes", "4096", {"log.index.interval.bytes"}, true},
    {"leader.replication.throttled.replicas", "", {}, true},
    {"local.retention.bytes", "-2", {"log.local.retention.bytes"}, false},
    {"local.retention.ms", "-2", {"log.local.retention.ms"}, false},
    {"max.compaction.lag.ms", long_max, {"log.cleaner.max.compaction.lag.ms"}, false},
    {"max.message.bytes", "1048588", {"message.max.bytes"}, true},
    {"message.downconversion.enable", "true", {"log.message.downconversion.enable"}, false},
    {"message.format.version", "3.0-IV1", {"log.message.format.version"}, false},
    {"message.timestamp.after.max.ms", long_max, {"log.message.timestamp.after.max.ms"}, false},
    {"message.timestamp.before.max.ms", long_max, {"log.message.timestamp.before.max.ms"}, false},
    {"message.timestamp.difference.max.ms", long_max, {"log.message.timestamp.difference.max.ms"}, false},
    {"message.timestamp.type", "CreateTime", {"log.message.timestamp.type"}, false},
    {"min.cleanable.dirty.ratio", "0.5", {"log.cleaner.min.cleanable.ratio"}, false},
    {"min.compaction.lag.ms", "0", {"log.cleaner.min.compaction.lag.ms"}, false},
    {"min.insync.replicas", "1", {"min.insync.replicas"}, true},
    {"preallocate", "false", {"log.preallocate"}, false},
    {"remote.storage.enable", "false", {}, false},
    {"retention.bytes", "-1", {"log.retention.bytes"}, true},
    {"retention.ms", "604800000", {"log.retention.ms", "log.retention.minutes", "log.retention.hours"}, true},
    {"segment.bytes", "1073741824", {"log.segment.bytes"}, true},
    {"segment.index.bytes", "10485760", {"log.index.size.max.bytes"}, true},
    {"segment.jitter.ms", "0", {"log.roll.jitter.ms", "log.roll.jitter.hours"}, false},
    {"segment.ms", "604800000", {"log.roll.ms", "log.roll.hours"}, true},
    {"unclean.leader.election.enable", "false", {"unclean.leader.election.enable"}, true},
  };
  return keys;
}

const topic_key* find_topic_key(std::string_view name) {
  auto& keys = topic_keys();
  auto it = std::find_if(keys.begin(), keys.end(), [&](const topic_key& k) { return k.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

std::string broker_default(const topic_key& key, const server_config& cfg) {
  auto& n = key.name;
  if (n == "cleanup.policy")
    return "delete"; // log.cleanup.policy is not a cafka broker key
  if (n == "flush.messages")
    return std::to_string(cfg.log_flush_interval_messages);
  if (n == "flush.ms")
    return std::to_string(cfg.log_flush_interval_ms);
  if (n == "index.interval.bytes")
    return std::to_string(cfg.log_index_interval_bytes);
  if (n == "max.message.bytes")
    return std::to_string(cfg.message_max_bytes);
  if (n == "min.insync.replicas")
    return std::to_string(cfg.min_insync_replicas);
  if (n == "retention.bytes")
    return std::to_string(cfg.log_retention_bytes);
  if (n == "retention.ms")
    return std::to_string(cfg.log_retention_ms);
  if (n == "segment.bytes")
    return std::to_string(cfg.log_segment_bytes);
  if (n == "segment.index.bytes")
    return std::to_string(cfg.log_index_size_max_bytes);
  if (n == "segment.ms")
    return std::to_string(cfg.log_roll_ms);
  if (n == "unclean.leader.election.enable")
    return cfg.unclean_leader_election_enable ? "true" : "false";
  return key.default_value;
}

} // namespace cafka::config
