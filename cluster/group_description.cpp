#include "cluster/group_description.hpp"

namespace cafka::cluster {

const char* to_string(group_phase p) noexcept {
  switch (p) {
    case group_phase::empty: return "Empty";
    case group_phase::preparing_rebalance: return "PreparingRebalance";
    case group_phase::completing_rebalance: return "CompletingRebalance";
    case group_phase::stable: return "Stable";
    case group_phase::dead: return "Dead";
  }
  return "Unknown";
}

} // namespace cafka::cluster
