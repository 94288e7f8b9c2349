#pragma once
// Retention as a pure function of segment metadata, the policy and `now`.
//
// Kafka's rules: by time, delete the oldest segments whose newest record is older than
// retention.ms, stopping at the first that is not; by size, then delete the oldest
// segments while the log stays at or above retention.bytes without them. The active
// (last) segment is never deleted.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cafka::storage {

/// What retention and the cleaner (cleaning_plan.hpp) know of one segment.
struct segment_summary {
  int64_t base_offset = 0;
  uint64_t size = 0;
  int64_t largest_timestamp = -1;     ///< the largest batch timestamp, -1: none
  int64_t first_batch_timestamp = -1; ///< the first batch's max timestamp, -1: none (the cleaner's)
};

struct retention_policy {
  int64_t retention_ms = -1;    ///< -1: no time limit
  int64_t retention_bytes = -1; ///< -1: no size limit
};

struct retention_decision {
  size_t by_time = 0; ///< the first by_time segments are expired by age
  size_t by_size = 0; ///< the next by_size segments go to meet the size limit
  size_t total() const noexcept { return by_time + by_size; }
};

/// `segments` are ordered oldest first; the last one is the active segment.
retention_decision select_expired_segments(const std::vector<segment_summary>& segments,
                                           const retention_policy& policy, int64_t now_ms);

} // namespace cafka::storage
