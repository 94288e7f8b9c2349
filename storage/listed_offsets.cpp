#include "storage/listed_offsets.hpp"

namespace cafka::storage {

namespace {

int32_t epoch_of(const offsets_at_leader& leader, int64_t offset) {
  if (!leader.epochs)
    return -1;
  return leader.epochs->epoch_for_offset(offset).value_or(-1);
}

} // namespace

bool high_watermark_lags(const offsets_at_leader& leader) {
  // No entry for the current epoch yet: nothing was appended in it, so it starts at the end.
  auto start = leader.epochs ? leader.epochs->start_offset_of(leader.leader_epoch) : std::nullopt;
  return start.value_or(leader.log_end_offset) > leader.high_watermark;
}

std::optional<listed_offset> list_offset(const offsets_at_leader& leader, int64_t timestamp,
                                         const std::optional<record_at>& found) {
  if (timestamp == earliest_timestamp)
    return listed_offset{leader.log_start_offset, -1, epoch_of(leader, leader.log_start_offset)};
  if (timestamp == latest_timestamp) {
    if (high_watermark_lags(leader))
      return std::nullopt;
    return listed_offset{leader.high_watermark, -1, leader.leader_epoch};
  }
  if (found && found->offset < leader.high_watermark)
    return listed_offset{found->offset, found->timestamp, epoch_of(leader, found->offset)};
  if (high_watermark_lags(leader))
    return std::nullopt;
  return listed_offset{};
}

} // namespace cafka::storage
