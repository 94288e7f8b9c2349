#include "cluster/assignor_lookup.hpp"

#include "cluster/range_assignor.hpp"
#include "cluster/round_robin_assignor.hpp"
#include "cluster/sticky_assignor.hpp"

namespace cafka::cluster {
namespace {

struct named_assignor {
  std::string_view name;
  assign_function assign;
};

// Range first, as in Kafka's default partition.assignment.strategy.
constexpr named_assignor known[] = {
  {range_assignor_name, &assign_range},
  {round_robin_assignor_name, &assign_round_robin},
  {sticky_assignor_name, &assign_sticky},
  {cooperative_sticky_assignor_name, &assign_sticky},
};

} // namespace

assign_function find_assignor(std::string_view protocol_name) {
  for (auto& a : known)
    if (a.name == protocol_name)
      return a.assign;
  return nullptr;
}

std::vector<std::string_view> assignor_names() {
  std::vector<std::string_view> names;
  for (auto& a : known)
    names.push_back(a.name);
  return names;
}

} // namespace cafka::cluster
