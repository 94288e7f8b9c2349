#include "cluster/backoff.hpp"

#include <algorithm>

namespace cafka::cluster {

std::chrono::milliseconds backoff_delay(const backoff_policy& policy, unsigned attempt) noexcept {
  auto delay = policy.initial;
  for (unsigned i = 0; i < attempt && delay < policy.max; ++i)
    delay *= 2;
  return std::min(delay, policy.max);
}

void reconnect_backoff::failed(time_point now) noexcept {
  not_before_ = now + backoff_delay(policy_, failures_);
  if (failures_ < 64) // the delay stopped growing long before; keep the count bounded
    ++failures_;
}

} // namespace cafka::cluster
