// AlterPartitionReassignments in the cluster member (cluster/reassignment.hpp): forwarded to
// the controller, which decides each request with its other decisions (one write at a time),
// writes the states and then the topic assignments, and answers per partition once written.
// The same turn completes reassignments whose new replicas caught up.
#include "actors/cluster_member_state.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "cluster/reassignment.hpp"

namespace cafka::member {

namespace {

using outcomes = std::vector<partition_outcome>;

std::vector<cluster::reassignment_ask> asks_of(const std::vector<partition_move>& moves) {
  std::vector<cluster::reassignment_ask> out;
  for (auto& m : moves)
    out.push_back({m.tp.topic, m.tp.partition,
                   m.cancel ? std::nullopt : std::optional<cluster::replica_list>{m.replicas}});
  return out;
}

} // namespace

caf::result<outcomes> reassign(self_ptr self, std::vector<partition_move> moves, bool may_forward) {
  auto& st = self->state;
  auto rp = self->make_response_promise<outcomes>();
  if (st.controller_epoch != 0) {
    st.asked_reassignments.push_back({std::move(moves), rp, {}});
    act_as_controller(self);
    return rp;
  }
  forward_to_controller(self, may_forward, rp, "reassign partitions", reassign_atom_v, std::move(moves));
  return rp;
}

std::vector<cluster::partition_state_write> next_reassignment_writes(self_ptr self) {
  auto& st = self->state;
  while (!st.answering_reassignment && !st.asked_reassignments.empty()) {
    auto asked = std::move(st.asked_reassignments.front());
    st.asked_reassignments.erase(st.asked_reassignments.begin());
    auto plan = cluster::plan_reassignments(st.view, asks_of(asked.moves), st.controller_epoch);
    for (auto& o : plan.outcomes)
      asked.outcomes.push_back({topic_partition{o.topic, o.partition}, protocol::wire_code(o.error), o.message});
    if (plan.states.empty() && plan.assignments.empty()) {
      asked.rp.deliver(std::move(asked.outcomes));
      continue;
    }
    log_line(log_level::info, log_component::cluster, "controller %d: reassigning partitions of %zu topic(s) as asked", st.ctx.broker_id,
             plan.assignments.size());
    st.assignments_to_write = std::move(plan.assignments);
    st.answering_reassignment = std::move(asked);
    return std::move(plan.states);
  }
  auto done = cluster::complete_reassignments(st.view, st.controller_epoch);
  for (auto& a : done.assignments)
    log_line(log_level::info, log_component::cluster, "controller %d: reassignment of partition(s) of %s caught up: the old replicas go", st.ctx.broker_id,
             a.topic.c_str());
  st.assignments_to_write = std::move(done.assignments);
  return std::move(done.states);
}

void finish_asked_reassignment(self_ptr self, const status& written) {
  auto& st = self->state;
  if (!st.answering_reassignment)
    return;
  auto asked = std::move(*st.answering_reassignment);
  st.answering_reassignment.reset();
  if (!written)
    for (auto& o : asked.outcomes)
      if (o.error == 0) {
        o.error = protocol::wire_code(kafka_error::request_timed_out);
        o.message = "writing the reassignment failed (" + written.error().message() + "); retry";
      }
  asked.rp.deliver(std::move(asked.outcomes));
}

void abandon_asked_reassignments(self_ptr self) {
  auto& st = self->state;
  if (st.answering_reassignment)
    finish_asked_reassignment(self, status{std::make_error_code(std::errc::operation_canceled)});
  for (auto& asked : st.asked_reassignments)
    asked.rp.deliver(caf::make_error(kafka_error::not_controller, "the controller changed"));
  st.asked_reassignments.clear();
  st.assignments_to_write.clear();
}

} // namespace cafka::member
