#include "actors/cluster_member.hpp"

#include "actors/cluster_member_state.hpp"
#include "actors/cluster_view_cache.hpp"
#include "actors/log_line.hpp"
#include "cluster/errc.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::member {

namespace {

using reload_atom = caf::atom_constant<caf::atom("cmreload")>;
using retry_atom = caf::atom_constant<caf::atom("cmretry")>;
using register_atom = caf::atom_constant<caf::atom("cmregister")>;

// After failed coordinator calls in a row (connection loss, a node missing during
// registration): 200 ms, doubled up to 5 s, so that a coordinator that is away costs
// neither a core nor a flood of log lines.
constexpr cluster::backoff_policy retry_backoff{std::chrono::milliseconds(200), std::chrono::milliseconds(5000)};

} // namespace

// The one place the controller role changes, so that the cache shows it too.
void set_controller_epoch(self_ptr self, int32_t epoch) {
  if (epoch != self->state.controller_epoch)
    self->state.broker_epochs.reset();
  self->state.controller_epoch = epoch;
  self->state.ctx.views->set_acting_controller_epoch(epoch);
  if (epoch == 0) { // with not_controller: they ask the next one
    answer_leaving(self);
    abandon_asked_elections(self);
    abandon_asked_reassignments(self);
  }
}

void load(self_ptr self) {
  auto& st = self->state;
  if (st.session_over || st.retry_armed) // an armed retry loads when it is due
    return;
  if (st.loading) {
    st.reload_wanted = true;
    return;
  }
  st.loading = true;
  auto me = caf::actor_cast<caf::actor>(self);
  st.loader->load(*st.ctx.coordinator, [me](result<cluster::loaded_view> r) {
    caf::anon_send(me, view_loaded{std::move(r)});
  });
}

namespace {

void elect(self_ptr self) {
  auto& st = self->state;
  if (st.electing || st.session_over)
    return;
  st.electing = true;
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::elect_controller(*st.ctx.coordinator, st.ctx.broker_id, [me](result<cluster::registration_result> r) {
    caf::anon_send(me, election_done{std::move(r)});
  });
}

// The view names this broker as controller: it is, if /controller belongs to this session.
void check_ownership(self_ptr self) {
  auto& st = self->state;
  if (st.checking_ownership)
    return;
  st.checking_ownership = true;
  auto me = caf::actor_cast<caf::actor>(self);
  st.ctx.coordinator->get(cluster::controller_path(), {}, [me](result<cluster::node_data> r) {
    caf::anon_send(me, ownership_checked{std::move(r)});
  });
}

void on_view(self_ptr self, cluster::loaded_view&& loaded) {
  auto& st = self->state;
  for (auto& path : loaded.malformed)
    log_line(log_level::warn, log_component::cluster, "coordinator: skipped malformed znode %s", path.c_str());
  st.pushed.overlay(loaded.view);
  st.view = loaded.view;
  st.ctx.views->publish(std::move(loaded));
  caf::anon_send(st.ctx.node, caf::update_atom_v);
  auto& controller = st.view.controller();
  if (!controller) {
    set_controller_epoch(self, 0);
    elect(self);
    return;
  }
  if (controller->broker_id != st.ctx.broker_id) {
    if (st.controller_epoch != 0)
      log_line(log_level::info, log_component::cluster, "broker %d: no longer the controller (broker %d is, epoch %d)", st.ctx.broker_id, controller->broker_id,
               controller->epoch);
    set_controller_epoch(self, 0);
    return;
  }
  if (st.controller_epoch != controller->epoch) {
    set_controller_epoch(self, 0);
    check_ownership(self);
    return;
  }
  act_as_controller(self);
}

// A coordinator error: retry later, unless the session is over.
void on_failure(self_ptr self, const char* what, std::error_code ec) {
  auto& st = self->state;
  if (cluster::needs_new_session(ec)) {
    if (!st.session_over)
      log_line(log_level::info, log_component::cluster, "broker %d: coordinator session ended (%s): no more cluster updates", st.ctx.broker_id,
               ec.message().c_str());
    st.session_over = true;
    set_controller_epoch(self, 0);
    return;
  }
  if (st.retry_armed)
    return; // one retry covers every failure until it is due
  auto delay = cluster::backoff_delay(retry_backoff, st.failures_in_a_row++);
  log_line(log_level::warn, log_component::cluster, "broker %d: %s failed: %s; retrying in %lld ms", st.ctx.broker_id, what, ec.message().c_str(),
           static_cast<long long>(delay.count()));
  st.retry_armed = true;
  st.reload_wanted = false; // the retry loads
  self->delayed_send(self, delay, retry_atom::value);
}

// (Re-)creates /brokers/ids/<id> with this broker's data in the current session.
void register_again(self_ptr self) {
  auto& st = self->state;
  auto& cfg = st.ctx.config;
  if (cfg.listeners.empty())
    return;
  auto& l = cfg.listeners.front();
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::register_broker(*st.ctx.coordinator,
                           cluster::broker_registration{cfg.broker_id, l.host, l.port, cfg.caf_port, cfg.broker_rack},
                           [me](result<cluster::registration_result> r) {
                             caf::anon_send(me, registered_again{std::move(r)});
                           });
}

// The session expired: its ephemerals, /controller among them, are gone.
void on_session_lost(self_ptr self) {
  auto& st = self->state;
  if (st.controller_epoch != 0)
    log_line(log_level::warn, log_component::cluster, "broker %d: coordinator session expired; no longer acting as controller (epoch %d)",
             st.ctx.broker_id, st.controller_epoch);
  else
    log_line(log_level::warn, log_component::cluster, "broker %d: coordinator session expired", st.ctx.broker_id);
  set_controller_epoch(self, 0);
}

// A new session is connected: register again, forget the old role, reload (re-arms the
// watches, and elects if /controller is gone).
void on_session_renewed(self_ptr self, int64_t session) {
  auto& st = self->state;
  log_line(log_level::info, log_component::cluster, "broker %d: new coordinator session 0x%llx; registering again", st.ctx.broker_id,
           static_cast<unsigned long long>(session));
  set_controller_epoch(self, 0);
  st.session_over = false;
  st.electing = false; // an election of the old session may still answer: harmless
  st.checking_ownership = false;
  st.retry_armed = false; // a new session loads at once; a stale retry only loads again
  st.failures_in_a_row = 0;
  register_again(self);
  load(self);
}

caf::behavior cluster_member(self_ptr self, cluster_member_context ctx) {
  self->state.ctx = std::move(ctx);
  auto me = caf::actor_cast<caf::actor>(self);
  self->set_down_handler([=](caf::down_msg& dm) { forget_link(self, dm); });
  // Watches fire on coordinator threads: they only send a message.
  self->state.loader = std::make_unique<cluster::cluster_loader>(
    [me](const cluster::watch_event&) { caf::anon_send(me, reload_atom::value); });
  load(self);
  if (self->state.ctx.config.auto_leader_rebalance_enable)
    self->delayed_send(self, std::chrono::seconds(self->state.ctx.config.leader_imbalance_check_interval_seconds),
                       rebalance_atom_v);
  return {
    [=](reload_atom) { load(self); },
    [=](rebalance_atom) { check_leader_imbalance(self); },
    [=](retry_atom) {
      self->state.retry_armed = false;
      load(self);
    },
    [=](view_loaded& loaded) {
      auto& st = self->state;
      st.loading = false;
      if (loaded.view) {
        st.failures_in_a_row = 0;
        on_view(self, std::move(*loaded.view));
      } else
        on_failure(self, "loading the cluster view", loaded.view.error());
      if (st.reload_wanted) {
        st.reload_wanted = false;
        load(self);
      }
    },
    [=](election_done& e) {
      auto& st = self->state;
      st.electing = false;
      if (!e.outcome) {
        on_failure(self, "the controller election", e.outcome.error());
        return;
      }
      load(self); // /controller changed: the watch fires too, and loads coalesce
    },
    [=](ownership_checked& c) {
      auto& st = self->state;
      st.checking_ownership = false;
      if (!c.node) {
        if (c.node.error() != cluster::errc::no_node)
          on_failure(self, "reading /controller", c.node.error());
        return; // gone again: its watch reloads and elects
      }
      auto& controller = st.view.controller();
      if (c.node->stat.ephemeral_owner != st.ctx.coordinator->session() || !controller
          || controller->broker_id != st.ctx.broker_id)
        return; // an older session of this broker holds it: wait until it goes
      set_controller_epoch(self, controller->epoch);
      log_line(log_level::info, log_component::cluster, "broker %d is the controller (epoch %d)", st.ctx.broker_id, st.controller_epoch);
      act_as_controller(self);
    },
    [=](states_written& w) {
      self->state.writing = false;
      finish_asked_election(self, w.st);
      finish_asked_reassignment(self, w.st);
      if (w.st) {
        self->state.broker_epochs.acted(self->state.deciding);
        push_decided_states(self);
      }
      if (!w.st)
        log_line(log_level::info, log_component::cluster, "controller %d: writing partition states: %s; reloading", self->state.ctx.broker_id,
                 w.st.error().message().c_str());
      load(self);
    },
    [](run_here& r) { r.fn(); },
    [=](leader_and_isr_atom, leader_and_isr& m) { take_pushed_states(self, m); },
    [=](session_lost_atom) { on_session_lost(self); },
    [=](session_renewed_atom, int64_t session) { on_session_renewed(self, session); },
    [=](register_atom) { register_again(self); },
    [=](registered_again& r) {
      auto& st = self->state;
      if (r.outcome) {
        log_line(log_level::info, log_component::cluster, "broker %d registered again (controller: broker %d)", st.ctx.broker_id, r.outcome->controller_id);
        load(self);
        return;
      }
      auto ec = r.outcome.error();
      if (cluster::is_retriable(ec)) {
        self->delayed_send(self, cluster::backoff_delay(retry_backoff, 0), register_atom::value);
        return;
      }
      // node_exists: a create whose answer was lost made it already (or another live broker
      // has this id, as at startup); anything else is logged and left to the next renewal.
      log_line(log_level::info, log_component::cluster, "broker %d: registering again: %s", st.ctx.broker_id, ec.message().c_str());
    },
    [=](create_topic_atom, topic_spec& spec, bool may_forward) {
      return create_topic(self, std::move(spec), may_forward);
    },
    [=](delete_topic_atom, const std::string& name, bool may_forward) {
      return delete_topic(self, name, may_forward);
    },
    [=](add_partitions_atom, partition_addition_request& req, bool may_forward) {
      return add_partitions(self, std::move(req), may_forward);
    },
    [=](reassign_atom, std::vector<partition_move>& moves, bool may_forward) {
      return reassign(self, std::move(moves), may_forward);
    },
    [=](ensure_offsets_topic_atom) { ensure_offsets_topic(self); },
    [=](ensure_txn_topic_atom) { ensure_txn_topic(self); },
    [=](txn_marker_atom, int32_t broker, topic_partition& tp, txn_marker_request& req) {
      return relay_txn_marker(self, broker, std::move(tp), req);
    },
    [=](controlled_shutdown_atom) { return shut_down_controlled(self); },
    [=](elect_leaders_atom, leader_election_request& req, bool may_forward) {
      return elect_leaders(self, std::move(req), may_forward);
    },
    [=](controlled_shutdown_atom, int32_t id, int64_t broker_epoch) {
      return take_shutdown_request(self, id, broker_epoch);
    },
  };
}

} // namespace
} // namespace cafka::member

namespace cafka {

caf::actor spawn_cluster_member(caf::actor_system& sys, cluster_member_context ctx) {
  return sys.spawn(member::cluster_member, std::move(ctx));
}

} // namespace cafka
