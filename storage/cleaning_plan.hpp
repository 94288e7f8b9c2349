#pragma once
// Which part of a compacted log the cleaner may clean, and in which rewrite groups: pure
// decisions over segment summaries (Kafka's LogCleanerManager.cleanableOffsets and
// Cleaner.groupSegmentsBySize; ../shared/docs/compaction-txn-admin-notes.md §1.2-1.3).
//
// - first dirty: the cleaner's checkpoint for the log, or the log start when there is none
//   or it lies outside [log start, log end].
// - first uncleanable: the first offset the cleaner must not touch: the last stable offset
//   (an open transaction's records are not decided yet), the active segment (never
//   cleaned), and the first dirty segment with a record newer than min.compaction.lag.ms;
//   lowered to the base of the segment it falls in, so that only whole segments are mapped.
// - the dirty ratio: bytes of the segments in [first dirty, first uncleanable) over those
//   and the bytes before first dirty (a segment holding first dirty counts on both sides,
//   as in Kafka). The log is due above min.cleanable.dirty.ratio, or when a dirty segment's
//   first batch is older than max.compaction.lag.ms.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "storage/retention.hpp" // segment_summary

namespace cafka::storage {

struct cleaning_inputs {
  std::vector<segment_summary> segments; ///< ascending; the last one is the active segment
  int64_t log_start_offset = 0;
  int64_t log_end_offset = 0;
  int64_t last_stable_offset = 0;
  int64_t checkpoint = -1; ///< the cleaner's first dirty offset for the log, -1: none
  int64_t now_ms = 0;
  int64_t min_compaction_lag_ms = 0;
  int64_t max_compaction_lag_ms = INT64_MAX;
};

struct cleanable_range {
  int64_t first_dirty = 0;
  int64_t first_uncleanable = 0; ///< first_dirty when nothing is cleanable
  uint64_t clean_bytes = 0;
  uint64_t dirty_bytes = 0;
  bool overdue = false; ///< a dirty segment waited longer than max.compaction.lag.ms

  double dirty_ratio() const noexcept {
    auto total = clean_bytes + dirty_bytes;
    return total == 0 ? 0.0 : static_cast<double>(dirty_bytes) / static_cast<double>(total);
  }
  /// Whether the cleaner should clean it now.
  bool due(double min_cleanable_ratio) const noexcept {
    return first_uncleanable > first_dirty && (dirty_ratio() > min_cleanable_ratio || overdue);
  }
};

cleanable_range cleanable_range_of(const cleaning_inputs& in);

/// Groups of consecutive segments, as [first, last) indexes into `segments`, that the cleaner
/// rewrites into one segment each: at most `max_bytes` together (segment.bytes; a larger
/// segment is a group alone) and spanning at most INT32_MAX offsets (the index keeps
/// offsets relative to the base). `end_offset` is where the last segment ends.
std::vector<std::pair<size_t, size_t>> group_segments(const std::vector<segment_summary>& segments,
                                                      int64_t end_offset, uint64_t max_bytes);

} // namespace cafka::storage
