#include "actors/node_actor.hpp"
#include "actors/node_actor_state.hpp"

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>

#include <caf/all.hpp>

#include "actors/cluster_member.hpp"
#include "actors/cluster_view_cache.hpp"
#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/node.hpp"
#include "actors/node_replicas.hpp"
#include "actors/node_storage.hpp"
#include "actors/replica_fetch_poll.hpp"
#include "actors/routing_table.hpp"
#include "actors/view_metadata.hpp"
#include "cluster/znode_paths.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/txn_metadata.hpp"
#include "cluster/reassignment.hpp"
#include "cluster/renewing_session.hpp"
#include "config/topic_config.hpp"
#include "config/to_log_config.hpp"
#include "storage/log_dirs_report.hpp"

namespace cafka {

namespace {

// Kafka's log.flush.offset.checkpoint.interval.ms is 60 s; the recovery points are written
// with the high watermarks, at replica.high.watermark.checkpoint.interval.ms (5 s), when
// that is shorter.
constexpr auto recovery_checkpoint_interval = std::chrono::seconds(60);

// node_state and the helpers both files share: actors/node_actor_state.hpp.


std::vector<partition_actor> partitions_of(self_ptr self, const std::string& topic) {
  std::vector<partition_actor> out;
  for (auto& [tp, actor] : self->state.partitions)
    if (tp.topic == topic)
      out.push_back(actor);
  return out;
}


} // namespace

// Writes the topic registry on the I/O worker. Once it is on disk the topics it holds are
// served (routed and described); `done` gets the write's outcome. Writes are queued in
// order on the one I/O worker, so a later snapshot never lands before an earlier one.
void write_registry(self_ptr self, std::function<void(caf::error)> done) {
  auto& ns = *self->state.ctx.storage;
  auto path = ns.registry_path();
  auto topics = ns.topics;
  self->request(self->state.ctx.io_worker, caf::infinite,
                io_job{[path, topics] { return storage::write_topic_registry(path, topics).error(); }})
    .then(
      [self, topics, done] {
        for (auto& [name, _] : topics)
          self->state.unregistered.erase(name);
        publish_routes(self);
        done({});
      },
      [done](caf::error& err) {
        log_line(log_level::warn, log_component::cluster, "writing the topic registry failed: %s", describe(err).c_str());
        done(std::move(err));
      });
}

namespace {

// Records a new topic in the coordinator: assignment (this broker holds every
// replica), partition states with this broker leading, and the topic's configs.
void publish_to_coordinator(self_ptr self, const topic_spec& spec) {
  auto& ctx = self->state.ctx;
  auto me = ctx.storage->config.broker_id;
  cluster::topic_assignment assignment;
  assignment.partitions.assign(static_cast<size_t>(spec.partitions), {me});
  cluster::partition_state state{me, 0, 0, {me}};
  auto name = spec.name;
  cluster::publish_topic(*ctx.coordinator, name, assignment, state, cluster::topic_config{spec.configs},
                         [name](status st) {
                           if (!st)
                             log_line(log_level::warn, log_component::cluster, "coordinator: publishing topic %s failed: %s", name.c_str(),
                                      st.error().message().c_str());
                         });
}

// Takes a topic out of this node: its partition actors stop, then their logs close and
// their folders go (and `extra_folders`), and `done` runs after the registry (without the
// topic) is written.
void remove_topic_locally(self_ptr self, const std::string& name, std::function<void(caf::error)> done,
                          std::vector<std::string> extra_folders = {}) {
  auto& ns = *self->state.ctx.storage;
  auto targets = partitions_of(self, name);
  self->state.deleting.insert(name);
  ns.topics.erase(name);
  self->state.unregistered.erase(name);
  for (auto it = self->state.partitions.begin(); it != self->state.partitions.end();)
    it = it->first.topic == name ? self->state.partitions.erase(it) : std::next(it);
  publish_routes(self);
  gather<int64_t>(self, targets, [=](std::vector<caf::expected<int64_t>>&) mutable {
    // Every partition actor has stopped: the logs and folders can go.
    auto& ns = *self->state.ctx.storage;
    auto folders = extra_folders;
    for (auto it = ns.partitions.begin(); it != ns.partitions.end();) {
      if (it->first.topic == name) {
        folders.push_back(ns.dirs[it->second.dir]->partition_path(it->first));
        it = ns.partitions.erase(it);
      } else {
        ++it;
      }
    }
    auto path = ns.registry_path();
    auto topics = ns.topics;
    self->request(self->state.ctx.io_worker, caf::infinite, io_job{[=] {
                    std::error_code ec;
                    for (auto& f : folders)
                      std::filesystem::remove_all(f, ec);
                    return storage::write_topic_registry(path, topics).error();
                  }})
      .then(
        [=]() {
          self->state.deleting.erase(name);
          done(caf::error{});
        },
        [=](caf::error& err) {
          self->state.deleting.erase(name);
          done(std::move(err));
        });
  }, caf::close_atom_v);
}

} // namespace

// Each partition holds up to three descriptors (log, index, time index); a topic that
// would take more than half of what the process may open is refused before any of it is
// created, so that a CreateTopics asking for millions of partitions (a fuzzer found one)
// cannot starve the broker's sockets and files.
std::optional<std::string> too_many_partitions(int32_t partitions) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return std::nullopt;
  auto budget = static_cast<int64_t>(lim.rlim_cur) / 2;
  if (int64_t{partitions} * 3 <= budget)
    return std::nullopt;
  return std::to_string(partitions) + " partitions would take more than half of this broker's "
         + std::to_string(lim.rlim_cur) + " file descriptors (RLIMIT_NOFILE); at most " + std::to_string(budget / 3);
}

std::vector<partition_actor> all_replicas(self_ptr self) {
  std::vector<partition_actor> out;
  for (auto& [_, actor] : clustered(self) ? self->state.replicas : self->state.partitions)
    out.push_back(actor);
  return out;
}

namespace {

// Validates and creates a topic: logs, partition actors, routes. The registry file is
// written by the caller.
caf::expected<topic_description> create_topic(self_ptr self, topic_spec spec, bool internal = false) {
  auto& ns = *self->state.ctx.storage;
  auto& cfg = ns.config;
  if (auto why = config::invalid_topic_name(spec.name))
    return caf::make_error(kafka_error::invalid_topic_exception, *why);
  if (ns.topics.count(spec.name) > 0)
    return caf::make_error(kafka_error::topic_already_exists, "topic '" + spec.name + "' already exists");
  if (self->state.deleting.count(spec.name) > 0)
    return caf::make_error(kafka_error::topic_already_exists, "topic '" + spec.name + "' is marked for deletion");
  if (cluster::is_internal_topic(spec.name) && !internal) // created by the broker alone
    return caf::make_error(kafka_error::topic_already_exists, "'" + spec.name + "' is an internal topic");
  for (auto& replicas : spec.assignments)
    for (auto id : replicas)
      if (id != cfg.broker_id)
        return caf::make_error(kafka_error::invalid_replica_assignment,
                               "replica assignments may name only broker " + std::to_string(cfg.broker_id));
  if (spec.partitions == -1)
    spec.partitions = cfg.num_partitions;
  if (spec.partitions < 1)
    return caf::make_error(kafka_error::invalid_partitions, "partitions must be at least 1");
  if (auto why = too_many_partitions(spec.partitions))
    return caf::make_error(kafka_error::invalid_partitions, *why);
  if (spec.replication_factor == -1)
    spec.replication_factor = static_cast<int16_t>(cfg.default_replication_factor);
  if (spec.replication_factor != 1)
    return caf::make_error(kafka_error::invalid_replication_factor,
                           "replication factor " + std::to_string(spec.replication_factor)
                             + " is larger than the 1 available broker");
  auto applied = config::apply_topic_configs(config::to_log_config(cfg), spec.configs);
  if (!applied)
    return caf::make_error(kafka_error::invalid_config, applied.error().message);
  ns.topics[spec.name] = storage::topic_entry{spec.partitions, spec.replication_factor, spec.configs};
  self->state.unregistered.insert(spec.name); // until write_registry has it on disk
  topic_description out{spec.name, spec.replication_factor, spec.configs, {}};
  auto now = self->state.ctx.now_ms();
  for (int32_t p = 0; p < spec.partitions; ++p) {
    topic_partition tp{spec.name, p};
    if (auto st = ns.open_partition_log(tp, now); !st) {
      // Nothing of a topic that could not be opened whole stays behind.
      auto name = spec.name;
      auto err = st.error();
      log_line(log_level::warn, log_component::cluster, "creating topic %s failed at partition %d: %s; removing what was created", name.c_str(), p,
               err.message().c_str());
      // The failed partition's folder may exist without a log.
      auto failed_folder = ns.dirs[ns.dir_for(tp)]->partition_path(tp);
      remove_topic_locally(
        self, name,
        [name](caf::error e) {
          if (e)
            log_line(log_level::info, log_component::cluster, "removing the partial topic %s: %s", name.c_str(), caf::to_string(e).c_str());
        },
        {failed_folder});
      return to_caf_error(err);
    }
    self->state.partitions[tp] = spawn_partition(self->system(), ns.partitions[tp].log,
                                                 context_for(self, tp, replica_role{}));
    out.partitions.push_back(partition_status{tp, 0, 0, 0, 0, 1, 0});
  }
  publish_routes(self);
  publish_to_coordinator(self, spec);
  log_line(log_level::info, log_component::cluster, "created topic %s with %d partition(s)", spec.name.c_str(), spec.partitions);
  return out;
}

topic_metadata describe_for_metadata(self_ptr self, const std::string& name) {
  auto& ns = *self->state.ctx.storage;
  topic_metadata t{name, 0, {}};
  auto it = ns.topics.find(name);
  if (it == ns.topics.end()) {
    t.error = protocol::wire_code(kafka_error::unknown_topic_or_partition);
    return t;
  }
  if (self->state.unregistered.count(name) > 0) { // as Kafka while a topic is being created
    t.error = protocol::wire_code(kafka_error::leader_not_available);
    return t;
  }
  for (int32_t p = 0; p < it->second.partitions; ++p) {
    auto actor = self->state.partitions.find(topic_partition{name, p});
    if (actor == self->state.partitions.end()) // closed (shutting down)
      t.partitions.push_back({p, protocol::wire_code(kafka_error::leader_not_available), -1, {}, {}, {}, {}});
    else
      t.partitions.push_back({p, 0, ns.config.broker_id, {ns.config.broker_id}, actor->second, {ns.config.broker_id}, {}});
  }
  return t;
}

std::chrono::milliseconds checkpoint_interval(self_ptr self) {
  auto hw = std::chrono::milliseconds(self->state.ctx.storage->config.replica_high_watermark_checkpoint_interval_ms);
  return std::min<std::chrono::milliseconds>(hw, recovery_checkpoint_interval);
}


// Writes recovery-point-offset-checkpoint and replication-offset-checkpoint of every log dir
// (on the I/O worker) from the replicas' statuses.
void write_checkpoints(self_ptr self) {
  gather<partition_status>(self, all_replicas(self), [=](std::vector<caf::expected<partition_status>>& replies) {
    auto& ns = *self->state.ctx.storage;
    std::vector<storage::offset_checkpoint> points(ns.dirs.size());
    std::vector<storage::offset_checkpoint> hws(ns.dirs.size());
    for (auto& r : replies) {
      if (!r)
        continue;
      auto it = ns.partitions.find(r->tp);
      if (it == ns.partitions.end())
        continue;
      points[it->second.dir][r->tp] = r->recovery_point;
      hws[it->second.dir][r->tp] = r->high_watermark;
    }
    for (size_t i = 0; i < ns.dirs.size(); ++i) {
      auto cp = points[i];
      auto hw = hws[i];
      auto* dir = ns.dirs[i].get();
      caf::anon_send(self->state.ctx.io_worker, io_job{[dir, cp, hw] {
                       if (auto st = dir->write_checkpoint(cp); !st)
                         return st.error();
                       return dir->write_high_watermarks(hw).error();
                     }});
    }
  }, caf::get_atom_v);
}

// DescribeLogDirs: every log dir, and the local replicas in it with their partitions'
// sizes and lags. (A single node's __consumer_offsets logs belong to its offsets store,
// not to partition actors, and are not listed.)
caf::result<wire::describe_log_dirs_response> describe_log_dirs(self_ptr self, wire::describe_log_dirs_request req) {
  auto rp = self->make_response_promise<wire::describe_log_dirs_response>();
  gather<partition_status>(self, all_replicas(self), [=](std::vector<caf::expected<partition_status>>& replies) mutable {
    auto& ns = *self->state.ctx.storage;
    std::vector<storage::log_dir_state> dirs;
    for (auto& d : ns.dirs)
      dirs.push_back({d->root(), d->health().offline()});
    std::vector<storage::replica_on_disk> replicas;
    for (auto& r : replies) {
      auto it = r ? ns.partitions.find(r->tp) : ns.partitions.end();
      if (it != ns.partitions.end())
        replicas.push_back({it->second.dir, r->tp, r->size_bytes, r->log_end_offset, r->high_watermark});
    }
    rp.deliver(storage::log_dirs_report(dirs, replicas, req));
  }, caf::get_atom_v);
  return rp;
}

} // namespace

caf::error miss(self_ptr self, const topic_partition& tp) {
  auto code = self->state.ctx.routes->miss_error(tp);
  auto name = tp.topic + "-" + std::to_string(tp.partition);
  if (code != kafka_error::not_leader_or_follower)
    return caf::make_error(code, "no partition " + name + " here");
  auto leader = clustered(self) ? recorded_leader(self, tp) : cluster::no_broker;
  return caf::make_error(code, "broker " + std::to_string(my_id(self)) + " does not lead " + name
                                 + (leader == cluster::no_broker ? " (no leader now)"
                                                                 : "; broker " + std::to_string(leader) + " does"));
}

namespace {

// Relays a request to the node's cluster member (cluster mode).
template <class Reply, class... Ts>
caf::result<Reply> ask_member(self_ptr self, Ts&&... xs) {
  auto rp = self->make_response_promise<Reply>();
  self->request(self->state.member, partition_request_timeout, std::forward<Ts>(xs)...)
    .then([rp](Reply& r) mutable { rp.deliver(std::move(r)); },
          [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
  return rp;
}

// Who hears of the expiry and renewal of the node's coordinator session (cluster mode): the
// cluster member (re-registers, resigns as controller, reloads) and every group (registers
// its members again). Runs on a coordinator thread: only anon_send, through weak handles
// (the session must not keep the actors or the registry alive).
cluster::renewing_session::listener session_listener(const caf::actor& member,
                                                     const std::shared_ptr<group_registry>& groups) {
  auto weak_member = caf::actor_cast<caf::weak_actor_ptr>(member);
  std::weak_ptr<group_registry> weak_groups = groups;
  auto tell_groups = [weak_groups] {
    if (auto registry = weak_groups.lock())
      for (auto& [_, group] : registry->list())
        caf::anon_send(group, membership_atom_v, caf::reset_atom_v);
  };
  return {
    [weak_member, tell_groups] {
      if (auto m = weak_member.lock())
        caf::anon_send(caf::actor_cast<caf::actor>(m), session_lost_atom::value);
      tell_groups();
    },
    [weak_member, tell_groups](cluster::session_id id) {
      if (auto m = weak_member.lock())
        caf::anon_send(caf::actor_cast<caf::actor>(m), session_renewed_atom::value, int64_t{id});
      tell_groups();
    },
  };
}

} // namespace

void create_txn_topic_alone(self_ptr self) {
  auto& st = self->state;
  auto& cfg = st.ctx.storage->config;
  std::string name{cluster::transaction_state_topic};
  if (st.ctx.storage->topics.count(name) > 0 || st.deleting.count(name) > 0)
    return;
  auto configs = cluster::txn_topic_configs(1, cfg.transaction_state_log_min_isr, cfg.transaction_state_log_segment_bytes);
  auto created = create_topic(self, topic_spec{name, cfg.transaction_state_log_num_partitions, 1, configs, {}}, true);
  if (!created) {
    log_line(log_level::warn, log_component::transactions, "creating %s: %s", name.c_str(), describe(created.error()).c_str());
    return;
  }
  write_registry(self, [self, name](caf::error err) {
    if (err)
      log_line(log_level::warn, log_component::transactions, "creating %s: %s", name.c_str(), describe(err).c_str());
    else
      lead_txn_partitions_alone(self);
  });
}

broker_info this_broker(const config::server_config& cfg) {
  auto& l = cfg.listeners.front();
  return broker_info{cfg.broker_id, l.host, l.port, cfg.caf_port};
}

namespace {

node_actor::behavior_type node_behavior(self_ptr self, node_context ctx) {
  self->state.ctx = std::move(ctx);
  auto& ns = *self->state.ctx.storage;
  // In cluster mode partitions are served only once the view names this broker their leader.
  for (auto& [tp, p] : ns.partitions)
    if (!clustered(self))
      self->state.partitions[tp] = spawn_partition(self->system(), p.log, context_for(self, tp, replica_role{}));
  publish_routes(self);
  if (!clustered(self))
    lead_txn_partitions_alone(self);
  if (clustered(self)) {
    auto& ctx = self->state.ctx;
    self->state.member = spawn_cluster_member(
      self->system(), cluster_member_context{ns.config.broker_id, ctx.coordinator, ctx.views,
                                             caf::actor_cast<node_actor>(self), ns.config});
    // The member's timers (the preferred-leader check) must not outlive a node that crashed.
    self->link_to(self->state.member);
    if (ctx.groups) // the first lookup of a group creates __consumer_offsets (as Kafka does)
      ctx.groups->set_topic_creator(
        [member = self->state.member] { caf::anon_send(member, ensure_offsets_topic_atom::value); });
    if (auto renewing = std::dynamic_pointer_cast<cluster::renewing_session>(ctx.coordinator))
      renewing->set_listener(session_listener(self->state.member, ctx.groups));
  } else {
    // The embedded coordinator starts empty with every process: tell it the known topics.
    for (auto& [name, entry] : ns.topics)
      publish_to_coordinator(self, topic_spec{name, entry.partitions, entry.replication_factor, entry.configs});
  }
  self->delayed_send(self, checkpoint_interval(self), caf::tick_atom_v);
  return {
    [=](metadata_atom, metadata_request& req) -> cluster_metadata {
      auto& ns = *self->state.ctx.storage;
      if (clustered(self)) {
        auto out = metadata_from_view(self->state.applied->view, ns.config.broker_id, self->state.partitions,
                                      std::move(req.topics), req.all_topics);
        auto unknown = protocol::wire_code(kafka_error::unknown_topic_or_partition);
        for (auto& t : out.topics) {
          if (t.error != unknown || !req.allow_auto_create || !ns.config.auto_create_topics_enable)
            continue;
          // As Kafka: the topic is being created; clients retry on LEADER_NOT_AVAILABLE.
          auto name = t.name;
          self->request(self->state.member, partition_request_timeout, create_topic_atom_v, topic_spec{name, -1, -1, {}},
                        true)
            .then([](topic_description&) {},
                  [name](caf::error& err) {
                    log_line(log_level::info, log_component::cluster, "auto-creating topic %s: %s", name.c_str(), describe(err).c_str());
                  });
          t.error = protocol::wire_code(kafka_error::leader_not_available);
        }
        return out;
      }
      cluster_metadata out{self->state.ctx.controller_id, {this_broker(ns.config)}, {}};
      if (req.all_topics) { // the internal topics only when asked for by name
        req.topics.clear();
        for (auto& [name, _] : ns.topics)
          if (!cluster::is_internal_topic(name))
            req.topics.push_back(name);
      }
      bool created_any = false;
      for (auto& name : req.topics) {
        if (ns.topics.count(name) == 0 && req.allow_auto_create && ns.config.auto_create_topics_enable) {
          auto created = create_topic(self, topic_spec{name, -1, -1, {}});
          if (!created) {
            out.topics.push_back({name, protocol::wire_code(to_kafka_error(created.error())), {}});
            continue;
          }
          created_any = true;
        }
        out.topics.push_back(describe_for_metadata(self, name));
      }
      if (created_any) // one registry write for every topic this request created
        write_registry(self, [](const caf::error&) {});
      return out;
    },
    [=](create_topic_atom, topic_spec& spec, forwarded_atom) -> caf::result<topic_description> {
      if (clustered(self)) // from another broker: write it here
        return ask_member<topic_description>(self, create_topic_atom_v, std::move(spec), false);
      return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
    },
    [=](delete_topic_atom, std::string& name, forwarded_atom) -> caf::result<std::string> {
      if (!self->state.ctx.storage->config.delete_topic_enable)
        return caf::make_error(kafka_error::topic_deletion_disabled, "delete.topic.enable is false");
      if (clustered(self))
        return ask_member<std::string>(self, delete_topic_atom_v, std::move(name), false);
      return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
    },
    [=](add_partitions_atom, partition_addition_request& req) -> caf::result<int32_t> {
      if (clustered(self)) { // the member forwards it to the controller
        if (auto why = too_many_partitions(req.count))
          return caf::make_error(kafka_error::invalid_partitions, *why);
        return ask_member<int32_t>(self, add_partitions_atom_v, std::move(req), true);
      }
      return add_partitions_alone(self, req);
    },
    [=](add_partitions_atom, partition_addition_request& req, forwarded_atom) -> caf::result<int32_t> {
      if (clustered(self))
        return ask_member<int32_t>(self, add_partitions_atom_v, std::move(req), false);
      return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
    },
    [=](create_topic_atom, topic_spec& spec) -> caf::result<topic_description> {
      if (clustered(self)) { // the member forwards it to the controller
        if (auto why = too_many_partitions(spec.partitions)) // before the cluster places any of it
          return caf::make_error(kafka_error::invalid_partitions, *why);
        return ask_member<topic_description>(self, create_topic_atom_v, std::move(spec), true);
      }
      auto created = create_topic(self, std::move(spec));
      if (!created)
        return created.error();
      auto rp = self->make_response_promise<topic_description>();
      write_registry(self, [rp, reply = std::move(*created)](caf::error err) mutable {
        if (err)
          rp.deliver(std::move(err));
        else
          rp.deliver(std::move(reply));
      });
      return rp;
    },
    [=](delete_topic_atom, std::string& name) -> caf::result<std::string> {
      auto& ns = *self->state.ctx.storage;
      if (!ns.config.delete_topic_enable)
        return caf::make_error(kafka_error::topic_deletion_disabled, "delete.topic.enable is false");
      if (clustered(self)) // every broker removes its partitions when the topic leaves its view
        return ask_member<std::string>(self, delete_topic_atom_v, std::move(name), true);
      if (ns.topics.count(name) == 0)
        return caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'");
      auto rp = self->make_response_promise<std::string>();
      cluster::unpublish_topic(*self->state.ctx.coordinator, name, ns.topics[name].partitions, [name](status st) {
        if (!st)
          log_line(log_level::warn, log_component::cluster, "coordinator: removing topic %s failed: %s", name.c_str(), st.error().message().c_str());
      });
      remove_topic_locally(self, name, [=](caf::error err) mutable {
        if (err) {
          rp.deliver(std::move(err));
          return;
        }
        log_line(log_level::info, log_component::cluster, "deleted topic %s", name.c_str());
        rp.deliver(name);
      });
      return rp;
    },
    [=](describe_atom, std::string& name) -> caf::result<topic_description> {
      auto& ns = *self->state.ctx.storage;
      topic_description base{name, 1, {}, {}};
      if (clustered(self)) { // the partitions this broker leads; the rest from their leaders
        auto* topic = self->state.applied->view.topic(name);
        if (topic == nullptr)
          return caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'");
        auto& replicas = topic->assignment.partitions;
        base.replication_factor = static_cast<int16_t>(replicas.empty() ? 1 : replicas[0].size());
        base.configs = topic->config.entries;
      } else {
        auto it = ns.topics.find(name);
        if (it == ns.topics.end())
          return caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'");
        base.replication_factor = it->second.replication_factor;
        base.configs = it->second.configs;
      }
      auto rp = self->make_response_promise<topic_description>();
      gather<partition_status>(self, partitions_of(self, name), [=](std::vector<caf::expected<partition_status>>& replies) mutable {
        for (auto& r : replies) {
          if (!r) {
            rp.deliver(r.error());
            return;
          }
          base.partitions.push_back(std::move(*r));
        }
        rp.deliver(std::move(base));
      }, caf::get_atom_v);
      return rp;
    },
    [=](list_topics_atom) {
      if (clustered(self))
        return self->state.applied->view.topic_names();
      std::vector<std::string> names;
      for (auto& [name, _] : self->state.ctx.storage->topics)
        if (!cluster::is_internal_topic(name))
          names.push_back(name);
      return names;
    },
    [=](find_txn_coordinator_atom, const std::string& transactional_id) {
      return find_txn_coordinator(self, transactional_id);
    },
    [=](init_producer_id_atom, producer_id_request& req) { return init_producer_id(self, req); },
    [=](txn_request_atom, txn_request& req) { return change_transaction(self, req); },
    [=](txn_marker_atom, const topic_partition& tp, const txn_marker_request& req) {
      return write_txn_marker(self, tp, req, true);
    },
    [=](txn_marker_atom, const topic_partition& tp, const txn_marker_request& req, forwarded_atom) {
      return write_txn_marker(self, tp, req, false);
    },
    [=](group_coordinator_atom, const std::string& group_id) -> caf::result<group_actor> {
      auto& groups = self->state.ctx.groups;
      if (auto actor = groups ? groups->find_or_spawn(group_id) : std::nullopt)
        return *actor;
      if (auto where = groups ? groups->locate(group_id) : std::nullopt) {
        // Cluster mode: another broker coordinates it (its id in the context), or nobody now.
        auto me = my_id(self);
        if (!where->available())
          return caf::make_error(kafka_error::coordinator_not_available,
                                 "no live coordinator for group '" + group_id + "'"
                                   + (where->topic_exists() ? " (its offsets partition has no leader)"
                                                            : " (the offsets topic is being created)"));
        if (where->coordinator != me)
          return caf::make_error(kafka_error::not_coordinator, where->coordinator,
                                 "broker " + std::to_string(me) + " does not coordinate group '" + group_id
                                   + "'; broker " + std::to_string(where->coordinator) + " does");
        return caf::make_error(kafka_error::coordinator_load_in_progress, where->coordinator,
                               "broker " + std::to_string(me) + " is taking over group '" + group_id + "'");
      }
      return caf::make_error(kafka_error::not_coordinator, "the node is shutting down");
    },
    [=](list_groups_atom) {
      std::vector<std::string> names;
      if (auto& groups = self->state.ctx.groups)
        for (auto& [name, _] : groups->list())
          names.push_back(name);
      return names;
    },
    [=](shutdown_atom) -> caf::result<bool> {
      if (self->current_sender() && self->current_sender()->node() != self->node())
        return caf::make_error(kafka_error::invalid_request, "shutdown is only accepted from the node's own process");
      auto rp = self->make_response_promise<bool>();
      self->state.stopping = true;
      if (self->state.member)
        self->send_exit(self->state.member, caf::exit_reason::user_shutdown);
      self->state.fetchers.stop_all();
      write_checkpoints(self); // its status requests reach each replica before the close
      auto targets = all_replicas(self);
      self->state.partitions.clear();
      self->state.replicas.clear();
      publish_routes(self);
      gather<int64_t>(self, targets, [=](std::vector<caf::expected<int64_t>>&) mutable {
        rp.deliver(true);
        self->quit();
      }, caf::close_atom_v);
      return rp;
    },
    [=](caf::tick_atom) {
      write_checkpoints(self);
      self->delayed_send(self, checkpoint_interval(self), caf::tick_atom_v);
    },
    [=](replica_fetch_atom, replica_fetch_request& req) -> caf::result<replica_fetch_result> {
      auto poll = spawn_replica_fetch_poll(self->system(), self->state.ctx.routes->leaders(),
                                           self->state.ctx.throttle, self->state.ctx.now_ms);
      return self->delegate(poll, replica_fetch_atom_v, std::move(req));
    },
    [=](epoch_end_atom, const topic_partition& tp, int32_t current_epoch, int32_t epoch) -> caf::result<epoch_end_answer> {
      auto led = self->state.ctx.routes->leaders(); // __consumer_offsets included
      if (auto it = led->find(tp); it != led->end())
        return self->delegate(it->second, epoch_end_atom_v, current_epoch, epoch);
      return epoch_end_answer{protocol::wire_code(self->state.ctx.routes->miss_error(tp)), -1, -1};
    },
    [=](produce_atom, const topic_partition& tp, produce_request& req) -> caf::result<produce_result> {
      auto it = self->state.partitions.find(tp);
      if (it == self->state.partitions.end())
        return miss(self, tp);
      return self->delegate(it->second, produce_atom_v, std::move(req));
    },
    [=](fetch_atom, const topic_partition& tp, fetch_request& req) -> caf::result<fetch_result> {
      auto it = self->state.partitions.find(tp);
      if (it == self->state.partitions.end())
        return miss(self, tp);
      return self->delegate(it->second, fetch_atom_v, std::move(req));
    },
    [=](list_offsets_atom, const topic_partition& tp, int64_t timestamp) -> caf::result<offset_answer> {
      auto it = self->state.partitions.find(tp);
      if (it == self->state.partitions.end())
        return miss(self, tp);
      return self->delegate(it->second, list_offsets_atom_v, timestamp);
    },
    [=](caf::update_atom) {
      if (clustered(self))
        apply_view(self);
    },
    [=](leader_and_isr_atom, leader_and_isr& pushed) {
      if (clustered(self))
        caf::anon_send(self->state.member, leader_and_isr_atom_v, std::move(pushed));
    },
    [=](controlled_shutdown_atom) -> caf::result<bool> {
      if (self->current_sender() && self->current_sender()->node() != self->node())
        return caf::make_error(kafka_error::invalid_request, "only the node's own process shuts it down");
      if (!clustered(self))
        return true; // nothing to hand over
      self->state.leaving = true;
      self->state.fetchers.stop_all();
      auto rp = self->make_response_promise<bool>();
      // The member's tries are bounded by the retries and their timeouts.
      self->request(self->state.member, caf::infinite, controlled_shutdown_atom_v)
        .then([rp](bool done) mutable { rp.deliver(done); },
              [rp](caf::error&) mutable { rp.deliver(false); });
      return rp;
    },
    [=](elect_leaders_atom, leader_election_request& req) -> caf::result<std::vector<leader_election_result>> {
      if (clustered(self))
        return ask_member<std::vector<leader_election_result>>(self, elect_leaders_atom_v, std::move(req), true);
      // One broker leads every partition it has: there is nothing to elect.
      auto& topics = self->state.ctx.storage->topics;
      if (req.all)
        for (auto& [name, entry] : topics)
          for (int32_t p = 0; p < entry.partitions; ++p)
            req.partitions.push_back({name, p});
      std::vector<leader_election_result> out;
      for (auto& tp : req.partitions) {
        auto it = topics.find(tp.topic);
        if (it == topics.end() || tp.partition < 0 || tp.partition >= it->second.partitions)
          out.push_back({tp, protocol::wire_code(kafka_error::unknown_topic_or_partition), "no such partition"});
        else
          out.push_back({tp, protocol::wire_code(kafka_error::election_not_needed), "a single broker leads it"});
      }
      return out;
    },
    [=](elect_leaders_atom, leader_election_request& req,
        forwarded_atom) -> caf::result<std::vector<leader_election_result>> {
      if (clustered(self))
        return ask_member<std::vector<leader_election_result>>(self, elect_leaders_atom_v, std::move(req), false);
      return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
    },
    [=](reassign_atom, std::vector<partition_move>& moves) -> caf::result<std::vector<partition_outcome>> {
      if (clustered(self))
        return ask_member<std::vector<partition_outcome>>(self, reassign_atom_v, std::move(moves), true);
      return reassign_alone(self, moves);
    },
    [=](reassign_atom, std::vector<partition_move>& moves,
        forwarded_atom) -> caf::result<std::vector<partition_outcome>> {
      if (clustered(self))
        return ask_member<std::vector<partition_outcome>>(self, reassign_atom_v, std::move(moves), false);
      return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
    },
    [=](describe_configs_atom, const wire::describe_configs_request& req) { return describe_configs(self, req); },
    [=](describe_log_dirs_atom, wire::describe_log_dirs_request& req) { return describe_log_dirs(self, std::move(req)); },
    [=](metrics_atom) { return broker_gauges_of(self); },
    [=](readiness_atom) { return readiness(self); },
    [=](alter_configs_atom, const wire::alter_configs_request& req) { return alter_configs(self, req); },
    [=](reassign_atom, std::vector<std::string>& topics) -> std::vector<partition_move_status> {
      std::vector<partition_move_status> out;
      if (clustered(self))
        for (auto& s : cluster::reassignments_in_progress(self->state.applied->view, topics))
          out.push_back({topic_partition{s.topic, s.partition}, s.replicas, s.adding, s.removing});
      return out;
    },
    [=](controlled_shutdown_atom, int32_t broker, int64_t broker_epoch) -> caf::result<int32_t> {
      if (!clustered(self))
        return caf::make_error(kafka_error::not_controller, "this broker is not in a cluster");
      return ask_member<int32_t>(self, controlled_shutdown_atom_v, broker, broker_epoch);
    },
  };
}

} // namespace

node_actor spawn_node_actor(caf::actor_system& sys, node_context ctx) {
  return sys.spawn(node_behavior, std::move(ctx));
}

} // namespace cafka
