#include "cluster/reassignment.hpp"

#include <algorithm>
#include <map>

#include "cluster/controller_election.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

namespace {

bool contains(const replica_list& ids, int32_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

// `ids` without those in `gone`, order kept.
replica_list without(const replica_list& ids, const replica_list& gone) {
  replica_list out;
  for (auto id : ids)
    if (!contains(gone, id))
      out.push_back(id);
  return out;
}

const replica_list* find_in(const std::map<int32_t, replica_list>& m, int32_t partition) {
  auto it = m.find(partition);
  return it == m.end() ? nullptr : &it->second;
}

replica_list original_replicas(const topic_assignment& a, int32_t partition) {
  auto& all = a.partitions[static_cast<size_t>(partition)];
  auto* adding = find_in(a.adding, partition);
  return adding == nullptr ? all : without(all, *adding);
}

bool being_moved(const topic_assignment& a, int32_t partition) {
  return a.adding.count(partition) > 0 || a.removing.count(partition) > 0;
}

// Partition `p` of `a` set to `replicas`, no longer being moved.
void settle_partition(topic_assignment& a, int32_t p, replica_list replicas) {
  a.partitions[static_cast<size_t>(p)] = std::move(replicas);
  a.adding.erase(p);
  a.removing.erase(p);
}

// The state after `keep` are the only replicas: ISR within them, a leader among them if one
// is live and in sync (the current one if it stays). nullopt: nothing changes.
std::optional<partition_state> narrowed_state(const cluster_view& view, const partition_entry& entry,
                                              const replica_list& keep, int32_t controller_epoch) {
  auto& old = entry.state;
  auto next = old;
  next.isr.clear();
  for (auto id : old.isr)
    if (contains(keep, id))
      next.isr.push_back(id);
  if (!contains(keep, old.leader)) {
    auto successor = std::find_if(keep.begin(), keep.end(),
                                  [&](int32_t id) { return contains(next.isr, id) && view.is_live(id); });
    next.leader = successor == keep.end() ? no_broker : *successor;
  }
  if (next.leader == old.leader && next.isr == old.isr)
    return std::nullopt;
  if (next.leader != old.leader)
    ++next.leader_epoch;
  next.controller_epoch = controller_epoch;
  return next;
}

std::string invalid_target(const cluster_view& view, const replica_list& target) {
  if (target.empty())
    return "The replica list is empty.";
  auto sorted = target;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return "The replica list has duplicate broker ids.";
  for (auto id : target)
    if (!view.is_live(id))
      return "Broker " + std::to_string(id) + " is not a live broker.";
  return {};
}

} // namespace

replica_list target_replicas(const topic_assignment& assignment, int32_t partition) {
  auto& all = assignment.partitions[static_cast<size_t>(partition)];
  auto* removing = find_in(assignment.removing, partition);
  return removing == nullptr ? all : without(all, *removing);
}

reassignment_plan plan_reassignments(const cluster_view& view, const std::vector<reassignment_ask>& asks,
                                     int32_t controller_epoch) {
  reassignment_plan plan;
  std::map<std::string, topic_assignment> changed; // the topics' assignments as the asks leave them
  for (auto& ask : asks) {
    reassignment_outcome out{ask.topic, ask.partition, kafka_error::none, {}};
    auto* topic = view.topic(ask.topic);
    if (topic == nullptr || ask.partition < 0 || ask.partition >= static_cast<int32_t>(topic->partitions.size())) {
      out.error = kafka_error::unknown_topic_or_partition;
      out.message = "The partition does not exist.";
      plan.outcomes.push_back(std::move(out));
      continue;
    }
    auto& a = changed.try_emplace(ask.topic, topic->assignment).first->second;
    auto original = original_replicas(a, ask.partition);
    // A cancel, or a target of the brokers the partition started on (maybe in another order):
    // those replicas, and only they, stay.
    auto back_to = [&](const replica_list& replicas) {
      settle_partition(a, ask.partition, replicas);
      auto& entry = topic->partitions[static_cast<size_t>(ask.partition)];
      if (entry.state_version != no_state_version)
        if (auto next = narrowed_state(view, entry, replicas, controller_epoch))
          plan.states.push_back({ask.topic, ask.partition, *next, entry.state_version, false});
    };
    if (!ask.target) {
      if (!being_moved(a, ask.partition)) {
        out.error = kafka_error::no_reassignment_in_progress;
        out.message = "No reassignment is in progress for this partition.";
      } else {
        back_to(original);
      }
      plan.outcomes.push_back(std::move(out));
      continue;
    }
    if (auto why = invalid_target(view, *ask.target); !why.empty()) {
      out.error = kafka_error::invalid_replica_assignment;
      out.message = why;
      plan.outcomes.push_back(std::move(out));
      continue;
    }
    auto& target = *ask.target;
    if (without(target, original).empty() && without(original, target).empty()) { // the same brokers
      back_to(target);
      plan.outcomes.push_back(std::move(out));
      continue;
    }
    auto full = target;
    for (auto id : original)
      if (!contains(full, id))
        full.push_back(id);
    auto adding = without(target, original);
    auto removing = without(original, target);
    settle_partition(a, ask.partition, full);
    if (!adding.empty())
      a.adding[ask.partition] = adding;
    if (!removing.empty())
      a.removing[ask.partition] = removing;
    plan.outcomes.push_back(std::move(out));
  }
  for (auto& [name, a] : changed) {
    auto& before = view.topic(name)->assignment;
    if (!(a == before))
      plan.assignments.push_back({name, std::move(a), view.topic(name)->assignment_version});
  }
  return plan;
}

reassignment_completion complete_reassignments(const cluster_view& view, int32_t controller_epoch) {
  reassignment_completion out;
  for (auto& [name, topic] : view.topics()) {
    auto& a = topic.assignment;
    if (a.adding.empty() && a.removing.empty())
      continue;
    auto next = a;
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto partition = static_cast<int32_t>(p);
      if (!being_moved(a, partition))
        continue;
      auto& entry = topic.partitions[p];
      if (entry.state_version == no_state_version || is_stale_controller_epoch(controller_epoch, entry.state.controller_epoch))
        continue;
      auto target = target_replicas(a, partition);
      bool caught_up = std::all_of(target.begin(), target.end(), [&](int32_t id) {
        return contains(entry.state.isr, id) && view.is_live(id);
      });
      if (!caught_up)
        continue;
      if (auto state = narrowed_state(view, entry, target, controller_epoch))
        out.states.push_back({name, partition, *state, entry.state_version, false});
      settle_partition(next, partition, target);
    }
    if (!(next == a))
      out.assignments.push_back({name, std::move(next), topic.assignment_version});
  }
  return out;
}

std::vector<reassignment_status> reassignments_in_progress(const cluster_view& view,
                                                           const std::vector<std::string>& topics) {
  std::vector<reassignment_status> out;
  for (auto& [name, topic] : view.topics()) {
    if (!topics.empty() && std::find(topics.begin(), topics.end(), name) == topics.end())
      continue;
    auto& a = topic.assignment;
    for (size_t p = 0; p < a.partitions.size(); ++p) {
      auto partition = static_cast<int32_t>(p);
      if (!being_moved(a, partition))
        continue;
      auto* adding = find_in(a.adding, partition);
      auto* removing = find_in(a.removing, partition);
      out.push_back({name, partition, a.partitions[p], adding ? *adding : replica_list{},
                     removing ? *removing : replica_list{}});
    }
  }
  return out;
}

} // namespace cafka::cluster
