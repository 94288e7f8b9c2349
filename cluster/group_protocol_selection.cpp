#include "cluster/group_protocol_selection.hpp"

#include <algorithm>
#include <cstddef>

namespace cafka::cluster {
namespace {

bool supported_by_all(const std::vector<member_metadata>& members, const std::string& protocol,
                      const std::string& except) {
  return std::all_of(members.begin(), members.end(), [&](const member_metadata& m) {
    return m.member_id == except || m.metadata_for(protocol) != nullptr;
  });
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

std::vector<std::string> common_protocols(const std::vector<member_metadata>& members) {
  std::vector<std::string> out;
  if (members.empty())
    return out;
  for (auto& p : members.front().protocols)
    if (!contains(out, p.name) && supported_by_all(members, p.name, {}))
      out.push_back(p.name);
  return out;
}

std::optional<std::string> select_group_protocol(const std::vector<member_metadata>& members) {
  auto candidates = common_protocols(members);
  if (candidates.empty())
    return std::nullopt;
  std::vector<std::size_t> votes(candidates.size(), 0);
  for (auto& m : members) {
    // A member's vote: the first of its own protocols that everyone supports. It has one,
    // since every candidate is among its protocols.
    for (auto& p : m.protocols) {
      auto it = std::find(candidates.begin(), candidates.end(), p.name);
      if (it != candidates.end()) {
        ++votes[static_cast<std::size_t>(it - candidates.begin())];
        break;
      }
    }
  }
  // max_element keeps the first of equal counts: ties go to the first member's preference.
  auto best = std::max_element(votes.begin(), votes.end()) - votes.begin();
  return candidates[static_cast<std::size_t>(best)];
}

bool shares_a_protocol(const std::vector<member_metadata>& members,
                       const std::vector<group_protocol>& offered, const std::string& except) {
  return std::any_of(offered.begin(), offered.end(), [&](const group_protocol& p) {
    return supported_by_all(members, p.name, except);
  });
}

} // namespace cafka::cluster
