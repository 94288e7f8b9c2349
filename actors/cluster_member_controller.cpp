// The controller role of the cluster member (actors/cluster_member.hpp): partition states
// for the brokers that failed, started, bounced or are shutting down, for asked elections and
// reassignments, and for preferred leaders coming back (auto.leader.rebalance.enable), written
// conditionally (a reassignment's topic assignment after its states) and then pushed to every
// live broker (Kafka's LeaderAndIsr).
#include "actors/cluster_member_state.hpp"
#include "actors/cluster_view_cache.hpp"
#include "actors/log_line.hpp"
#include "cluster/controlled_shutdown.hpp"
#include "cluster/controller_decisions.hpp"
#include "cluster/leader_elections.hpp"
#include "cluster/znode_paths.hpp"
#include "config/dynamic_broker_config.hpp"

namespace cafka::member {

// As controller: leaders for partitions whose leader is gone (or back), written
// conditionally on the versions of this view.
void act_as_controller(self_ptr self) {
  auto& st = self->state;
  if (st.controller_epoch == 0 || st.writing)
    return;
  // A bounced broker (cluster/broker_epochs.hpp) is decided on as failed first; once that is
  // written, as started.
  auto brokers = st.view.brokers();
  auto live = st.view.broker_ids();
  auto bounced = st.broker_epochs.bounced(brokers);
  for (auto id : bounced) {
    log_line(log_level::warn, log_component::cluster, "controller %d: broker %d registered again (a new session): handled as failed, then started",
             st.ctx.broker_id, id);
    live.erase(std::remove(live.begin(), live.end(), id), live.end());
  }
  // The broker default in force: the dynamic one (this controller's, then the cluster's) first.
  config::dynamic_broker_configs dynamic{st.view.broker_config(std::to_string(st.ctx.broker_id)),
                                         st.view.broker_config(cluster::default_broker_entity)};
  auto writes = cluster::on_brokers_changed(st.view, live, st.controller_epoch,
                                            config::unclean_leader_election_default(
                                              dynamic, st.ctx.config.unclean_leader_election_enable));
  if (writes.empty() && bounced.empty()) // then brokers in a controlled shutdown step aside
    writes = cluster::controlled_shutdown_writes(st.view, leaving_brokers(self), st.controller_epoch);
  if (writes.empty() && bounced.empty()) // then ElectLeaders requests, one at a time
    writes = next_asked_election(self);
  if (writes.empty() && bounced.empty()) // then reassignments: asked ones, then caught-up ones
    writes = next_reassignment_writes(self);
  bool nothing_yet = writes.empty() && bounced.empty() && st.assignments_to_write.empty();
  if (nothing_yet && st.rebalance_due) { // then preferred leaders return
    st.rebalance_due = false;
    writes = cluster::preferred_leader_rebalance(st.view, leaving_brokers(self),
                                                 st.ctx.config.leader_imbalance_per_broker_percentage,
                                                 st.controller_epoch);
    if (!writes.empty())
      log_line(log_level::info, log_component::cluster, "controller %d: moving %zu leadership(s) back to their preferred replicas", st.ctx.broker_id,
               writes.size());
  }
  if (writes.empty() && st.assignments_to_write.empty()) {
    st.broker_epochs.acted(brokers);
    if (!bounced.empty())
      act_as_controller(self); // nothing to move: start them at once
    else
      answer_leaving(self);
    return;
  }
  st.deciding = std::move(brokers);
  st.decided = writes;
  for (auto& w : writes)
    if (w.unclean)
      log_line(log_level::warn, log_component::cluster, "controller %d: unclean leader election: %s-%d led by broker %d, outside the ISR; records that only "
               "the old ISR had are lost",
               st.ctx.broker_id, w.topic.c_str(), w.partition, w.state.leader);
  st.writing = true;
  auto assignments = std::move(st.assignments_to_write);
  st.assignments_to_write.clear();
  log_line(log_level::info, log_component::cluster, "controller %d (epoch %d): writing %zu partition state(s)%s", st.ctx.broker_id, st.controller_epoch,
           writes.size(),
           assignments.empty() ? "" : (", then " + std::to_string(assignments.size()) + " topic assignment(s)").c_str());
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::write_decision(*st.ctx.coordinator, writes, assignments,
                          [me](status s) { caf::anon_send(me, states_written{s}); });
}

// Every leader.imbalance.check.interval.seconds: the next decision may include the preferred
// leaders' return (cluster/leader_elections.hpp).
void check_leader_imbalance(self_ptr self) {
  auto& st = self->state;
  if (!st.ctx.config.auto_leader_rebalance_enable)
    return;
  st.rebalance_due = st.controller_epoch != 0;
  act_as_controller(self);
  self->delayed_send(self, std::chrono::seconds(st.ctx.config.leader_imbalance_check_interval_seconds),
                     rebalance_atom_v);
}

// Partition states the controller wrote (a push from it, or this broker's own as controller):
// applied to the view where they are newer, and published at once.
void take_pushed_states(self_ptr self, const leader_and_isr& m) {
  auto& st = self->state;
  auto applied = st.pushed.push(st.view, m.states);
  if (applied == 0)
    return;
  if (m.controller_id != st.ctx.broker_id)
    log_line(log_level::info, log_component::cluster, "broker %d: %zu partition state(s) from controller %d (epoch %d) applied ahead of the reload",
             st.ctx.broker_id, applied, m.controller_id, m.controller_epoch);
  st.ctx.views->publish(cluster::loaded_view{st.view, {}});
  caf::anon_send(st.ctx.node, caf::update_atom_v);
}

// As controller, after a successful write: every live broker gets the states (one that is
// not reached reads them from the znodes).
void push_decided_states(self_ptr self) {
  auto& st = self->state;
  leader_and_isr m{st.ctx.broker_id, st.controller_epoch, {}};
  for (auto& w : st.decided)
    m.states.push_back({w.topic, w.partition, w.state, w.expected_version + 1}); // a create (no_state_version) gives 0
  st.decided.clear();
  take_pushed_states(self, m);
  for (auto id : st.view.broker_ids())
    if (id != st.ctx.broker_id)
      with_link(self, id, [m](node_actor node) { caf::anon_send(node, leader_and_isr_atom_v, m); }, [] {});
}

} // namespace cafka::member
