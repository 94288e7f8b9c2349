#pragma once
// A topic-partition and the name of its folder under log.dirs: "<topic>-<partition>".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace cafka::storage {

struct topic_partition {
  std::string topic;
  int32_t partition = 0;

  friend bool operator<(const topic_partition& a, const topic_partition& b) {
    return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
  }
  friend bool operator==(const topic_partition& a, const topic_partition& b) {
    return a.topic == b.topic && a.partition == b.partition;
  }
};

std::string partition_dir_name(const topic_partition& tp);

/// Splits at the last '-'; nothing when the suffix is not a partition number.
std::optional<topic_partition> parse_partition_dir_name(std::string_view name);

} // namespace cafka::storage
