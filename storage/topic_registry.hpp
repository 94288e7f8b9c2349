#pragma once
// The topics a single node knows, persisted as <log.dirs>/cafka-topics, one line each:
//
//   <name> <partitions> <replication factor> [<config key>=<value> ...]
//
// Names and config entries never contain blanks (topic names are [a-zA-Z0-9._-], and
// config values are validated before they get here). Written atomically.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "protocol/result.hpp"

namespace cafka::storage {

struct topic_entry {
  int32_t partitions = 1;
  int16_t replication_factor = 1;
  std::map<std::string, std::string> configs;

  friend bool operator==(const topic_entry& a, const topic_entry& b) {
    return a.partitions == b.partitions && a.replication_factor == b.replication_factor
           && a.configs == b.configs;
  }
};

using topic_map = std::map<std::string, topic_entry>;

std::string format_topic_registry(const topic_map& topics);
/// Fails with corrupt_checkpoint on a malformed line.
result<topic_map> parse_topic_registry(std::string_view text);

/// A missing file is an empty registry.
result<topic_map> read_topic_registry(const std::string& path);
status write_topic_registry(const std::string& path, const topic_map& topics);

} // namespace cafka::storage
