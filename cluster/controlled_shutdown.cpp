#include "cluster/controlled_shutdown.hpp"

#include <algorithm>

#include "cluster/controller_election.hpp"

namespace cafka::cluster {

namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::vector<int32_t> without(const std::vector<int32_t>& isr, const std::set<int32_t>& leaving) {
  std::vector<int32_t> out;
  for (auto id : isr)
    if (leaving.count(id) == 0)
      out.push_back(id);
  return out;
}

} // namespace

std::vector<partition_state_write> controlled_shutdown_writes(const cluster_view& view,
                                                              const std::set<int32_t>& leaving,
                                                              int32_t controller_epoch) {
  std::vector<partition_state_write> out;
  if (leaving.empty())
    return out;
  for (auto& [name, topic] : view.topics()) {
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& entry = topic.partitions[p];
      auto& old = entry.state;
      if (entry.state_version == no_state_version || is_stale_controller_epoch(controller_epoch, old.controller_epoch))
        continue;
      auto next = old;
      next.isr = without(old.isr, leaving);
      if (leaving.count(old.leader) != 0) {
        auto& replicas = topic.assignment.partitions[p];
        auto successor = std::find_if(replicas.begin(), replicas.end(), [&](int32_t id) {
          return contains(next.isr, id) && view.is_live(id);
        });
        if (successor == replicas.end())
          continue; // no other in-sync replica: it stays
        next.leader = *successor;
        ++next.leader_epoch;
      } else if (next.isr.empty()) {
        continue;
      }
      if (next.leader == old.leader && next.isr == old.isr)
        continue;
      next.controller_epoch = controller_epoch;
      out.push_back({name, static_cast<int32_t>(p), std::move(next), entry.state_version, false});
    }
  }
  return out;
}

int32_t partitions_left_to_move(const cluster_view& view, int32_t broker, int32_t controller_epoch) {
  return static_cast<int32_t>(controlled_shutdown_writes(view, {broker}, controller_epoch).size());
}

} // namespace cafka::cluster
