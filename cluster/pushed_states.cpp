#include "cluster/pushed_states.hpp"

namespace cafka::cluster {
namespace {

// The partition's entry and replicas in `view`, if the topic and partition exist.
std::pair<const partition_entry*, const replica_list*> find(const cluster_view& view, const std::string& topic,
                                                            int32_t partition) {
  auto* t = view.topic(topic);
  if (t == nullptr || partition < 0 || size_t(partition) >= t->partitions.size()
      || size_t(partition) >= t->assignment.partitions.size())
    return {nullptr, nullptr};
  return {&t->partitions[size_t(partition)], &t->assignment.partitions[size_t(partition)]};
}

} // namespace

size_t pushed_states::push(cluster_view& view, const std::vector<pushed_state>& states) {
  size_t applied = 0;
  for (auto& s : states) {
    auto [entry, replicas] = find(view, s.topic, s.partition);
    if (entry == nullptr || entry->state_version >= s.version)
      continue;
    auto keep = kept_state{s, *replicas};
    view.set_partition_state(s.topic, s.partition, partition_entry{s.state, s.version});
    kept_[{s.topic, s.partition}] = std::move(keep);
    ++applied;
  }
  return applied;
}

void pushed_states::overlay(cluster_view& loaded) {
  for (auto it = kept_.begin(); it != kept_.end();) {
    auto& [key, k] = *it;
    auto [entry, replicas] = find(loaded, key.first, key.second);
    if (entry == nullptr || *replicas != k.replicas || entry->state_version >= k.pushed.version) {
      it = kept_.erase(it);
      continue;
    }
    loaded.set_partition_state(key.first, key.second, partition_entry{k.pushed.state, k.pushed.version});
    ++it;
  }
}

} // namespace cafka::cluster
