#pragma once
// Small helpers shared by the group_state sources (group_state.cpp, group_join.cpp,
// group_sync.cpp); not part of the group interface.

#include <algorithm>
#include <string>

#include "cluster/group_requests.hpp"

namespace cafka::cluster {

/// The first member matching `pred`, or nullptr; const-ness follows the container.
template <class Members, class Pred>
auto find_member_if(Members& members, Pred pred) -> decltype(&members.front()) {
  auto it = std::find_if(members.begin(), members.end(), pred);
  return it == members.end() ? nullptr : &*it;
}

/// A refused join as Kafka answers it: no generation, protocol or leader.
inline join_answer join_error(protocol::kafka_error error, std::string member_id) {
  join_answer a;
  a.error = error;
  a.member_id = std::move(member_id);
  return a;
}

inline sync_answer sync_error(protocol::kafka_error error) {
  return sync_answer{error, {}};
}

} // namespace cafka::cluster
