#pragma once
// group id -> group actor, reachable from the Kafka listeners without a message to the node
// actor (like routing_table for partitions). A group's actor is spawned on first use
// (JoinGroup, OffsetCommit) and lives until the node stops: the node owns the registry and
// closes every group at shutdown, after which nothing new is spawned.
//
// A mutex, not copy on write as routing_table: group requests are a few per consumer and
// second (heartbeats), and a lookup may have to spawn.

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/group_actor.hpp"

namespace cafka {

class group_registry {
public:
  /// Spawns the actor of a new group.
  using spawn_function = std::function<group_actor(const std::string& group_id)>;

  explicit group_registry(spawn_function spawn) : spawn_(std::move(spawn)) {}

  /// The group's actor, if it has one.
  std::optional<group_actor> find(const std::string& group_id) const {
    std::lock_guard<std::mutex> guard{mutex_};
    auto it = groups_.find(group_id);
    if (it == groups_.end())
      return std::nullopt;
    return it->second;
  }

  /// The group's actor, spawned if it has none yet; nothing once closed.
  std::optional<group_actor> find_or_spawn(const std::string& group_id) {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return std::nullopt;
    auto it = groups_.find(group_id);
    if (it == groups_.end())
      it = groups_.emplace(group_id, spawn_(group_id)).first;
    return it->second;
  }

  /// Every group and its actor, by group id (ListGroups).
  std::vector<std::pair<std::string, group_actor>> list() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return {groups_.begin(), groups_.end()};
  }

  /// Stops spawning and hands over every group actor, for the caller to close.
  std::vector<group_actor> close() {
    std::lock_guard<std::mutex> guard{mutex_};
    closed_ = true;
    std::vector<group_actor> out;
    for (auto& [_, actor] : groups_)
      out.push_back(actor);
    groups_.clear();
    return out;
  }

private:
  spawn_function spawn_;
  mutable std::mutex mutex_;
  std::map<std::string, group_actor> groups_;
  bool closed_ = false;
};

} // namespace cafka
