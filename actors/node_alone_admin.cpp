// A single node's answers to CreatePartitions and AlterPartitionReassignments.
//
// More partitions for a topic of a single node (CreatePartitions, cafka-topics --alter): the
// same checks as the controller's (cluster/partition_addition.hpp, over a view of this one
// broker), then the new logs, the registry, and only then the partitions served, so that
// nothing is acknowledged into a partition a kill would forget.
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/node_actor_state.hpp"
#include "actors/node_storage.hpp"
#include "cluster/cluster_writes.hpp"
#include "cluster/partition_addition.hpp"

namespace cafka {

namespace {

// The topic as the controller would see it: every replica on this broker.
cluster::cluster_view single_broker_view(int32_t me, const std::string& topic, int32_t partitions) {
  cluster::cluster_view v;
  v.set_brokers({cluster::broker_registration{me, "", 0, 0, ""}});
  cluster::topic_entry e;
  e.assignment.partitions.assign(static_cast<size_t>(partitions), cluster::replica_list{me});
  v.set_topic(topic, e);
  return v;
}

} // namespace

caf::result<int32_t> add_partitions_alone(self_ptr self, const partition_addition_request& req) {
  auto& st = self->state;
  auto& ns = *st.ctx.storage;
  auto me = ns.config.broker_id;
  auto it = ns.topics.find(req.topic);
  if (it == ns.topics.end() || st.deleting.count(req.topic) > 0)
    return caf::make_error(kafka_error::unknown_topic_or_partition, "The topic '" + req.topic + "' does not exist.");
  if (st.unregistered.count(req.topic) > 0)
    return caf::make_error(kafka_error::request_timed_out, "topic '" + req.topic + "' is still being created; retry");
  auto now = it->second.partitions;
  auto plan = cluster::plan_partition_addition(single_broker_view(me, req.topic, now), req.topic, req.count,
                                               req.assignments, 0);
  if (auto* refusal = std::get_if<cluster::addition_refusal>(&plan))
    return caf::make_error(refusal->error, refusal->message);
  if (auto why = too_many_partitions(req.count))
    return caf::make_error(kafka_error::invalid_partitions, *why);
  if (req.validate_only)
    return req.count;
  auto& addition = std::get<cluster::partition_addition>(plan);
  auto now_ms = st.ctx.now_ms();
  int32_t opened = now;
  status open_status;
  for (int32_t p = now; p < req.count && open_status; ++p) {
    open_status = ns.open_partition_log(topic_partition{req.topic, p}, now_ms);
    if (open_status)
      opened = p + 1;
  }
  if (opened == now)
    return to_caf_error(open_status.error());
  // The logs opened so far join the topic even if a later one failed: their folders exist.
  it->second.partitions = opened;
  addition.assignment.partitions.resize(static_cast<size_t>(opened));
  addition.new_states.resize(static_cast<size_t>(opened - now));
  auto rp = self->make_response_promise<int32_t>();
  auto topic = req.topic;
  write_registry(self, [=](caf::error err) mutable {
    if (err) {
      rp.deliver(std::move(err));
      return;
    }
    for (int32_t p = now; p < opened; ++p) {
      topic_partition tp{topic, p};
      self->state.partitions[tp] = spawn_partition(self->system(), self->state.ctx.storage->partitions[tp].log,
                                                   context_for(self, tp, replica_role{}));
    }
    publish_routes(self);
    cluster::publish_partition_addition(*self->state.ctx.coordinator, topic, addition, cluster::any_version,
                                        [topic](status s) {
                                          if (!s)
                                            log_line(log_level::warn, log_component::cluster, "coordinator: adding partitions of %s failed: %s", topic.c_str(),
                                                     s.error().message().c_str());
                                        });
    log_line(log_level::info, log_component::cluster, "topic %s now has %d partition(s)", topic.c_str(), opened);
    if (open_status)
      rp.deliver(opened);
    else // the error of the partition that could not be opened
      rp.deliver(to_caf_error(open_status.error()));
  });
  return rp;
}

std::vector<partition_outcome> reassign_alone(self_ptr self, const std::vector<partition_move>& moves) {
  auto& ns = *self->state.ctx.storage;
  auto me = ns.config.broker_id;
  std::vector<partition_outcome> out;
  for (auto& m : moves) {
    auto topic = ns.topics.find(m.tp.topic);
    if (topic == ns.topics.end() || m.tp.partition < 0 || m.tp.partition >= topic->second.partitions)
      out.push_back({m.tp, protocol::wire_code(kafka_error::unknown_topic_or_partition), "The partition does not exist."});
    else if (m.cancel)
      out.push_back({m.tp, protocol::wire_code(kafka_error::no_reassignment_in_progress),
                     "No reassignment is in progress for this partition."});
    else if (m.replicas != std::vector<int32_t>{me})
      out.push_back({m.tp, protocol::wire_code(kafka_error::invalid_replica_assignment),
                     "A single node holds every replica: broker " + std::to_string(me) + " only."});
    else
      out.push_back({m.tp, 0, ""}); // where it is already
  }
  return out;
}

} // namespace cafka
