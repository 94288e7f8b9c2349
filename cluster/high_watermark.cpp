#include "cluster/high_watermark.hpp"

#include <algorithm>

namespace cafka::cluster {

int64_t advance_high_watermark(int64_t current_hw, int64_t log_start, int64_t leader_log_end,
                               const std::vector<replica_progress>& followers,
                               const std::vector<int32_t>& maximal_isr, int64_t now_ms,
                               int64_t lag_ms) {
  auto candidate = leader_log_end;
  for (auto& f : followers) {
    bool in_isr = std::find(maximal_isr.begin(), maximal_isr.end(), f.broker) != maximal_isr.end();
    bool waits_for_it = in_isr || (f.log_end_offset >= 0 && now_ms - f.last_caught_up_ms <= lag_ms);
    if (waits_for_it)
      candidate = std::min(candidate, f.log_end_offset); // -1 (unknown) holds the HW
  }
  auto hw = std::max(current_hw, candidate);
  // UnifiedLog.updateHighWatermark's clamp.
  if (hw < log_start)
    return log_start;
  if (hw > leader_log_end)
    return leader_log_end;
  return hw;
}

} // namespace cafka::cluster
