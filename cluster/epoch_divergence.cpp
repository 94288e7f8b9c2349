#include "cluster/epoch_divergence.hpp"

#include <algorithm>
#include <iterator>

namespace cafka::cluster {

leader_epoch_answer local_end_offset_for(const std::vector<local_epoch>& local_epochs,
                                         int32_t epoch, int64_t log_end) {
  // LeaderEpochFileCache.java endOffsetFor.
  if (epoch == -1)
    return {};
  if (!local_epochs.empty() && local_epochs.back().epoch == epoch)
    return {epoch, log_end};
  auto higher = std::find_if(local_epochs.begin(), local_epochs.end(),
                             [epoch](const local_epoch& e) { return e.epoch > epoch; });
  if (higher == local_epochs.end())
    return {};
  if (higher == local_epochs.begin())
    return {epoch, higher->start_offset};
  return {std::prev(higher)->epoch, higher->start_offset};
}

truncation truncation_point(const std::vector<local_epoch>& local_epochs, int64_t local_log_end,
                            int64_t high_watermark, const leader_epoch_answer& answer) {
  // AbstractFetcherThread.scala getOffsetTruncationState.
  if (answer.end_offset == -1)
    return {high_watermark, false, -1};
  if (answer.epoch == -1)
    return {std::min(answer.end_offset, local_log_end), false, -1};
  auto local = local_end_offset_for(local_epochs, answer.epoch, local_log_end);
  if (local.end_offset == -1) // UnifiedLog.endOffsetForEpoch: None
    return {std::min(answer.end_offset, local_log_end), false, -1};
  if (local.epoch != answer.epoch)
    return {std::min(local.end_offset, local_log_end), true, local.epoch};
  return {std::min({answer.end_offset, local.end_offset, local_log_end}), false, -1};
}

out_of_range_restart restart_after_out_of_range(int64_t local_log_end, int64_t leader_log_start,
                                                int64_t leader_log_end) {
  // AbstractFetcherThread.scala fetchOffsetAndTruncate.
  if (leader_log_end < local_log_end)
    return {leader_log_end, false, leader_log_end};
  return {-1, leader_log_start > local_log_end, std::max(leader_log_start, local_log_end)};
}

} // namespace cafka::cluster
