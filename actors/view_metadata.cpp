#include "actors/view_metadata.hpp"

#include <set>

#include "cluster/internal_topics.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka {

cluster_metadata metadata_from_view(const cluster::cluster_view& view, int32_t my_id,
                                    const std::map<topic_partition, partition_actor>& served,
                                    std::vector<std::string> names, bool all_topics) {
  cluster_metadata out;
  out.controller_id = view.controller() ? view.controller()->broker_id : -1;
  for (auto& b : view.brokers())
    out.brokers.push_back(broker_info{b.id, b.host, b.kafka_port, b.caf_port});
  if (all_topics) { // the internal topics only when asked for by name
    names.clear();
    for (auto& name : view.topic_names())
      if (!cluster::is_internal_topic(name))
        names.push_back(name);
  }
  for (auto& name : names) {
    topic_metadata t{name, 0, {}};
    auto described = view.describe_topic(name);
    if (!described) {
      t.error = protocol::wire_code(protocol::kafka_error::unknown_topic_or_partition);
      out.topics.push_back(std::move(t));
      continue;
    }
    for (auto& pm : *described) {
      partition_metadata p{pm.partition, 0, pm.leader, pm.replicas, {}, pm.isr, {}};
      for (auto id : pm.replicas)
        if (!view.is_live(id))
          p.offline_replicas.push_back(id);
      // Internal topics are not served to clients: their leaders are the coordinators.
      if (pm.leader == my_id && !cluster::is_internal_topic(name)) {
        auto it = served.find(topic_partition{name, pm.partition});
        if (it != served.end())
          p.actor = it->second;
        else
          p.leader = cluster::no_broker; // still opening (or failed to open)
      }
      if (p.leader == cluster::no_broker)
        p.error = protocol::wire_code(protocol::kafka_error::leader_not_available);
      t.partitions.push_back(std::move(p));
    }
    out.topics.push_back(std::move(t));
  }
  return out;
}

std::set<topic_partition> partitions_elsewhere(const cluster::cluster_view& view,
                                               const std::map<topic_partition, partition_actor>& served) {
  std::set<topic_partition> out;
  for (auto& [name, topic] : view.topics())
    for (int32_t p = 0; p < static_cast<int32_t>(topic.assignment.partitions.size()); ++p)
      if (served.count(topic_partition{name, p}) == 0)
        out.insert(topic_partition{name, p});
  return out;
}

} // namespace cafka
