#include "actors/node_replicas.hpp"

#include <algorithm>
#include <charconv>

#include <caf/all.hpp>

namespace cafka {

namespace {

int32_t min_insync_replicas_of(const cluster::topic_entry& topic, int32_t fallback) {
  auto it = topic.config.entries.find("min.insync.replicas");
  if (it == topic.config.entries.end())
    return fallback;
  int32_t value = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
  return ec == std::errc{} && end == it->second.data() + it->second.size() && value >= 1 ? value : fallback;
}

} // namespace

std::optional<replica_role> role_in_view(const cluster::cluster_view& view, const topic_partition& tp, int32_t me,
                                         int32_t default_min_insync_replicas) {
  auto* topic = view.topic(tp.topic);
  if (topic == nullptr || tp.partition < 0 || tp.partition >= static_cast<int32_t>(topic->partitions.size()))
    return std::nullopt;
  auto& replicas = topic->assignment.partitions[static_cast<size_t>(tp.partition)];
  if (std::find(replicas.begin(), replicas.end(), me) == replicas.end())
    return std::nullopt;
  auto& entry = topic->partitions[static_cast<size_t>(tp.partition)];
  return replica_role{entry.state.leader,
                      entry.state.leader_epoch,
                      replicas,
                      entry.state.isr,
                      entry.state_version,
                      entry.state.controller_epoch,
                      view.broker_ids(),
                      min_insync_replicas_of(*topic, default_min_insync_replicas)};
}

void replica_fetchers::update(caf::actor_system& sys, const config::server_config& cfg,
                              const cluster::cluster_view& view, const std::map<topic_partition, replica_role>& roles,
                              const std::map<topic_partition, partition_actor>& replicas,
                              const std::shared_ptr<cluster::replication_throttle>& throttle,
                              const std::function<int64_t()>& now_ms) {
  std::map<int32_t, std::vector<followed_partition>> wanted;
  for (auto& [tp, role] : roles) {
    auto local = replicas.find(tp);
    if (role.leader == cfg.broker_id || role.leader == cluster::no_broker || local == replicas.end()
        || view.broker(role.leader) == nullptr)
      continue;
    wanted[role.leader].push_back({tp, local->second, role.leader_epoch});
  }
  for (auto it = fetchers_.begin(); it != fetchers_.end();) {
    if (wanted.count(it->first) == 0) {
      caf::anon_send_exit(it->second, caf::exit_reason::user_shutdown);
      it = fetchers_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& [leader, partitions] : wanted) {
    auto& fetcher = fetchers_[leader];
    if (!fetcher)
      fetcher = spawn_replica_fetcher(sys, replica_fetcher_config{cfg.broker_id, leader, cfg.replica_fetch_wait_max_ms,
                                                                  cfg.replica_fetch_max_bytes,
                                                                  cfg.replica_fetch_backoff_ms, throttle, now_ms});
    auto* reg = view.broker(leader);
    caf::anon_send(fetcher, follow_atom_v, std::move(partitions), reg->host, reg->caf_port);
  }
}

void replica_fetchers::stop_all() {
  for (auto& [_, fetcher] : fetchers_)
    caf::anon_send_exit(fetcher, caf::exit_reason::user_shutdown);
  fetchers_.clear();
}

} // namespace cafka
