// DescribeConfigs, AlterConfigs and IncrementalAlterConfigs at the node actor, and applying
// changed configs to the running broker.
//
// Where configs live: a topic's overrides in /config/topics/<t> (a cluster; every broker
// learns of a change through its view) or in the topic registry (a single node); the dynamic
// broker configs in /config/brokers/<id> and /config/brokers/<default> (a cluster) or in
// <first log dir>/cafka-broker-configs (a single node). An alteration is answered once it is
// stored (a kill after the answer keeps it). Applying: every local replica of a topic whose
// overrides changed gets its new log settings; the replication throttle is re-planned on
// every view (topic lists, rates, ISRs).
#include <map>
#include <set>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/connection_limits.hpp"
#include "actors/log_line.hpp"
#include "actors/node_actor_state.hpp"
#include "actors/node_storage.hpp"
#include "cluster/blocking_calls.hpp"
#include "cluster/replication_throttle.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"
#include "config/config_alteration.hpp"
#include "config/config_description.hpp"
#include "config/to_log_config.hpp"
#include "storage/file.hpp"

namespace cafka {

namespace {

using wire::config_resource_type;

constexpr int8_t topic_type = static_cast<int8_t>(config_resource_type::topic);
constexpr int8_t broker_type = static_cast<int8_t>(config_resource_type::broker);

// The listeners admit new connections by the limits in force (Kafka's DynamicConnectionQuota).
void apply_connection_limits(self_ptr self) {
  auto& st = self->state;
  if (!st.ctx.connections)
    return;
  auto limits = config::connection_limits_in_force(st.ctx.storage->dynamic, st.ctx.storage->config);
  st.ctx.connections->set_limits(limits.max_total, limits.max_per_ip, std::move(limits.per_ip_overrides));
}

// A topic's stored overrides, or nullptr if this broker does not know the topic.
const std::map<std::string, std::string>* topic_overrides(self_ptr self, const std::string& name) {
  auto& st = self->state;
  if (clustered(self)) {
    auto* topic = st.applied->view.topic(name);
    return topic ? &topic->config.entries : nullptr;
  }
  auto& ns = *st.ctx.storage;
  auto it = ns.topics.find(name);
  if (it == ns.topics.end() || st.unregistered.count(name) > 0 || st.deleting.count(name) > 0)
    return nullptr;
  return &it->second.configs;
}

std::string unknown_topic(const std::string& name) { return "Topic '" + name + "' does not exist."; }

// The broker resource names this broker answers: its id, or "" (the cluster defaults).
std::optional<std::string> wrong_broker(self_ptr self, const std::string& name) {
  auto me = std::to_string(my_id(self));
  if (name.empty() || name == me)
    return std::nullopt;
  return "Unexpected broker id, expected " + me + " or empty string, but received " + name;
}

// One stored change: a topic's overrides or a broker entity's dynamic configs.
struct config_write {
  size_t index = 0; ///< the resource's place in the response
  int8_t type = 0;
  std::string name; ///< topic, or broker entity (an id, or "" for the defaults)
  std::map<std::string, std::string> entries;
};

// Validates one resource's alteration; `write` is filled in when it stores something.
wire::alter_configs_result plan_alteration(self_ptr self, const wire::alter_configs_resource& res, bool incremental,
                                           std::optional<config_write>& write) {
  auto& ns = *self->state.ctx.storage;
  wire::alter_configs_result out{0, std::nullopt, res.resource_type, res.resource_name};
  auto refuse = [&](kafka_error e, std::string message) {
    out.error_code = protocol::wire_code(e);
    out.error_message = std::move(message);
    return out;
  };
  if (res.resource_type == topic_type) {
    auto* current = topic_overrides(self, res.resource_name);
    if (current == nullptr)
      return refuse(kafka_error::unknown_topic_or_partition, unknown_topic(res.resource_name));
    auto altered = config::alter_overrides(*current, res, incremental);
    if (altered.error_code != 0)
      return refuse(static_cast<kafka_error>(altered.error_code), altered.error_message);
    if (auto valid = config::apply_topic_configs(config::to_log_config(ns.config), altered.overrides); !valid)
      return refuse(kafka_error::invalid_config, valid.error().message);
    write = config_write{0, topic_type, res.resource_name, std::move(altered.overrides)};
    return out;
  }
  if (res.resource_type == broker_type) {
    if (auto why = wrong_broker(self, res.resource_name))
      return refuse(kafka_error::invalid_request, *why);
    auto& current = res.resource_name.empty() ? ns.dynamic.cluster_default : ns.dynamic.broker;
    auto altered = config::alter_overrides(current, res, incremental);
    if (altered.error_code != 0)
      return refuse(static_cast<kafka_error>(altered.error_code), altered.error_message);
    for (auto& [key, value] : altered.overrides)
      if (auto refusal = config::refuse_dynamic(key, value))
        return refuse(static_cast<kafka_error>(refusal->error_code), refusal->message);
    write = config_write{0, broker_type, res.resource_name, std::move(altered.overrides)};
    return out;
  }
  return refuse(kafka_error::invalid_request,
                "cafka has no configs of resource type " + std::to_string(res.resource_type));
}

std::string znode_of(const config_write& w) {
  if (w.type == topic_type)
    return cluster::topic_config_path(w.name);
  return cluster::broker_config_path(w.name.empty() ? cluster::default_broker_entity : w.name);
}

std::string rate_text(int64_t rate) {
  return rate == cluster::unthrottled ? std::string{"no limit"} : std::to_string(rate) + " B/s";
}

void fail(wire::alter_configs_result& r, const std::string& why) {
  r.error_code = protocol::wire_code(kafka_error::unknown_server_error);
  r.error_message = "storing the configs failed: " + why;
}

// A cluster: each change written to its znode on the I/O worker (blocking there); the
// brokers apply it when their views show it.
void store_in_coordinator(self_ptr self, std::vector<config_write> writes,
                          caf::typed_response_promise<wire::alter_configs_response> rp,
                          wire::alter_configs_response resp) {
  auto c = self->state.ctx.coordinator;
  auto errors = std::make_shared<std::vector<std::string>>(writes.size());
  self->request(self->state.ctx.io_worker, caf::infinite, io_job{[c, writes, errors] {
                  for (size_t i = 0; i < writes.size(); ++i)
                    if (auto st = cluster::store_node(*c, znode_of(writes[i]),
                                                      cluster::encode(cluster::topic_config{writes[i].entries}));
                        !st)
                      (*errors)[i] = st.error().message();
                  return std::error_code{};
                }})
    .then(
      [=]() mutable {
        for (size_t i = 0; i < writes.size(); ++i)
          if (!(*errors)[i].empty())
            fail(resp.responses[writes[i].index], (*errors)[i]);
        rp.deliver(std::move(resp));
      },
      [=](caf::error& err) mutable {
        for (auto& w : writes)
          fail(resp.responses[w.index], describe(err));
        rp.deliver(std::move(resp));
      });
}

// A single node: the broker configs file, then the topic registry; applied once stored.
void store_alone(self_ptr self, std::vector<config_write> writes,
                 caf::typed_response_promise<wire::alter_configs_response> rp, wire::alter_configs_response resp) {
  auto& ns = *self->state.ctx.storage;
  auto before_topics = ns.topics;
  auto before_dynamic = ns.dynamic;
  std::set<std::string> topics;
  bool broker_changed = false;
  for (auto& w : writes) {
    if (w.type == topic_type) {
      ns.topics[w.name].configs = w.entries;
      topics.insert(w.name);
    } else {
      (w.name.empty() ? ns.dynamic.cluster_default : ns.dynamic.broker) = w.entries;
      broker_changed = true;
    }
  }
  auto failed = [=](const std::string& why) mutable {
    auto& ns = *self->state.ctx.storage;
    ns.topics = before_topics;
    ns.dynamic = before_dynamic;
    for (auto& w : writes)
      fail(resp.responses[w.index], why);
    rp.deliver(std::move(resp));
  };
  // Stored, then applied: the broker defaults reach every topic, overrides their own.
  auto applied = [=]() mutable {
    apply_log_configs(self, broker_changed ? nullptr : &topics);
    if (broker_changed)
      apply_connection_limits(self);
    rp.deliver(std::move(resp));
  };
  auto registry = [=]() mutable {
    if (topics.empty()) {
      applied();
      return;
    }
    write_registry(self, [=](caf::error err) mutable {
      if (err)
        failed(describe(err));
      else
        applied();
    });
  };
  if (!broker_changed) {
    registry();
    return;
  }
  auto path = ns.broker_configs_path();
  auto text = config::format_broker_configs_file(ns.dynamic);
  self->request(self->state.ctx.io_worker, caf::infinite,
                io_job{[path, text] { return storage::write_file_atomically(path, text).error(); }})
    .then([=]() mutable { registry(); }, [=](caf::error& err) mutable { failed(describe(err)); });
}

} // namespace

wire::describe_configs_response describe_configs(self_ptr self, const wire::describe_configs_request& req) {
  auto& ns = *self->state.ctx.storage;
  wire::describe_configs_response resp;
  for (auto& res : req.resources) {
    wire::describe_configs_result out;
    out.resource_type = res.resource_type;
    out.resource_name = res.resource_name;
    if (res.resource_type == topic_type) {
      if (auto* overrides = topic_overrides(self, res.resource_name))
        out.configs = config::describe_topic(*overrides, ns.config, ns.dynamic, res.configuration_keys,
                                             req.include_synonyms);
      else {
        out.error_code = protocol::wire_code(kafka_error::unknown_topic_or_partition);
        out.error_message = unknown_topic(res.resource_name);
      }
    } else if (res.resource_type == broker_type) {
      if (auto why = wrong_broker(self, res.resource_name)) {
        out.error_code = protocol::wire_code(kafka_error::invalid_request);
        out.error_message = *why;
      } else {
        out.configs = config::describe_broker(res.resource_name, ns.config, ns.dynamic, res.configuration_keys,
                                              req.include_synonyms);
      }
    } else {
      out.error_code = protocol::wire_code(kafka_error::invalid_request);
      out.error_message = "cafka has no configs of resource type " + std::to_string(res.resource_type);
    }
    resp.results.push_back(std::move(out));
  }
  return resp;
}

caf::result<wire::alter_configs_response> alter_configs(self_ptr self, const wire::alter_configs_request& req) {
  wire::alter_configs_response resp;
  std::vector<config_write> writes;
  for (auto& res : req.resources) {
    std::optional<config_write> write;
    resp.responses.push_back(plan_alteration(self, res, req.incremental, write));
    if (write && !req.validate_only) {
      write->index = resp.responses.size() - 1;
      writes.push_back(std::move(*write));
    }
  }
  if (writes.empty())
    return resp;
  for (auto& w : writes)
    log_line(log_level::info, log_component::configs, "broker %d: %s %s configs altered", my_id(self), w.type == topic_type ? "topic" : "broker",
             w.name.empty() ? "<default>" : w.name.c_str());
  auto rp = self->make_response_promise<wire::alter_configs_response>();
  if (clustered(self))
    store_in_coordinator(self, std::move(writes), rp, std::move(resp));
  else
    store_alone(self, std::move(writes), rp, std::move(resp));
  return rp;
}

void apply_log_configs(self_ptr self, const std::set<std::string>* topics) {
  auto& st = self->state;
  auto& actors = clustered(self) ? st.replicas : st.partitions;
  std::map<std::string, storage::log_config> configs; // one per topic, not per partition
  for (auto& [tp, actor] : actors) {
    if (topics != nullptr && topics->count(tp.topic) == 0)
      continue;
    auto it = configs.find(tp.topic);
    if (it == configs.end())
      it = configs.emplace(tp.topic, st.ctx.storage->log_config_for(tp.topic)).first;
    caf::anon_send(actor, log_config_atom_v, it->second);
  }
}

void apply_configs_of_view(self_ptr self) {
  auto& st = self->state;
  auto& ns = *st.ctx.storage;
  auto& view = st.applied->view;
  std::set<std::string> changed;
  for (auto& [name, topic] : view.topics()) {
    auto known = ns.topics.find(name);
    if (known == ns.topics.end() || known->second.configs == topic.config.entries)
      continue; // logs not opened yet open with the view's configs
    known->second.configs = topic.config.entries;
    log_line(log_level::info, log_component::configs, "broker %d: topic %s configs changed", my_id(self), name.c_str());
    changed.insert(name);
  }
  config::dynamic_broker_configs dynamic{view.broker_config(std::to_string(my_id(self))),
                                         view.broker_config(cluster::default_broker_entity)};
  bool defaults_changed = !(dynamic == ns.dynamic);
  if (defaults_changed) {
    ns.dynamic = std::move(dynamic);
    log_line(log_level::info, log_component::configs, "broker %d: dynamic broker configs changed", my_id(self));
    apply_connection_limits(self);
  }
  if (defaults_changed || !changed.empty()) // the log defaults reach every topic
    apply_log_configs(self, defaults_changed ? nullptr : &changed);
  if (!st.ctx.throttle)
    return;
  auto plan = cluster::plan_throttles(view, my_id(self), config::leader_throttled_rate(ns.dynamic),
                                      config::follower_throttled_rate(ns.dynamic));
  auto before = st.ctx.throttle->plan();
  if (plan == before)
    return;
  if (plan.leader_rate != before.leader_rate || plan.follower_rate != before.follower_rate
      || plan.leader_throttled != before.leader_throttled || plan.follower_throttled != before.follower_throttled)
    log_line(log_level::info, log_component::configs, "broker %d: replication throttle: %zu partition(s) as leader at %s, %zu as follower at %s", my_id(self),
             plan.leader_throttled.size(), rate_text(plan.leader_rate).c_str(), plan.follower_throttled.size(),
             rate_text(plan.follower_rate).c_str());
  st.ctx.throttle->replace(std::move(plan));
}

} // namespace cafka
