#pragma once
// What ListOffsets answers a consumer at a partition's leader (Kafka's
// Partition.fetchOffsetForTimestamp): the offset, its timestamp and the leader epoch of that
// offset (v4+), or OFFSET_NOT_AVAILABLE while a new leader's high watermark is still below
// the start of its epoch (KIP-207: what the old leader had acknowledged is not known yet,
// so "latest" would go back in time; clients retry).
//
// - earliest: the log start, with the epoch that offset was written in;
// - latest: the high watermark, with the current leader epoch (or OFFSET_NOT_AVAILABLE);
// - a timestamp: the first record at or after it below the high watermark, with its epoch;
//   none there: OFFSET_NOT_AVAILABLE while the high watermark lags, else offset -1.

#include <cstdint>
#include <optional>

#include "storage/leader_epoch_cache.hpp"

namespace cafka::storage {

/// ListOffsets' special timestamps.
inline constexpr int64_t latest_timestamp = -1;
inline constexpr int64_t earliest_timestamp = -2;

struct listed_offset {
  int64_t offset = -1;
  int64_t timestamp = -1;
  int32_t leader_epoch = -1; ///< -1: unknown
};

/// The leader's side of the lookup.
struct offsets_at_leader {
  int64_t log_start_offset = 0;
  int64_t log_end_offset = 0;
  int64_t high_watermark = 0;
  int32_t leader_epoch = 0; ///< the current one
  const leader_epoch_cache* epochs = nullptr;
};

/// The first record at or after a timestamp, as the log's time index finds it.
struct record_at {
  int64_t offset = -1;
  int64_t timestamp = -1;
};

/// Empty: OFFSET_NOT_AVAILABLE. `found` is consulted only for a timestamp lookup.
std::optional<listed_offset> list_offset(const offsets_at_leader& leader, int64_t timestamp,
                                         const std::optional<record_at>& found);

/// True while the leader's high watermark is below the start of its current epoch.
bool high_watermark_lags(const offsets_at_leader& leader);

} // namespace cafka::storage
