#include "cluster/range_assignor.hpp"

#include <algorithm>

namespace cafka::cluster {
namespace {

bool subscribes(const assignor_member& m, const std::string& topic) {
  return std::find(m.topics.begin(), m.topics.end(), topic) != m.topics.end();
}

} // namespace

assignment_plan assign_range(const std::vector<assignor_member>& members,
                             const partition_counts& partitions) {
  auto plan = empty_plan(members);
  auto ordered = sorted_members(members);
  std::vector<const assignor_member*> consumers;
  for (auto& [topic, count] : partitions) {
    if (count < 1)
      continue;
    consumers.clear();
    for (auto* m : ordered)
      if (subscribes(*m, topic))
        consumers.push_back(m);
    if (consumers.empty())
      continue;
    auto n = static_cast<int32_t>(consumers.size());
    auto per_member = count / n;
    auto with_extra = count % n;
    for (int32_t i = 0; i < n; ++i) {
      auto first = per_member * i + std::min(i, with_extra);
      auto length = per_member + (i < with_extra ? 1 : 0);
      auto& assigned = plan[consumers[static_cast<std::size_t>(i)]->member_id];
      for (int32_t p = first; p < first + length; ++p)
        assigned.push_back({topic, p});
    }
  }
  sort_plan(plan);
  return plan;
}

} // namespace cafka::cluster
