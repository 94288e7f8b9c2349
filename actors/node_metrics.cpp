// What the node actor tells the metrics endpoint: the gauges of its replicas and of the
// cluster (GET /metrics), and whether it is ready for clients (GET /ready).
#include "actors/node_actor_state.hpp"

#include <algorithm>

namespace cafka {

namespace {

// Kafka's KafkaController metrics, which only the active controller reports (the others
// report 0, so that a dashboard's sum over brokers is the cluster's figure).
metrics::cluster_gauges cluster_gauges_of(self_ptr self) {
  metrics::cluster_gauges out;
  if (!clustered(self)) { // a single node is its own controller
    out.active_controller = true;
    out.brokers = 1;
    std::set<std::string> topics;
    for (auto& [tp, _] : self->state.partitions)
      topics.insert(tp.topic);
    out.topics = static_cast<int32_t>(topics.size());
    out.partitions = static_cast<int32_t>(self->state.partitions.size());
    return out;
  }
  auto& view = self->state.applied->view;
  if (!view.controller() || view.controller()->broker_id != my_id(self))
    return out;
  out.active_controller = true;
  out.brokers = static_cast<int32_t>(view.broker_ids().size());
  out.topics = static_cast<int32_t>(view.topics().size());
  for (auto& [name, topic] : view.topics())
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      ++out.partitions;
      if (view.live_leader(name, static_cast<int32_t>(p)) == cluster::no_broker)
        ++out.offline_partitions;
    }
  return out;
}

// The leader, replica count and ISR size the view records for a local replica (a single
// node leads every partition alone).
void fill_roles(self_ptr self, metrics::partition_gauges& g) {
  if (!clustered(self)) {
    g.leader = true;
    g.leader_id = my_id(self);
    return;
  }
  auto* topic = self->state.applied->view.topic(g.topic);
  if (topic == nullptr || g.partition < 0 || g.partition >= static_cast<int32_t>(topic->partitions.size()))
    return;
  auto p = static_cast<size_t>(g.partition);
  auto& state = topic->partitions[p].state;
  g.leader_id = state.leader;
  g.leader = state.leader == my_id(self);
  g.replicas = static_cast<int32_t>(topic->assignment.partitions[p].size());
  g.isr = static_cast<int32_t>(state.isr.size());
}

} // namespace

caf::result<metrics::broker_gauges> broker_gauges_of(self_ptr self) {
  auto rp = self->make_response_promise<metrics::broker_gauges>();
  gather<partition_status>(self, all_replicas(self), [=](std::vector<caf::expected<partition_status>>& replies) mutable {
    metrics::broker_gauges out;
    out.broker_id = my_id(self);
    out.cluster = cluster_gauges_of(self);
    for (auto& r : replies) {
      if (!r) // a replica closing meanwhile
        continue;
      metrics::partition_gauges g;
      g.topic = r->tp.topic;
      g.partition = r->tp.partition;
      g.size_bytes = r->size_bytes;
      g.log_start_offset = r->log_start_offset;
      g.log_end_offset = r->log_end_offset;
      g.high_watermark = r->high_watermark;
      g.segments = r->segments;
      fill_roles(self, g);
      out.partitions.push_back(std::move(g));
    }
    rp.deliver(std::move(out));
  }, caf::get_atom_v);
  return rp;
}

std::string readiness(self_ptr self) {
  auto& st = self->state;
  if (st.stopping || st.leaving)
    return "shutting down";
  if (!clustered(self))
    return {};
  auto latest = st.ctx.views->snapshot();
  if (latest == nullptr || !latest->view.is_live(my_id(self)))
    return "not registered in the cluster view yet";
  if (latest != st.applied)
    return "applying the latest cluster view";
  if (!st.opening.empty())
    return "opening " + std::to_string(st.opening.size()) + " partition logs";
  return {};
}

} // namespace cafka
