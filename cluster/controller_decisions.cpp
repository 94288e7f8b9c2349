#include "cluster/controller_decisions.hpp"

#include <algorithm>

#include "cluster/controller_election.hpp"
#include "cluster/errc.hpp"
#include "cluster/leader_choice.hpp"

namespace cafka::cluster {
namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The ISR without brokers that are not live, unless that would leave it empty.
std::vector<int32_t> live_isr(const std::vector<int32_t>& isr,
                              const std::vector<int32_t>& live_brokers) {
  std::vector<int32_t> out;
  for (auto id : isr)
    if (contains(live_brokers, id))
      out.push_back(id);
  return out.empty() ? isr : out;
}

} // namespace

placement_options with_racks(const cluster_view& view, placement_options options) {
  for (auto& b : view.brokers())
    if (!b.rack.empty())
      options.racks.emplace(b.id, b.rack);
  return options;
}

result<new_topic> place_new_topic(const cluster_view& view, const std::string& name,
                                  int32_t partitions, int32_t replication_factor,
                                  int32_t controller_epoch, const placement_options& options) {
  if (view.topic(name))
    return errc::node_exists;
  auto replicas = place_replicas(partitions, replication_factor, view.broker_ids(), with_racks(view, options));
  if (!replicas)
    return replicas.error();
  new_topic out;
  out.assignment.partitions = std::move(*replicas);
  for (auto& r : out.assignment.partitions)
    out.partition_states.push_back(partition_state{preferred_leader(r), 0, controller_epoch, r});
  return out;
}

bool unclean_election_enabled(const topic_config& config, bool broker_default) {
  auto it = config.entries.find("unclean.leader.election.enable");
  if (it == config.entries.end() || (it->second != "true" && it->second != "false"))
    return broker_default;
  return it->second == "true";
}

result<new_topic> assign_new_topic(const cluster_view& view, const std::string& name,
                                   std::vector<replica_list> assignment, int32_t controller_epoch) {
  if (view.topic(name))
    return errc::node_exists;
  if (assignment.empty())
    return errc::invalid_replica_assignment;
  for (auto& replicas : assignment) {
    auto sorted = replicas;
    std::sort(sorted.begin(), sorted.end());
    if (replicas.empty() || replicas.size() != assignment.front().size()
        || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()
        || std::any_of(replicas.begin(), replicas.end(), [&](int32_t id) { return !view.is_live(id); }))
      return errc::invalid_replica_assignment;
  }
  new_topic out;
  out.assignment.partitions = std::move(assignment);
  for (auto& r : out.assignment.partitions)
    out.partition_states.push_back(partition_state{preferred_leader(r), 0, controller_epoch, r});
  return out;
}

std::vector<partition_state_write> on_brokers_changed(const cluster_view& view,
                                                      const std::vector<int32_t>& live_brokers,
                                                      int32_t controller_epoch, bool unclean_default) {
  std::vector<partition_state_write> out;
  for (auto& [name, topic] : view.topics()) {
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& entry = topic.partitions[p];
      auto& old = entry.state;
      if (entry.state_version == no_state_version
          || is_stale_controller_epoch(controller_epoch, old.controller_epoch))
        continue; // nothing read to decide from, or a newer controller owns it
      auto next = old;
      bool unclean = false;
      next.isr = live_isr(old.isr, live_brokers);
      if (!contains(live_brokers, old.leader)) {
        auto elected = elect_leader(topic.assignment.partitions[p], old.isr, live_brokers,
                                    unclean_election_enabled(topic.config, unclean_default));
        next.leader = elected.leader;
        unclean = elected.unclean;
        if (unclean)
          next.isr = {elected.leader};
      }
      if (next.leader == old.leader && next.isr == old.isr)
        continue;
      if (next.leader != old.leader)
        ++next.leader_epoch;
      next.controller_epoch = controller_epoch;
      out.push_back({name, static_cast<int32_t>(p), std::move(next), entry.state_version, unclean});
    }
  }
  return out;
}

bool should_apply_partition_state(const std::optional<partition_state>& stored,
                                  const partition_state& write) noexcept {
  return !stored || !is_stale_controller_epoch(write.controller_epoch, stored->controller_epoch);
}

} // namespace cafka::cluster
