#pragma once
// Cluster views for the decision tests: live brokers, and topics with their states.
#include "cluster/cluster_view.hpp"

namespace cafka::cluster::test {

/// A view in which brokers `ids` are live (on 127.0.0.1, no rack).
inline cluster_view live_brokers(const std::vector<int32_t>& ids) {
  cluster_view v;
  std::vector<broker_registration> bs;
  for (auto id : ids)
    bs.push_back({id, "127.0.0.1", 9092, 9192, ""});
  v.set_brokers(bs);
  return v;
}

/// Adds topic `name`: partition p has replicas[p] and states[p], read at znode `version`.
inline void add_topic(cluster_view& v, const std::string& name, std::vector<replica_list> replicas,
                      const std::vector<partition_state>& states, int32_t version) {
  topic_entry e;
  e.assignment.partitions = std::move(replicas);
  for (auto& st : states)
    e.partitions.push_back({st, version});
  v.set_topic(name, e);
}

} // namespace cafka::cluster::test
