#include "cluster/assignor.hpp"

#include <algorithm>
#include <set>

namespace cafka::cluster {
namespace {

bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

/// Lead bytes of U+E000..U+FFFF (0xEE, 0xEF) and of U+10000.. (0xF0..0xF4): the only pair of
/// UTF-8 lead bytes whose byte order is the reverse of UTF-16 order.
bool starts_high_bmp(unsigned char c) {
  return c == 0xEE || c == 0xEF;
}
bool starts_supplementary(unsigned char c) {
  return c >= 0xF0 && c <= 0xF4;
}

} // namespace

bool java_string_less(std::string_view a, std::string_view b) {
  auto n = std::min(a.size(), b.size());
  std::size_t i = 0;
  while (i < n && a[i] == b[i])
    ++i;
  if (i == n)
    return a.size() < b.size();
  // Bytes before i are equal, so the differing characters start at the same place.
  auto start = i;
  while (start > 0 && is_continuation(static_cast<unsigned char>(a[start])))
    --start;
  auto lead_a = static_cast<unsigned char>(a[start]);
  auto lead_b = static_cast<unsigned char>(b[start]);
  if (starts_supplementary(lead_a) && starts_high_bmp(lead_b))
    return true;
  if (starts_high_bmp(lead_a) && starts_supplementary(lead_b))
    return false;
  return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
}

bool kafka_member_less(const assignor_member& a, const assignor_member& b) {
  if (a.group_instance_id && b.group_instance_id)
    return java_string_less(*a.group_instance_id, *b.group_instance_id);
  if (a.group_instance_id || b.group_instance_id)
    return a.group_instance_id.has_value();
  return java_string_less(a.member_id, b.member_id);
}

std::vector<const assignor_member*> sorted_members(const std::vector<assignor_member>& members) {
  std::vector<const assignor_member*> out;
  std::set<std::string_view> seen;
  for (auto& m : members)
    if (seen.insert(m.member_id).second)
      out.push_back(&m);
  std::stable_sort(out.begin(), out.end(),
                   [](auto* a, auto* b) { return kafka_member_less(*a, *b); });
  return out;
}

assignment_plan empty_plan(const std::vector<assignor_member>& members) {
  assignment_plan plan;
  for (auto& m : members)
    plan.emplace(m.member_id, std::vector<topic_partition>{});
  return plan;
}

void sort_plan(assignment_plan& plan) {
  for (auto& [member, partitions] : plan)
    std::sort(partitions.begin(), partitions.end());
}

} // namespace cafka::cluster
