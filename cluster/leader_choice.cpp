#include "cluster/leader_choice.hpp"

#include <algorithm>

namespace cafka::cluster {
namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

int32_t preferred_leader(const replica_list& replicas) {
  return replicas.empty() ? no_broker : replicas.front();
}

int32_t choose_leader(const replica_list& replicas, const std::vector<int32_t>& isr,
                      const std::vector<int32_t>& live_brokers) {
  for (auto id : replicas)
    if (contains(isr, id) && contains(live_brokers, id))
      return id;
  return no_broker;
}

leader_election elect_leader(const replica_list& replicas, const std::vector<int32_t>& isr,
                             const std::vector<int32_t>& live_brokers, bool unclean_allowed) {
  if (auto clean = choose_leader(replicas, isr, live_brokers); clean != no_broker)
    return {clean, false};
  if (unclean_allowed)
    for (auto id : replicas)
      if (contains(live_brokers, id))
        return {id, true};
  return {};
}

} // namespace cafka::cluster
