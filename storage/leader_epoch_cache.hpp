#pragma once
// Kafka's LeaderEpochFileCache as a value: for each leader epoch of a partition, the
// offset of its first record, ascending in both fields. A follower asks the leader for
// the end of its latest epoch (end_offset_for) to find where the logs diverged.
//
// Kept in <partition dir>/leader-epoch-checkpoint in Kafka's text format:
//
//   0              version
//   3              number of entries
//   0 0            epoch start_offset
//   2 1200
//   5 1733
//
// Writing the file is partition_log's business (see there for when it is fsynced).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::storage {

struct epoch_entry {
  int32_t epoch = 0;
  int64_t start_offset = 0;
  friend bool operator==(const epoch_entry& a, const epoch_entry& b) {
    return a.epoch == b.epoch && a.start_offset == b.start_offset;
  }
};

/// (epoch, end offset) answer of end_offset_for; {-1,-1} = undefined.
struct epoch_end_offset {
  int32_t epoch = -1;
  int64_t end_offset = -1;
  friend bool operator==(const epoch_end_offset& a, const epoch_end_offset& b) {
    return a.epoch == b.epoch && a.end_offset == b.end_offset;
  }
};

class leader_epoch_cache {
public:
  leader_epoch_cache() = default;
  /// Assigns the entries in order, as Kafka loads its file: entries breaking the
  /// ordering replace the earlier ones they contradict.
  explicit leader_epoch_cache(std::vector<epoch_entry> entries);

  /// Kafka's assign: no-op unless `epoch` differs from the latest (or starts earlier);
  /// first removes entries with epoch >= `epoch` or start_offset >= `start_offset`.
  /// Returns true if the entries changed. Negative epochs or offsets are ignored (false).
  bool assign(int32_t epoch, int64_t start_offset);
  std::optional<int32_t> latest_epoch() const;
  /// Kafka's endOffsetFor: -1 -> {-1,-1}; the latest epoch -> {epoch, log_end_offset};
  /// above every epoch -> {-1,-1}; below every epoch -> {epoch, start of the first
  /// entry}; else {largest epoch <= `epoch`, start of the next higher epoch}.
  epoch_end_offset end_offset_for(int32_t epoch, int64_t log_end_offset) const;
  /// Kafka's epochForOffset: the epoch `offset` was written in (the last entry starting at or
  /// before it); none below the first entry.
  std::optional<int32_t> epoch_for_offset(int64_t offset) const;
  /// Start offset of `epoch` if present.
  std::optional<int64_t> start_offset_of(int32_t epoch) const;
  /// Drops entries with start_offset >= offset. Returns true if changed.
  bool truncate_from_end(int64_t offset);
  /// Log start moved to `offset`: drops entries wholly below it; the last entry starting
  /// at or below it is kept with start_offset = offset. Returns true if changed.
  bool truncate_from_start(int64_t offset);
  void clear();
  const std::vector<epoch_entry>& entries() const noexcept { return entries_; }

  friend bool operator==(const leader_epoch_cache& a, const leader_epoch_cache& b) {
    return a.entries_ == b.entries_;
  }
  friend bool operator!=(const leader_epoch_cache& a, const leader_epoch_cache& b) { return !(a == b); }

private:
  std::vector<epoch_entry> entries_; ///< ascending in epoch and in start_offset
};

/// Kafka's text format: "0\n<count>\n<epoch> <start>\n...".
std::string format_leader_epoch_checkpoint(const leader_epoch_cache& cache);
/// Fails with corrupt_checkpoint on any deviation from the format, including entries
/// that are not strictly ascending or negative.
result<leader_epoch_cache> parse_leader_epoch_checkpoint(std::string_view text);

/// Temporary file, fsync, rename, fsync of the folder (write_file_atomically). Blocking.
status write_leader_epoch_file(const std::string& path, const leader_epoch_cache& cache);
/// A missing file is an empty cache.
result<leader_epoch_cache> read_leader_epoch_file(const std::string& path);

inline constexpr const char* leader_epoch_file_name = "leader-epoch-checkpoint";

} // namespace cafka::storage
