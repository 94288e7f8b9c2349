#include "actors/node_actor.hpp"

#include <chrono>
#include <filesystem>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/node.hpp"
#include "actors/node_storage.hpp"
#include "actors/routing_table.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/offset_records.hpp"
#include "config/topic_config.hpp"
#include "config/to_log_config.hpp"

namespace cafka {

namespace {

// Kafka's log.flush.offset.checkpoint.interval.ms.
constexpr auto checkpoint_interval = std::chrono::seconds(60);
constexpr auto partition_request_timeout = std::chrono::seconds(30);

struct node_state {
  static inline const char* name = "cafka.node";
  node_context ctx;
  std::map<topic_partition, partition_actor> partitions;
};

using self_ptr = node_actor::stateful_pointer<node_state>;

void publish_routes(self_ptr self) {
  self->state.ctx.routes->publish(self->state.partitions);
}

std::vector<partition_actor> partitions_of(self_ptr self, const std::string& topic) {
  std::vector<partition_actor> out;
  for (auto& [tp, actor] : self->state.partitions)
    if (tp.topic == topic)
      out.push_back(actor);
  return out;
}

// Sends `msg` to every actor in `targets` and calls `done` with every reply, in order,
// once all arrived (failed ones as errors).
template <class Reply, class... Msg, class Done>
void gather(self_ptr self, std::vector<partition_actor> targets, Done done, Msg... msg) {
  struct pending {
    std::vector<caf::expected<Reply>> replies;
    size_t outstanding = 0;
    std::function<void(std::vector<caf::expected<Reply>>&)> done;
  };
  auto acc = std::make_shared<pending>();
  acc->replies.resize(targets.size(), caf::expected<Reply>{caf::error{}});
  acc->outstanding = targets.size();
  acc->done = std::move(done);
  if (targets.empty()) {
    acc->done(acc->replies);
    return;
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    auto finish = [acc] {
      if (--acc->outstanding == 0)
        acc->done(acc->replies);
    };
    self->request(targets[i], partition_request_timeout, msg...)
      .then([=](Reply& r) { acc->replies[i] = std::move(r); finish(); },
            [=](caf::error& e) { acc->replies[i] = std::move(e); finish(); });
  }
}

void write_registry(self_ptr self, caf::typed_response_promise<topic_description> rp,
                    topic_description reply) {
  auto& ns = *self->state.ctx.storage;
  auto path = ns.registry_path();
  auto topics = ns.topics;
  self->request(self->state.ctx.io_worker, caf::infinite,
                io_job{[path, topics] { return storage::write_topic_registry(path, topics).error(); }})
    .then([rp, reply]() mutable { rp.deliver(std::move(reply)); },
          [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
}

// Records a new topic in the coordinator: assignment (this broker holds every
// replica), partition states with this broker leading, and the topic's configs.
void publish_to_coordinator(self_ptr self, const topic_spec& spec) {
  auto& ctx = self->state.ctx;
  auto me = ctx.storage->config.broker_id;
  cluster::topic_assignment assignment{std::vector<cluster::replica_list>(static_cast<size_t>(spec.partitions), {me})};
  cluster::partition_state state{me, 0, 0, {me}};
  auto name = spec.name;
  cluster::publish_topic(*ctx.coordinator, name, assignment, state, cluster::topic_config{spec.configs},
                         [name](status st) {
                           if (!st)
                             log_line("coordinator: publishing topic %s failed: %s", name.c_str(),
                                      st.error().message().c_str());
                         });
}

// Validates and creates a topic: logs, partition actors, routes. The registry file is
// written by the caller.
caf::expected<topic_description> create_topic(self_ptr self, topic_spec spec) {
  auto& ns = *self->state.ctx.storage;
  auto& cfg = ns.config;
  if (auto why = config::invalid_topic_name(spec.name))
    return caf::make_error(kafka_error::invalid_topic_exception, *why);
  if (ns.topics.count(spec.name) > 0)
    return caf::make_error(kafka_error::topic_already_exists, "topic '" + spec.name + "' already exists");
  if (spec.name == cluster::offsets_topic_name) // its logs belong to the offsets store
    return caf::make_error(kafka_error::topic_already_exists, "'" + spec.name + "' is an internal topic");
  if (spec.partitions == -1)
    spec.partitions = cfg.num_partitions;
  if (spec.partitions < 1)
    return caf::make_error(kafka_error::invalid_partitions, "partitions must be at least 1");
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
  topic_description out{spec.name, spec.replication_factor, spec.configs, {}};
  auto now = self->state.ctx.now_ms();
  for (int32_t p = 0; p < spec.partitions; ++p) {
    topic_partition tp{spec.name, p};
    if (auto st = ns.open_partition_log(tp, now); !st)
      return to_caf_error(st.error());
    self->state.partitions[tp] = spawn_partition(
      self->system(), ns.partitions[tp].log,
      partition_context{tp, self->state.ctx.io_worker, self->state.ctx.now_ms});
    out.partitions.push_back(partition_status{tp, 0, 0, 0, 0, 1, 0});
  }
  publish_routes(self);
  publish_to_coordinator(self, spec);
  log_line("created topic %s with %d partition(s)", spec.name.c_str(), spec.partitions);
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
  for (int32_t p = 0; p < it->second.partitions; ++p) {
    auto actor = self->state.partitions.find(topic_partition{name, p});
    if (actor == self->state.partitions.end()) // closed (shutting down)
      t.partitions.push_back({p, protocol::wire_code(kafka_error::leader_not_available), -1, {}, {}});
    else
      t.partitions.push_back({p, 0, ns.config.broker_id, {ns.config.broker_id}, actor->second});
  }
  return t;
}

broker_info this_broker(const config::server_config& cfg) {
  auto& l = cfg.listeners.front();
  return broker_info{cfg.broker_id, l.host, l.port, cfg.caf_port};
}

node_actor::behavior_type node_behavior(self_ptr self, node_context ctx) {
  self->state.ctx = std::move(ctx);
  auto& ns = *self->state.ctx.storage;
  for (auto& [tp, p] : ns.partitions)
    self->state.partitions[tp] = spawn_partition(
      self->system(), p.log, partition_context{tp, self->state.ctx.io_worker, self->state.ctx.now_ms});
  publish_routes(self);
  // The embedded coordinator starts empty with every process: tell it the known topics.
  for (auto& [name, entry] : ns.topics)
    publish_to_coordinator(self, topic_spec{name, entry.partitions, entry.replication_factor, entry.configs});
  self->delayed_send(self, checkpoint_interval, caf::tick_atom_v);
  return {
    [=](metadata_atom, metadata_request& req) -> cluster_metadata {
      auto& ns = *self->state.ctx.storage;
      cluster_metadata out{self->state.ctx.controller_id, {this_broker(ns.config)}, {}};
      if (req.all_topics) {
        req.topics.clear();
        for (auto& [name, _] : ns.topics)
          req.topics.push_back(name);
      }
      for (auto& name : req.topics) {
        if (ns.topics.count(name) == 0 && req.allow_auto_create && ns.config.auto_create_topics_enable) {
          auto created = create_topic(self, topic_spec{name, -1, -1, {}});
          if (!created) {
            out.topics.push_back({name, protocol::wire_code(to_kafka_error(created.error())), {}});
            continue;
          }
          auto path = ns.registry_path();
          auto topics = ns.topics;
          caf::anon_send(self->state.ctx.io_worker,
                         io_job{[path, topics] { return storage::write_topic_registry(path, topics).error(); }});
        }
        out.topics.push_back(describe_for_metadata(self, name));
      }
      return out;
    },
    [=](create_topic_atom, topic_spec& spec) -> caf::result<topic_description> {
      auto created = create_topic(self, std::move(spec));
      if (!created)
        return created.error();
      auto rp = self->make_response_promise<topic_description>();
      write_registry(self, rp, std::move(*created));
      return rp;
    },
    [=](delete_topic_atom, std::string& name) -> caf::result<std::string> {
      auto& ns = *self->state.ctx.storage;
      if (!ns.config.delete_topic_enable)
        return caf::make_error(kafka_error::topic_deletion_disabled, "delete.topic.enable is false");
      if (ns.topics.count(name) == 0)
        return caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'");
      auto rp = self->make_response_promise<std::string>();
      auto targets = partitions_of(self, name);
      cluster::unpublish_topic(*self->state.ctx.coordinator, name, ns.topics[name].partitions, [name](status st) {
        if (!st)
          log_line("coordinator: removing topic %s failed: %s", name.c_str(), st.error().message().c_str());
      });
      ns.topics.erase(name);
      for (auto it = self->state.partitions.begin(); it != self->state.partitions.end();)
        it = it->first.topic == name ? self->state.partitions.erase(it) : std::next(it);
      publish_routes(self);
      gather<int64_t>(self, targets, [=](std::vector<caf::expected<int64_t>>&) mutable {
        // Every partition actor has stopped: the logs and folders can go.
        auto& ns = *self->state.ctx.storage;
        std::vector<std::string> folders;
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
          .then([=]() mutable {
                  log_line("deleted topic %s", name.c_str());
                  rp.deliver(name);
                },
                [=](caf::error& err) mutable { rp.deliver(std::move(err)); });
      }, caf::close_atom_v);
      return rp;
    },
    [=](describe_atom, std::string& name) -> caf::result<topic_description> {
      auto& ns = *self->state.ctx.storage;
      auto it = ns.topics.find(name);
      if (it == ns.topics.end())
        return caf::make_error(kafka_error::unknown_topic_or_partition, "no topic '" + name + "'");
      auto rp = self->make_response_promise<topic_description>();
      topic_description base{name, it->second.replication_factor, it->second.configs, {}};
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
      std::vector<std::string> names;
      for (auto& [name, _] : self->state.ctx.storage->topics)
        names.push_back(name);
      return names;
    },
    [=](group_coordinator_atom, const std::string& group_id) -> caf::result<group_actor> {
      auto& groups = self->state.ctx.groups;
      if (auto actor = groups ? groups->find_or_spawn(group_id) : std::nullopt)
        return *actor;
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
      std::vector<partition_actor> targets;
      for (auto& [_, actor] : self->state.partitions)
        targets.push_back(actor);
      self->state.partitions.clear();
      publish_routes(self);
      gather<int64_t>(self, targets, [=](std::vector<caf::expected<int64_t>>&) mutable {
        rp.deliver(true);
        self->quit();
      }, caf::close_atom_v);
      return rp;
    },
    [=](caf::tick_atom) {
      gather<partition_status>(self, [&] {
        std::vector<partition_actor> all;
        for (auto& [_, actor] : self->state.partitions)
          all.push_back(actor);
        return all;
      }(), [=](std::vector<caf::expected<partition_status>>& replies) {
        auto& ns = *self->state.ctx.storage;
        std::vector<storage::offset_checkpoint> points(ns.dirs.size());
        for (auto& r : replies) {
          if (!r)
            continue;
          auto it = ns.partitions.find(r->tp);
          if (it != ns.partitions.end())
            points[it->second.dir][r->tp] = r->recovery_point;
        }
        for (size_t i = 0; i < ns.dirs.size(); ++i) {
          auto cp = points[i];
          auto* dir = ns.dirs[i].get();
          caf::anon_send(self->state.ctx.io_worker, io_job{[dir, cp] { return dir->write_checkpoint(cp).error(); }});
        }
      }, caf::get_atom_v);
      self->delayed_send(self, checkpoint_interval, caf::tick_atom_v);
    },
  };
}

} // namespace

node_actor spawn_node_actor(caf::actor_system& sys, node_context ctx) {
  return sys.spawn(node_behavior, std::move(ctx));
}

} // namespace cafka
