#include "cluster/controller_election.hpp"

#include <algorithm>
#include <limits>

namespace cafka::cluster {

election_decision decide_election(const std::optional<controller_node>& current,
                                  std::optional<int32_t> last_epoch, int32_t my_id,
                                  session_id my_session) {
  if (current) {
    auto& info = current->info;
    if (info.broker_id != my_id)
      return {election_role::follow, info.broker_id, info.epoch};
    auto role = current->owner == my_session ? election_role::lead : election_role::wait;
    return {role, my_id, info.epoch};
  }
  int32_t highest = std::max(last_epoch.value_or(0), 0);
  int32_t next = highest == std::numeric_limits<int32_t>::max() ? highest : highest + 1;
  return {election_role::campaign, my_id, next};
}

bool is_stale_controller_epoch(int32_t request_epoch, int32_t known_epoch) noexcept {
  return request_epoch < known_epoch;
}

} // namespace cafka::cluster
