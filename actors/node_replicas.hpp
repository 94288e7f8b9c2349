#pragma once
// What the node actor does for replication (docs/replication.md), kept out of
// node_actor.cpp: the role each local replica has in the applied cluster view, and one
// replica fetcher per leader this broker follows partitions of.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include <caf/fwd.hpp>

#include "actors/partition_actor.hpp"
#include "actors/replica_fetcher.hpp"
#include "cluster/cluster_view.hpp"
#include "config/server_config.hpp"

namespace cafka {

/// The role `me` has for `tp` in `view`; nullopt when it holds no replica of it.
std::optional<replica_role> role_in_view(const cluster::cluster_view& view, const topic_partition& tp, int32_t me,
                                         int32_t default_min_insync_replicas);

/// The node's replica fetchers, one per leader broker.
class replica_fetchers {
public:
  replica_fetchers() = default;
  replica_fetchers(const replica_fetchers&) = delete;
  replica_fetchers& operator=(const replica_fetchers&) = delete;
  /// Stops every fetcher: they must not outlive the node actor that owns them (a killed
  /// node actor, as in a crash, runs no shutdown handler).
  ~replica_fetchers() { stop_all(); }

  /// Gives each leader's fetcher the followers of `roles` that it leads (spawning fetchers
  /// for new leaders, stopping those left with nothing); leaders that are not live in the
  /// view get none: their followers wait for the next leader.
  void update(caf::actor_system& sys, const config::server_config& cfg, const cluster::cluster_view& view,
              const std::map<topic_partition, replica_role>& roles,
              const std::map<topic_partition, partition_actor>& replicas,
              const std::shared_ptr<cluster::replication_throttle>& throttle, const std::function<int64_t()>& now_ms);
  /// Stops every fetcher.
  void stop_all();

private:
  std::map<int32_t, caf::actor> fetchers_;
};

} // namespace cafka
