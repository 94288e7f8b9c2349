#include "cluster/round_robin_assignor.hpp"

#include <algorithm>
#include <set>

namespace cafka::cluster {

assignment_plan assign_round_robin(const std::vector<assignor_member>& members,
                                   const partition_counts& partitions) {
  auto plan = empty_plan(members);
  auto ordered = sorted_members(members);
  std::vector<std::set<std::string>> subscribed;
  std::vector<std::string> topics;
  for (auto* m : ordered) {
    subscribed.emplace_back(m->topics.begin(), m->topics.end());
    for (auto& topic : m->topics) {
      auto it = partitions.find(topic);
      if (it != partitions.end() && it->second > 0)
        topics.push_back(topic);
    }
  }
  std::sort(topics.begin(), topics.end(),
            [](auto& a, auto& b) { return java_string_less(a, b); });
  topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  // Every topic listed has a subscriber, so the skipping below always ends.
  std::size_t next = 0;
  for (auto& topic : topics) {
    for (int32_t p = 0; p < partitions.at(topic); ++p) {
      while (subscribed[next].count(topic) == 0)
        next = (next + 1) % ordered.size();
      plan[ordered[next]->member_id].push_back({topic, p});
      next = (next + 1) % ordered.size();
    }
  }
  sort_plan(plan);
  return plan;
}

} // namespace cafka::cluster
