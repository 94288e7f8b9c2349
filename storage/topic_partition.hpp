#pragma once
// A topic-partition and the name of its folder under log.dirs: "<topic>-<partition>".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "protocol/topic_partition.hpp"

namespace cafka::storage {

using topic_partition = protocol::topic_partition;

std::string partition_dir_name(const topic_partition& tp);

/// Splits at the last '-'; nothing when the suffix is not a partition number.
std::optional<topic_partition> parse_partition_dir_name(std::string_view name);

} // namespace cafka::storage
