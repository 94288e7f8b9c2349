#pragma once
// Helpers for the assignor tests: members and partition lists written as in Kafka's javadoc
// ("t0p1" is partition 1 of topic t0; topic names here contain no 'p'), and plans printed the
// same way, so that an expected plan reads like the documentation it comes from.

#include <sstream>
#include <string>
#include <vector>

#include "cluster/assignor.hpp"

namespace cafka::cluster::testing {

/// "t0p0 t1p2" -> {{"t0", 0}, {"t1", 2}}.
inline std::vector<topic_partition> tps(const std::string& text) {
  std::vector<topic_partition> out;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    auto p = word.rfind('p');
    out.push_back({word.substr(0, p), std::stoi(word.substr(p + 1))});
  }
  return out;
}

inline assignor_member member(std::string id, std::vector<std::string> topics,
                              const std::string& owned = "",
                              int32_t generation = unknown_generation) {
  assignor_member m;
  m.member_id = std::move(id);
  m.topics = std::move(topics);
  m.owned_partitions = tps(owned);
  m.generation = generation;
  return m;
}

inline assignor_member static_member(std::string id, std::string instance_id,
                                     std::vector<std::string> topics) {
  auto m = member(std::move(id), std::move(topics));
  m.group_instance_id = std::move(instance_id);
  return m;
}

/// "C0 [t0p0 t0p1] C1 []".
inline std::string show(const assignment_plan& plan) {
  std::string out;
  for (auto& [id, partitions] : plan) {
    out += out.empty() ? "" : " ";
    out += id + " [";
    for (std::size_t i = 0; i < partitions.size(); ++i)
      out += (i ? " " : "") + partitions[i].topic + "p" + std::to_string(partitions[i].partition);
    out += "]";
  }
  return out;
}

} // namespace cafka::cluster::testing
