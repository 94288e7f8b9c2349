#include "apps/reassign_throttle.hpp"

#include <cstdio>

#include "apps/config_calls.hpp"
#include "apps/tool_args.hpp"
#include "cluster/replication_throttle.hpp"

namespace cafka::tools {

namespace {

constexpr const char* tool = "cafka-reassign-partitions";
const std::string leader_replicas = "leader.replication.throttled.replicas";
const std::string follower_replicas = "follower.replication.throttled.replicas";
const std::string leader_rate = "leader.replication.throttled.rate";
const std::string follower_rate = "follower.replication.throttled.rate";

constexpr auto topic_type = static_cast<int8_t>(wire::config_resource_type::topic);
constexpr auto broker_type = static_cast<int8_t>(wire::config_resource_type::broker);
constexpr auto set_op = static_cast<int8_t>(wire::config_operation::set);
constexpr auto remove_op = static_cast<int8_t>(wire::config_operation::remove);

void alter(const std::string& address, wire::alter_configs_request req, int timeout_ms) {
  req.incremental = true;
  auto resp = incremental_alter_configs(tool, address, req, timeout_ms);
  for (auto& r : resp.responses)
    if (r.error_code != 0)
      fail(tool, (r.resource_type == topic_type ? "topic " : "broker ") + r.resource_name + ": error "
                   + std::to_string(r.error_code) + ": " + r.error_message.value_or(""));
}

// Each broker's own resource, on its own listener (a broker changes only its configs).
void alter_brokers(const std::map<int32_t, std::string>& addresses, const std::set<int32_t>& brokers,
                   const std::vector<wire::altered_config>& configs, int timeout_ms) {
  for (auto id : brokers) {
    auto address = addresses.find(id);
    if (address == addresses.end())
      fail(tool, "broker " + std::to_string(id) + " is not live: its throttle cannot be changed");
    wire::alter_configs_request req;
    req.resources.push_back({broker_type, std::to_string(id), configs});
    alter(address->second, std::move(req), timeout_ms);
  }
}

std::string joined(const std::set<int32_t>& ids) {
  std::string out;
  for (auto id : ids)
    out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

} // namespace

void set_throttles(const std::string& bootstrap, const std::map<int32_t, std::string>& addresses,
                   const std::vector<cluster::partition_target>& current,
                   const std::vector<cluster::partition_target>& targets, int64_t rate, int timeout_ms) {
  std::map<std::string, std::vector<cluster::replica_move>> moves;
  std::set<int32_t> brokers;
  for (size_t i = 0; i < targets.size(); ++i) {
    auto& t = targets[i];
    moves[t.topic].push_back({t.partition, current[i].replicas, t.replicas});
    if (current[i].replicas != t.replicas) {
      brokers.insert(current[i].replicas.begin(), current[i].replicas.end());
      brokers.insert(t.replicas.begin(), t.replicas.end());
    }
  }
  wire::alter_configs_request topics;
  for (auto& [name, m] : moves) {
    auto lists = cluster::throttle_lists(m);
    if (lists.leader.empty() && lists.follower.empty())
      continue;
    topics.resources.push_back({topic_type, name, {{leader_replicas, set_op, lists.leader},
                                                   {follower_replicas, set_op, lists.follower}}});
  }
  if (!topics.resources.empty())
    alter(bootstrap, std::move(topics), timeout_ms);
  auto value = std::to_string(rate);
  alter_brokers(addresses, brokers, {{leader_rate, set_op, value}, {follower_rate, set_op, value}}, timeout_ms);
  std::printf("Warning: You must run --verify periodically, until the reassignment completes, to ensure the "
              "throttle is removed.\nThe inter-broker throttle limit was set to %lld B/s\n",
              static_cast<long long>(rate));
}

void clear_throttles(const std::string& bootstrap, const std::map<int32_t, std::string>& addresses,
                     const std::set<std::string>& topics, int timeout_ms) {
  std::set<int32_t> brokers;
  for (auto& [id, _] : addresses)
    brokers.insert(id);
  std::printf("Clearing broker-level throttles on brokers %s\n", joined(brokers).c_str());
  alter_brokers(addresses, brokers, {{leader_rate, remove_op, std::nullopt}, {follower_rate, remove_op, std::nullopt}},
                timeout_ms);
  wire::alter_configs_request req;
  for (auto& t : topics) {
    std::printf("Clearing topic-level throttles on topic %s\n", t.c_str());
    req.resources.push_back(
      {topic_type, t, {{leader_replicas, remove_op, std::nullopt}, {follower_replicas, remove_op, std::nullopt}}});
  }
  if (!req.resources.empty())
    alter(bootstrap, std::move(req), timeout_ms);
}

} // namespace cafka::tools
