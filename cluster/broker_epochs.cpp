#include "cluster/broker_epochs.hpp"

#include <algorithm>

namespace cafka::cluster {

std::vector<int32_t> broker_epochs::bounced(const std::vector<broker_registration>& live) const {
  std::vector<int32_t> out;
  if (!known_)
    return out;
  for (auto& b : live) {
    auto it = known_->find(b.id);
    if (it != known_->end() && b.epoch > it->second)
      out.push_back(b.id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void broker_epochs::acted(const std::vector<broker_registration>& live) {
  std::map<int32_t, int64_t> next;
  for (auto& b : live)
    next[b.id] = b.epoch;
  known_ = std::move(next);
}

} // namespace cafka::cluster
