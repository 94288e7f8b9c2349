#include "storage/retention.hpp"

namespace cafka::storage {

retention_decision select_expired_segments(const std::vector<segment_summary>& segments,
                                           const retention_policy& policy, int64_t now_ms) {
  retention_decision d;
  if (segments.size() < 2)
    return d;
  size_t sealed = segments.size() - 1;
  if (policy.retention_ms >= 0) {
    while (d.by_time < sealed
           && now_ms - segments[d.by_time].largest_timestamp > policy.retention_ms)
      ++d.by_time;
  }
  if (policy.retention_bytes >= 0) {
    int64_t total = 0;
    for (size_t i = d.by_time; i < segments.size(); ++i)
      total += static_cast<int64_t>(segments[i].size);
    int64_t excess = total - policy.retention_bytes;
    size_t i = d.by_time;
    while (i < sealed && excess - static_cast<int64_t>(segments[i].size) >= 0) {
      excess -= static_cast<int64_t>(segments[i].size);
      ++i;
    }
    d.by_size = i - d.by_time;
  }
  return d;
}

} // namespace cafka::storage
