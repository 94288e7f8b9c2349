#include "storage/topic_partition.hpp"

namespace cafka::storage {

std::string partition_dir_name(const topic_partition& tp) {
  return tp.topic + '-' + std::to_string(tp.partition);
}

std::optional<topic_partition> parse_partition_dir_name(std::string_view name) {
  auto dash = name.rfind('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == name.size())
    return std::nullopt;
  int64_t p = 0;
  for (auto c : name.substr(dash + 1)) {
    if (c < '0' || c > '9')
      return std::nullopt;
    p = p * 10 + (c - '0');
    if (p > INT32_MAX)
      return std::nullopt;
  }
  return topic_partition{std::string(name.substr(0, dash)), static_cast<int32_t>(p)};
}

} // namespace cafka::storage
