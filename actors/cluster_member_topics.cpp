// Topic creates and deletes of the cluster member (actors/cluster_member.hpp): forwarded
// to the controller, or written here when it cannot be reached.
#include "actors/cluster_member_state.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "cluster/cluster_writes.hpp"
#include "cluster/errc.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/txn_metadata.hpp"
#include "cluster/partition_addition.hpp"
#include "cluster/offsets_replication.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/znode_paths.hpp"
#include "config/to_log_config.hpp"
#include "config/topic_config.hpp"

namespace cafka::member {

namespace {

// A request forwarded to the controller (after the connection: cluster_member_links.cpp).
constexpr auto forward_timeout = std::chrono::seconds(15);

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

// The controller to forward to, if this broker is not it and can reach it.
std::optional<int32_t> forward_target(self_ptr self, bool may_forward) {
  auto& st = self->state;
  auto& controller = st.view.controller();
  if (!may_forward || !controller || controller->broker_id == st.ctx.broker_id || !self->system().has_middleman())
    return std::nullopt;
  return controller->broker_id;
}

// Answers `rp` for a topic request: at the controller's node actor if this broker may
// forward it and is not the controller, else (or if it cannot be delivered there) by
// `direct` on this broker.
template <class Reply, class... Msg>
caf::typed_response_promise<Reply> at_controller_or_here(self_ptr self, bool may_forward,
                                                         caf::typed_response_promise<Reply> rp,
                                                         std::function<void()> direct, Msg... msg) {
  auto target = forward_target(self, may_forward);
  if (!target) {
    direct();
    return rp;
  }
  auto controller = *target;
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
                log_line(log_level::warn, log_component::cluster, "broker %d: forwarding to controller %d failed (%s); writing it here",
                         self->state.ctx.broker_id, controller, describe(err).c_str());
                direct();
              });
    },
    direct);
  return rp;
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
                                   log_line(log_level::info, log_component::cluster, "created topic %s with %d partition(s)", spec.name.c_str(),
                                            spec.partitions);
                                   rp.deliver(std::move(out));
                                 } else {
                                   rp.deliver(topic_error(s.error(), spec, live));
                                 }
                               }});
                             });
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

// plan_partition_addition over this broker's view and publish_partition_addition; answers
// `rp` with the new partition count.
// Plans from a view that may not show the last change of the assignment yet (a write just
// made, its reload under way): a lost conditional write is planned again after a moment.
constexpr int addition_attempts = 20;
constexpr auto addition_retry_delay = std::chrono::milliseconds(100);

void write_partition_addition(self_ptr self, caf::typed_response_promise<int32_t> rp,
                              const partition_addition_request& req, int attempt = 1) {
  auto& st = self->state;
  auto epoch = st.view.controller() ? st.view.controller()->epoch : 0;
  auto plan = cluster::plan_partition_addition(st.view, req.topic, req.count, req.assignments, epoch);
  if (auto* refusal = std::get_if<cluster::addition_refusal>(&plan)) {
    rp.deliver(caf::make_error(refusal->error, refusal->message));
    return;
  }
  if (req.validate_only) {
    rp.deliver(req.count);
    return;
  }
  auto& addition = std::get<cluster::partition_addition>(plan);
  auto version = st.view.topic(req.topic)->assignment_version;
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::publish_partition_addition(
    *st.ctx.coordinator, req.topic, addition, version, [self, me, rp, req, attempt](status s) mutable {
      caf::anon_send(me, run_here{[self, rp, req, attempt, s]() mutable {
        using cluster::errc;
        if (s) {
          log_line(log_level::info, log_component::cluster, "topic %s now has %d partition(s)", req.topic.c_str(), req.count);
          rp.deliver(req.count);
        } else if (auto unavailable = coordinator_unavailable(s.error())) {
          rp.deliver(std::move(*unavailable));
        } else if (s.error() == errc::bad_version && attempt < addition_attempts) {
          self->delayed_send(self, addition_retry_delay,
                             run_here{[self, rp, req, attempt] { write_partition_addition(self, rp, req, attempt + 1); }});
        } else if (s.error() == errc::bad_version) { // changed again and again meanwhile
          rp.deliver(caf::make_error(kafka_error::request_timed_out,
                                     "the assignment of '" + req.topic + "' changed meanwhile; retry"));
        } else if (s.error() == errc::no_node) {
          rp.deliver(caf::make_error(kafka_error::unknown_topic_or_partition, "topic '" + req.topic + "' was deleted"));
        } else {
          rp.deliver(caf::make_error(kafka_error::unknown_server_error, "coordinator: " + s.error().message()));
        }
      }});
    });
}

} // namespace

caf::result<int32_t> add_partitions(self_ptr self, partition_addition_request req, bool may_forward) {
  auto rp = self->make_response_promise<int32_t>();
  return at_controller_or_here(self, may_forward, rp, [self, rp, req] { write_partition_addition(self, rp, req); },
                               add_partitions_atom_v, req);
}

caf::result<topic_description> create_topic(self_ptr self, topic_spec spec, bool may_forward) {
  auto& st = self->state;
  auto& cfg = st.ctx.config;
  if (auto why = config::invalid_topic_name(spec.name))
    return caf::make_error(kafka_error::invalid_topic_exception, *why);
  if (cluster::is_internal_topic(spec.name)) // created by ensure_internal_topic only
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
  return at_controller_or_here(self, may_forward, rp, [self, rp, spec] { write_new_topic(self, rp, spec); },
                               create_topic_atom_v, spec);
}

caf::result<std::string> delete_topic(self_ptr self, const std::string& name, bool may_forward) {
  auto rp = self->make_response_promise<std::string>();
  return at_controller_or_here(self, may_forward, rp, [self, rp, name] { write_topic_deletion(self, rp, name); },
                               delete_topic_atom_v, name);
}

namespace {

// Creates an internal topic over the live brokers of this view, once (see the header):
// `configured` replicas (fewer when fewer brokers are live), `configs(replicas)`;
// `creating` is the member's flag for a create under way.
void ensure_internal_topic(self_ptr self, std::string name, int32_t partitions, int32_t configured, const char* key,
                           std::function<std::map<std::string, std::string>(int32_t replicas)> configs,
                           bool member_state::*creating) {
  auto& st = self->state;
  if (st.*creating || st.session_over || st.view.topic(name) != nullptr || st.view.broker_ids().empty())
    return;
  auto epoch = st.view.controller() ? st.view.controller()->epoch : 0;
  auto rf = cluster::replicas_for_offsets_topic(configured, st.view.broker_ids().size());
  if (rf.capped) // as Kafka on a cluster still too small for it
    log_line(log_level::warn, log_component::cluster, "broker %d: warning: %s", st.ctx.broker_id,
             cluster::capped_replicas_warning(configured, rf, name, key).c_str());
  auto placed = cluster::place_new_topic(st.view, name, partitions, rf.count, epoch);
  if (!placed) {
    log_line(log_level::info, log_component::cluster, "broker %d: placing %s: %s", st.ctx.broker_id, name.c_str(), placed.error().message().c_str());
    return;
  }
  st.*creating = true;
  auto me = caf::actor_cast<caf::actor>(self);
  cluster::publish_new_topic(*st.ctx.coordinator, name, *placed, cluster::topic_config{configs(rf.count)},
                             [me, self, name, partitions, creating](status s) {
                               caf::anon_send(me, run_here{[self, name, partitions, creating, s] {
                                 self->state.*creating = false;
                                 if (s)
                                   log_line(log_level::info, log_component::cluster, "created %s with %d partition(s)", name.c_str(), partitions);
                                 else if (s.error() != cluster::errc::node_exists)
                                   log_line(log_level::info, log_component::cluster, "creating %s: %s", name.c_str(), s.error().message().c_str());
                               }});
                             });
}

} // namespace

void ensure_offsets_topic(self_ptr self) {
  auto& cfg = self->state.ctx.config;
  ensure_internal_topic(
    self, std::string{cluster::offsets_topic_name}, cfg.offsets_topic_num_partitions,
    cfg.offsets_topic_replication_factor, "offsets.topic.replication.factor",
    [](int32_t) { return std::map<std::string, std::string>{{"cleanup.policy", "compact"}}; },
    &member_state::creating_offsets_topic);
}

void ensure_txn_topic(self_ptr self) {
  auto& cfg = self->state.ctx.config;
  ensure_internal_topic(
    self, std::string{cluster::transaction_state_topic}, cfg.transaction_state_log_num_partitions,
    cfg.transaction_state_log_replication_factor, "transaction.state.log.replication.factor",
    [&cfg](int32_t replicas) {
      return cluster::txn_topic_configs(replicas, cfg.transaction_state_log_min_isr,
                                        cfg.transaction_state_log_segment_bytes);
    },
    &member_state::creating_txn_topic);
}
} // namespace cafka::member
