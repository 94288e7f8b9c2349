#pragma once
// Offset checkpoint files such as <log.dirs>/recovery-point-offset-checkpoint, in
// Kafka's text format:
//
//   0                      version
//   2                      number of entries
//   orders 0 1500          topic partition offset
//   orders 1 1320
//
// Written atomically (temporary file, fsync, rename), so a crash leaves the old or the
// new file, never a mix.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "protocol/result.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::storage {

using offset_checkpoint = std::map<topic_partition, int64_t>;

std::string format_checkpoint(const offset_checkpoint& offsets);
/// Fails with corrupt_checkpoint on any deviation from the format.
result<offset_checkpoint> parse_checkpoint(std::string_view text);

status write_checkpoint_file(const std::string& path, const offset_checkpoint& offsets);
/// A missing file is an empty checkpoint.
result<offset_checkpoint> read_checkpoint_file(const std::string& path);

} // namespace cafka::storage
