#include "storage/cleaning_plan.hpp"

#include <algorithm>
#include <limits>

namespace cafka::storage {
namespace {

// The base offset of the segment holding `offset` (the first segment's for offsets below it).
int64_t segment_base_at(const std::vector<segment_summary>& segments, int64_t offset) {
  int64_t base = segments.front().base_offset;
  for (auto& s : segments) {
    if (s.base_offset > offset)
      break;
    base = s.base_offset;
  }
  return base;
}

} // namespace

cleanable_range cleanable_range_of(const cleaning_inputs& in) {
  cleanable_range r;
  auto& segs = in.segments;
  r.first_dirty = in.checkpoint >= in.log_start_offset && in.checkpoint <= in.log_end_offset ? in.checkpoint
                                                                                              : in.log_start_offset;
  if (segs.empty()) {
    r.first_uncleanable = r.first_dirty;
    return r;
  }
  int64_t limit = std::min(in.last_stable_offset, segs.back().base_offset);
  if (in.min_compaction_lag_ms > 0) {
    for (size_t i = 0; i + 1 < segs.size(); ++i) {
      auto next_base = segs[i + 1].base_offset;
      if (next_base <= r.first_dirty)
        continue; // wholly clean
      if (segs[i].largest_timestamp > in.now_ms - in.min_compaction_lag_ms) {
        limit = std::min(limit, segs[i].base_offset);
        break;
      }
    }
  }
  r.first_uncleanable = std::max(r.first_dirty, segment_base_at(segs, limit));
  for (size_t i = 0; i < segs.size(); ++i) {
    auto& s = segs[i];
    auto next_base = i + 1 < segs.size() ? segs[i + 1].base_offset : std::numeric_limits<int64_t>::max();
    if (s.base_offset < r.first_dirty)
      r.clean_bytes += s.size;
    // Overlapping [first dirty, first uncleanable).
    if (next_base > r.first_dirty && s.base_offset < r.first_uncleanable) {
      r.dirty_bytes += s.size;
      if (s.first_batch_timestamp >= 0 && in.max_compaction_lag_ms < in.now_ms
          && s.first_batch_timestamp < in.now_ms - in.max_compaction_lag_ms)
        r.overdue = true;
    }
  }
  return r;
}

std::vector<std::pair<size_t, size_t>> group_segments(const std::vector<segment_summary>& segments,
                                                      int64_t end_offset, uint64_t max_bytes) {
  std::vector<std::pair<size_t, size_t>> groups;
  size_t i = 0;
  while (i < segments.size()) {
    size_t j = i + 1;
    uint64_t bytes = segments[i].size;
    while (j < segments.size()) {
      auto next_end = j + 1 < segments.size() ? segments[j + 1].base_offset : end_offset;
      if (bytes + segments[j].size > max_bytes
          || next_end - 1 - segments[i].base_offset > std::numeric_limits<int32_t>::max())
        break;
      bytes += segments[j].size;
      ++j;
    }
    groups.emplace_back(i, j);
    i = j;
  }
  return groups;
}

} // namespace cafka::storage
