#include "cluster/leader_elections.hpp"

#include <algorithm>
#include <map>

#include "cluster/controller_election.hpp"

namespace cafka::cluster {

namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool decidable(const partition_entry& entry, int32_t controller_epoch) {
  return entry.state_version != no_state_version
         && !is_stale_controller_epoch(controller_epoch, entry.state.controller_epoch);
}

bool may_lead(const cluster_view& view, const partition_state& state, int32_t broker,
              const std::set<int32_t>& leaving) {
  return view.is_live(broker) && contains(state.isr, broker) && leaving.count(broker) == 0;
}

partition_state_write with_leader(const std::string& topic, int32_t partition, const partition_entry& entry,
                                  int32_t leader, int32_t controller_epoch) {
  auto next = entry.state;
  next.leader = leader;
  ++next.leader_epoch;
  next.controller_epoch = controller_epoch;
  return {topic, partition, std::move(next), entry.state_version, false};
}

leader_election_decision elect_unclean(const cluster_view& view, const std::string& topic, int32_t partition,
                                const replica_list& replicas, const partition_entry& entry,
                                int32_t controller_epoch) {
  if (view.is_live(entry.state.leader))
    return election_refusal::election_not_needed;
  for (auto id : replicas)
    if (view.is_live(id) && contains(entry.state.isr, id))
      return with_leader(topic, partition, entry, id, controller_epoch);
  for (auto id : replicas) {
    if (!view.is_live(id))
      continue;
    auto write = with_leader(topic, partition, entry, id, controller_epoch);
    write.state.isr = {id};
    write.unclean = true;
    return write;
  }
  return election_refusal::eligible_leaders_not_available;
}

} // namespace

leader_election_decision elect_asked(const cluster_view& view, const std::string& topic, int32_t partition,
                              election_type type, const std::set<int32_t>& leaving, int32_t controller_epoch) {
  auto* t = view.topic(topic);
  if (t == nullptr || partition < 0 || static_cast<size_t>(partition) >= t->partitions.size())
    return election_refusal::unknown_partition;
  auto& entry = t->partitions[partition];
  auto& replicas = t->assignment.partitions[partition];
  if (!decidable(entry, controller_epoch) || replicas.empty())
    return type == election_type::preferred ? election_refusal::preferred_leader_not_available
                                            : election_refusal::eligible_leaders_not_available;
  if (type == election_type::unclean)
    return elect_unclean(view, topic, partition, replicas, entry, controller_epoch);
  auto preferred = replicas.front();
  if (entry.state.leader == preferred)
    return election_refusal::election_not_needed;
  if (!may_lead(view, entry.state, preferred, leaving))
    return election_refusal::preferred_leader_not_available;
  return with_leader(topic, partition, entry, preferred, controller_epoch);
}

std::vector<partition_state_write> preferred_leader_rebalance(const cluster_view& view,
                                                              const std::set<int32_t>& leaving,
                                                              int32_t imbalance_percentage,
                                                              int32_t controller_epoch) {
  // Per preferred broker: how many partitions it is preferred for, and how many of those
  // another broker leads.
  std::map<int32_t, std::pair<int64_t, int64_t>> shares;
  for (auto& [name, topic] : view.topics())
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& replicas = topic.assignment.partitions[p];
      if (replicas.empty())
        continue;
      auto& share = shares[replicas.front()];
      ++share.first;
      if (topic.partitions[p].state.leader != replicas.front())
        ++share.second;
    }
  std::vector<partition_state_write> out;
  for (auto& [name, topic] : view.topics())
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& replicas = topic.assignment.partitions[p];
      auto& entry = topic.partitions[p];
      if (replicas.empty() || entry.state.leader == replicas.front() || !decidable(entry, controller_epoch))
        continue;
      auto preferred = replicas.front();
      auto [total, elsewhere] = shares[preferred];
      if (elsewhere * 100 <= static_cast<int64_t>(imbalance_percentage) * total)
        continue; // within the allowed imbalance
      if (may_lead(view, entry.state, preferred, leaving))
        out.push_back(with_leader(name, static_cast<int32_t>(p), entry, preferred, controller_epoch));
    }
  return out;
}

} // namespace cafka::cluster
