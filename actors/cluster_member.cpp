#include "actors/cluster_member.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <caf/all.hpp>
#include <caf/io/middleman.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "cluster/backoff.hpp"
#include "cluster/broker_epochs.hpp"
#include "cluster/cluster_loader.hpp"
#include "cluster/cluster_writes.hpp"
#include "cluster/controller_decisions.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/errc.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/pushed_states.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/offsets_replication.hpp"
#include "cluster/znode_paths.hpp"
#include "config/to_log_config.hpp"
#include "config/topic_config.hpp"

namespace cafka {
namespace {

// Results of coordinator calls, sent by their callbacks to the member (local only).
struct view_loaded {
  result<cluster::loaded_view> view;
};
struct election_done {
  result<cluster::registration_result> outcome;
};
struct ownership_checked { // /controller as read after a view named this broker
  result<cluster::node_data> node;
};
struct states_written {
  status st;
};
struct registered_again { // re-registration in a renewed session
  result<cluster::registration_result> outcome;
};
// Work to finish on the actor's own thread (delivering a response promise).
struct run_here {
  std::function<void()> fn;
};

} // namespace
} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::view_loaded)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::election_done)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::ownership_checked)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::states_written)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::registered_again)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::run_here)

namespace cafka {
namespace {

using reload_atom = caf::atom_constant<caf::atom("cmreload")>;
using register_atom = caf::atom_constant<caf::atom("cmregister")>;

// After a failed load (connection loss, a node missing during registration).
constexpr auto retry_delay = std::chrono::milliseconds(200);
// Forwarding to the controller: one connection attempt, then the request itself.
constexpr auto connect_timeout = std::chrono::seconds(5);
constexpr auto forward_timeout = std::chrono::seconds(15);
// Failed connections to one broker: no new attempt for 100 ms, doubling up to 5 s, until one
// succeeds (cluster/backoff.hpp); meanwhile requests for that broker are handled here.
constexpr cluster::backoff_policy reconnect_policy{std::chrono::milliseconds(100), std::chrono::seconds(5)};

struct member_state {
  static inline const char* name = "cafka.cluster_member";
  cluster_member_context ctx;
  std::unique_ptr<cluster::cluster_loader> loader;
  cluster::cluster_view view;
  bool loading = false;
  bool reload_wanted = false; ///< a watch fired while a load was running
  bool session_over = false;  ///< closed or expired: nothing more to do
  bool electing = false;
  bool checking_ownership = false;
  bool writing = false;
  bool creating_offsets_topic = false; ///< a create of __consumer_offsets is under way
  /// The epoch this broker controls the cluster at; 0: not the controller.
  int32_t controller_epoch = 0;
  /// As controller: the broker epochs acted on, and those of the decision being written.
  cluster::broker_epochs broker_epochs;
  std::vector<cluster::broker_registration> deciding;
  std::vector<cluster::partition_state_write> decided; ///< the states being written
  /// States the controller pushed, ahead of the loads (cluster/pushed_states.hpp).
  cluster::pushed_states pushed;
  /// Node actors of other brokers (proxies over CAF's middleman), by broker id.
  std::map<int32_t, node_actor> links;
  /// Per broker id: when a new connection may be tried after failed ones.
  std::map<int32_t, cluster::reconnect_backoff> link_backoff;
  /// Per broker id: the proxy of its last lost connection, which the middleman may hand
  /// back from its cache (caf-0.17-notes.md section 4); getting it again counts as a failure.
  std::map<int32_t, caf::actor_addr> lost_links;
};

using self_ptr = caf::stateful_actor<member_state>*;

// The one place the controller role changes, so that the cache shows it too.
void set_controller_epoch(self_ptr self, int32_t epoch) {
  if (epoch != self->state.controller_epoch)
    self->state.broker_epochs.reset();
  self->state.controller_epoch = epoch;
  self->state.ctx.views->set_acting_controller_epoch(epoch);
}

void load(self_ptr self) {
  auto& st = self->state;
  if (st.session_over)
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
    log_line("controller %d: broker %d registered again (a new session): handled as failed, then started",
             st.ctx.broker_id, id);
    live.erase(std::remove(live.begin(), live.end(), id), live.end());
  }
  auto writes = cluster::on_brokers_changed(st.view, live, st.controller_epoch,
                                            st.ctx.config.unclean_leader_election_enable);
  if (writes.empty()) {
    st.broker_epochs.acted(brokers);
    if (!bounced.empty())
      act_as_controller(self); // nothing to move: start them at once
    return;
  }
  st.deciding = std::move(brokers);
  st.decided = writes;
  for (auto& w : writes)
    if (w.unclean)
      log_line("controller %d: unclean leader election: %s-%d led by broker %d, outside the ISR; records that only "
               "the old ISR had are lost",
               st.ctx.broker_id, w.topic.c_str(), w.partition, w.state.leader);
  st.writing = true;
  log_line("controller %d (epoch %d): writing %zu partition state(s)", st.ctx.broker_id, st.controller_epoch,
           writes.size());
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::write_partition_states(*st.ctx.coordinator, writes,
                                  [me](status s) { caf::anon_send(me, states_written{s}); });
}

void on_view(self_ptr self, cluster::loaded_view&& loaded) {
  auto& st = self->state;
  for (auto& path : loaded.malformed)
    log_line("coordinator: skipped malformed znode %s", path.c_str());
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
      log_line("broker %d: no longer the controller (broker %d is, epoch %d)", st.ctx.broker_id, controller->broker_id,
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

// Partition states the controller wrote (a push from it, or this broker's own as controller):
// applied to the view where they are newer, and published at once.
void take_pushed_states(self_ptr self, const leader_and_isr& m) {
  auto& st = self->state;
  std::vector<cluster::pushed_state> states;
  for (auto& s : m.states)
    states.push_back({s.topic, s.partition, cluster::partition_state{s.leader, s.leader_epoch, s.controller_epoch, s.isr},
                      s.version});
  auto applied = st.pushed.push(st.view, states);
  if (applied == 0)
    return;
  if (m.controller_id != st.ctx.broker_id)
    log_line("broker %d: %zu partition state(s) from controller %d (epoch %d) applied ahead of the reload",
             st.ctx.broker_id, applied, m.controller_id, m.controller_epoch);
  st.ctx.views->publish(cluster::loaded_view{st.view, {}});
  caf::anon_send(st.ctx.node, caf::update_atom_v);
}

void with_link(self_ptr self, int32_t id, std::function<void(node_actor)> use, std::function<void()> fail);

// As controller, after a successful write: every live broker gets the states (one that is
// not reached reads them from the znodes).
void push_decided_states(self_ptr self) {
  auto& st = self->state;
  leader_and_isr m{st.ctx.broker_id, st.controller_epoch, {}};
  for (auto& w : st.decided)
    m.states.push_back({w.topic, w.partition, w.state.leader, w.state.leader_epoch, w.state.controller_epoch,
                        w.state.isr, w.expected_version + 1}); // a create (no_state_version) gives 0
  st.decided.clear();
  take_pushed_states(self, m);
  for (auto id : st.view.broker_ids())
    if (id != st.ctx.broker_id)
      with_link(self, id, [m](node_actor node) { caf::anon_send(node, leader_and_isr_atom_v, m); }, [] {});
}

// A coordinator error that says "not now" rather than "no": the connection is lost (the
// outcome is unknown), the session expired (a new one is being opened), the call timed out.
// Kafka answers REQUEST_TIMED_OUT when its ZooKeeper writes do not complete in time, and
// that is what it is here too; librdkafka and kafka-python treat it as retriable. (Not
// NOT_CONTROLLER: the controller has not changed, and clients would only re-read metadata.)
std::optional<caf::error> coordinator_unavailable(std::error_code ec) {
  if (ec == cluster::errc::connection_loss || ec == cluster::errc::session_expired)
    return caf::make_error(kafka_error::request_timed_out,
                           "coordinator unavailable (" + ec.message() + "); retry later");
  return std::nullopt;
}

caf::error topic_error(std::error_code ec, const topic_spec& spec, size_t live) {
  using cluster::errc;
  if (auto unavailable = coordinator_unavailable(ec))
    return std::move(*unavailable);
  if (ec == errc::node_exists)
    return caf::make_error(kafka_error::topic_already_exists, "topic '" + spec.name + "' already exists");
  if (ec == errc::invalid_partitions)
    return caf::make_error(kafka_error::invalid_partitions, "partitions must be at least 1");
  if (ec == errc::invalid_replication_factor)
    return caf::make_error(kafka_error::invalid_replication_factor,
                           "replication factor " + std::to_string(spec.replication_factor)
                             + (spec.replication_factor < 1 ? " is below 1"
                                                            : " is larger than the " + std::to_string(live)
                                                                + " live broker(s)"));
  if (ec == errc::inconsistent_racks)
    return caf::make_error(kafka_error::invalid_replica_assignment, ec.message());
  if (ec == errc::invalid_replica_assignment)
    return caf::make_error(kafka_error::invalid_replica_assignment,
                           "replica assignments must list live brokers, each once, equally many per partition");
  return caf::make_error(kafka_error::unknown_server_error, "coordinator: " + ec.message());
}

// A forwarded request failed in transit (connection, timeout), not at the controller.
bool lost_in_transit(const caf::error& err) { return err.category() != caf::atom("cafka"); }

// Calls `use` with the node actor of broker `id` (a cached proxy, or one from a new
// connection to the caf.port of its registration), or `fail` if none can be had.
void with_link(self_ptr self, int32_t id, std::function<void(node_actor)> use, std::function<void()> fail) {
  auto& st = self->state;
  if (auto it = st.links.find(id); it != st.links.end()) {
    use(it->second);
    return;
  }
  auto* reg = st.view.broker(id);
  if (reg == nullptr || reg->caf_port == 0 || !self->system().has_middleman()) {
    fail();
    return;
  }
  auto backoff = st.link_backoff.try_emplace(id, reconnect_policy).first;
  if (!backoff->second.may_try(self->clock().now())) {
    fail(); // failed recently: no new attempt before its back-off has passed
    return;
  }
  auto failed = [=](const std::string& why) {
    auto& backoff = self->state.link_backoff.try_emplace(id, reconnect_policy).first->second;
    auto now = self->clock().now();
    backoff.failed(now);
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(backoff.not_before() - now);
    log_line("broker %d: cannot connect to broker %d (%s); no new attempt for %lld ms", self->state.ctx.broker_id, id,
             why.c_str(), static_cast<long long>(wait.count()));
    fail();
  };
  auto mm = self->system().middleman().actor_handle();
  self->request(mm, connect_timeout, caf::connect_atom_v, reg->host, reg->caf_port)
    .then(
      [=](const caf::node_id&, caf::strong_actor_ptr& ptr, const std::set<std::string>& ifs) {
        auto& st = self->state;
        if (!ptr || !self->system().assignable<node_actor>(ifs)) {
          failed("no cafka node at its caf.port");
          return;
        }
        if (auto lost = st.lost_links.find(id);
            lost != st.lost_links.end() && lost->second == caf::actor_cast<caf::actor_addr>(ptr)) {
          failed("the middleman's cached proxy of the lost connection");
          return;
        }
        auto node = caf::actor_cast<node_actor>(std::move(ptr));
        self->monitor(node); // a lost connection drops the cached proxy
        st.links[id] = node;
        st.link_backoff.erase(id);
        use(node);
      },
      [=](caf::error& err) { failed(describe(err)); });
}

// Sends a topic request to the controller's node actor; if it cannot be delivered there,
// `direct` handles it on this broker instead.
template <class Reply, class... Msg>
void forward_to_controller(self_ptr self, int32_t controller, caf::typed_response_promise<Reply> rp,
                           std::function<void()> direct, Msg... msg) {
  with_link(
    self, controller,
    [=](node_actor node) {
      self->request(node, forward_timeout, msg..., forwarded_atom_v)
        .then([rp](Reply& r) mutable { rp.deliver(std::move(r)); },
              [=](caf::error& err) mutable {
                if (!lost_in_transit(err)) {
                  rp.deliver(std::move(err));
                  return;
                }
                self->state.links.erase(controller); // maybe a stale proxy: connect anew next time
                log_line("broker %d: forwarding to controller %d failed (%s); writing it here",
                         self->state.ctx.broker_id, controller, describe(err).c_str());
                direct();
              });
    },
    direct);
}

// The controller to forward to, if this broker is not it and can reach it.
std::optional<int32_t> forward_target(self_ptr self, bool may_forward) {
  auto& st = self->state;
  auto& controller = st.view.controller();
  if (!may_forward || !controller || controller->broker_id == st.ctx.broker_id || !self->system().has_middleman())
    return std::nullopt;
  return controller->broker_id;
}

// place_new_topic over this broker's view and publish_new_topic; answers `rp`.
void write_new_topic(self_ptr self, caf::typed_response_promise<topic_description> rp, const topic_spec& spec) {
  auto& st = self->state;
  auto epoch = st.view.controller() ? st.view.controller()->epoch : 0;
  auto live = st.view.broker_ids().size();
  auto placed = spec.assignments.empty()
                  ? cluster::place_new_topic(st.view, spec.name, spec.partitions, spec.replication_factor, epoch)
                  : cluster::assign_new_topic(st.view, spec.name, spec.assignments, epoch);
  if (!placed) {
    rp.deliver(topic_error(placed.error(), spec, live));
    return;
  }
  topic_description out{spec.name, spec.replication_factor, spec.configs, {}};
  for (int32_t p = 0; p < spec.partitions; ++p)
    out.partitions.push_back(partition_status{topic_partition{spec.name, p}, 0, 0, 0, 0, 0, 0});
  // The callback may run on a coordinator thread: it only hands the outcome to the actor.
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::publish_new_topic(*st.ctx.coordinator, spec.name, *placed, cluster::topic_config{spec.configs},
                             [me, rp, out, spec, live](status s) mutable {
                               caf::anon_send(me, run_here{[rp, out, spec, live, s]() mutable {
                                 if (s) {
                                   log_line("created topic %s with %d partition(s)", spec.name.c_str(),
                                            spec.partitions);
                                   rp.deliver(std::move(out));
                                 } else {
                                   rp.deliver(topic_error(s.error(), spec, live));
                                 }
                               }});
                             });
}

caf::result<topic_description> create_topic(self_ptr self, topic_spec spec, bool may_forward) {
  auto& st = self->state;
  auto& cfg = st.ctx.config;
  if (auto why = config::invalid_topic_name(spec.name))
    return caf::make_error(kafka_error::invalid_topic_exception, *why);
  if (spec.name == cluster::offsets_topic_name) // created by ensure_offsets_topic only
    return caf::make_error(kafka_error::topic_already_exists, "'" + spec.name + "' is an internal topic");
  if (!spec.assignments.empty()) { // a manual assignment gives both
    spec.partitions = static_cast<int32_t>(spec.assignments.size());
    spec.replication_factor = static_cast<int16_t>(spec.assignments.front().size());
  }
  if (spec.partitions == -1)
    spec.partitions = cfg.num_partitions;
  if (spec.replication_factor == -1)
    spec.replication_factor = static_cast<int16_t>(cfg.default_replication_factor);
  auto applied = config::apply_topic_configs(config::to_log_config(cfg), spec.configs);
  if (!applied)
    return caf::make_error(kafka_error::invalid_config, applied.error().message);
  auto rp = self->make_response_promise<topic_description>();
  auto direct = [self, rp, spec] { write_new_topic(self, rp, spec); };
  if (auto controller = forward_target(self, may_forward))
    forward_to_controller(self, *controller, rp, direct, create_topic_atom_v, spec);
  else
    direct();
  return rp;
}

// unpublish_topic of a topic this broker's view has; answers `rp`.
void write_topic_deletion(self_ptr self, caf::typed_response_promise<std::string> rp, const std::string& name) {
  auto& st = self->state;
  auto* topic = st.view.topic(name);
  if (topic == nullptr) {
    rp.deliver(caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'"));
    return;
  }
  auto partitions = static_cast<int32_t>(topic->assignment.partitions.size());
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::unpublish_topic(*st.ctx.coordinator, name, partitions, [me, rp, name](status s) mutable {
    caf::anon_send(me, run_here{[rp, name, s]() mutable {
      if (s)
        rp.deliver(name);
      else if (auto unavailable = coordinator_unavailable(s.error()))
        rp.deliver(std::move(*unavailable));
      else
        rp.deliver(caf::make_error(kafka_error::unknown_server_error, "coordinator: " + s.error().message()));
    }});
  });
}

caf::result<std::string> delete_topic(self_ptr self, const std::string& name, bool may_forward) {
  auto rp = self->make_response_promise<std::string>();
  auto direct = [self, rp, name] { write_topic_deletion(self, rp, name); };
  if (auto controller = forward_target(self, may_forward))
    forward_to_controller(self, *controller, rp, direct, delete_topic_atom_v, name);
  else
    direct();
  return rp;
}

// Creates __consumer_offsets over the live brokers of this view, once (see the header).
void ensure_offsets_topic(self_ptr self) {
  auto& st = self->state;
  std::string name{cluster::offsets_topic_name};
  if (st.creating_offsets_topic || st.session_over || st.view.topic(name) != nullptr || st.view.broker_ids().empty())
    return;
  auto partitions = st.ctx.config.offsets_topic_num_partitions;
  auto epoch = st.view.controller() ? st.view.controller()->epoch : 0;
  auto configured = st.ctx.config.offsets_topic_replication_factor;
  auto rf = cluster::replicas_for_offsets_topic(configured, st.view.broker_ids().size());
  if (rf.capped) // as Kafka on a cluster still too small for it
    log_line("broker %d: warning: %s", st.ctx.broker_id, cluster::capped_replicas_warning(configured, rf).c_str());
  auto placed = cluster::place_new_topic(st.view, name, partitions, rf.count, epoch);
  if (!placed) {
    log_line("broker %d: placing %s: %s", st.ctx.broker_id, name.c_str(), placed.error().message().c_str());
    return;
  }
  st.creating_offsets_topic = true;
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::publish_new_topic(*st.ctx.coordinator, name, *placed, cluster::topic_config{{{"cleanup.policy", "compact"}}},
                             [me, self, name, partitions](status s) {
                               caf::anon_send(me, run_here{[self, name, partitions, s] {
                                 self->state.creating_offsets_topic = false;
                                 if (s)
                                   log_line("created %s with %d partition(s)", name.c_str(), partitions);
                                 else if (s.error() != cluster::errc::node_exists)
                                   log_line("creating %s: %s", name.c_str(), s.error().message().c_str());
                               }});
                             });
}

// A coordinator error: retry later, unless the session is over.
void on_failure(self_ptr self, const char* what, std::error_code ec) {
  auto& st = self->state;
  if (cluster::needs_new_session(ec)) {
    if (!st.session_over)
      log_line("broker %d: coordinator session ended (%s): no more cluster updates", st.ctx.broker_id,
               ec.message().c_str());
    st.session_over = true;
    set_controller_epoch(self, 0);
    return;
  }
  log_line("broker %d: %s failed: %s; retrying", st.ctx.broker_id, what, ec.message().c_str());
  self->delayed_send(self, retry_delay, reload_atom::value);
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
    log_line("broker %d: coordinator session expired; no longer acting as controller (epoch %d)",
             st.ctx.broker_id, st.controller_epoch);
  else
    log_line("broker %d: coordinator session expired", st.ctx.broker_id);
  set_controller_epoch(self, 0);
}

// A new session is connected: register again, forget the old role, reload (re-arms the
// watches, and elects if /controller is gone).
void on_session_renewed(self_ptr self, int64_t session) {
  auto& st = self->state;
  log_line("broker %d: new coordinator session 0x%llx; registering again", st.ctx.broker_id,
           static_cast<unsigned long long>(session));
  set_controller_epoch(self, 0);
  st.session_over = false;
  st.electing = false; // an election of the old session may still answer: harmless
  st.checking_ownership = false;
  register_again(self);
  load(self);
}

caf::behavior cluster_member(self_ptr self, cluster_member_context ctx) {
  self->state.ctx = std::move(ctx);
  auto me = caf::actor_cast<caf::actor>(self);
  // Watches fire on coordinator threads: they only send a message.
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    for (auto it = st.links.begin(); it != st.links.end();) {
      if (it->second.address() == dm.source) {
        st.lost_links[it->first] = dm.source;
        it = st.links.erase(it);
      } else {
        ++it;
      }
    }
  });
  self->state.loader = std::make_unique<cluster::cluster_loader>(
    [me](const cluster::watch_event&) { caf::anon_send(me, reload_atom::value); });
  load(self);
  return {
    [=](reload_atom) { load(self); },
    [=](view_loaded& loaded) {
      auto& st = self->state;
      st.loading = false;
      if (loaded.view)
        on_view(self, std::move(*loaded.view));
      else
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
      log_line("broker %d is the controller (epoch %d)", st.ctx.broker_id, st.controller_epoch);
      act_as_controller(self);
    },
    [=](states_written& w) {
      self->state.writing = false;
      if (w.st) {
        self->state.broker_epochs.acted(self->state.deciding);
        push_decided_states(self);
      }
      if (!w.st)
        log_line("controller %d: writing partition states: %s; reloading", self->state.ctx.broker_id,
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
        log_line("broker %d registered again (controller: broker %d)", st.ctx.broker_id, r.outcome->controller_id);
        load(self);
        return;
      }
      auto ec = r.outcome.error();
      if (cluster::is_retriable(ec)) {
        self->delayed_send(self, retry_delay, register_atom::value);
        return;
      }
      // node_exists: a create whose answer was lost made it already (or another live broker
      // has this id, as at startup); anything else is logged and left to the next renewal.
      log_line("broker %d: registering again: %s", st.ctx.broker_id, ec.message().c_str());
    },
    [=](create_topic_atom, topic_spec& spec, bool may_forward) {
      return create_topic(self, std::move(spec), may_forward);
    },
    [=](delete_topic_atom, const std::string& name, bool may_forward) {
      return delete_topic(self, name, may_forward);
    },
    [=](ensure_offsets_topic_atom) { ensure_offsets_topic(self); },
  };
}

} // namespace

caf::actor spawn_cluster_member(caf::actor_system& sys, cluster_member_context ctx) {
  return sys.spawn(cluster_member, std::move(ctx));
}

} // namespace cafka
