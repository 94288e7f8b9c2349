#pragma once
// group id -> group actor, reachable from the Kafka listeners without a message to the node
// actor (like routing_table for partitions). A group's actor is spawned on first use
// (JoinGroup, OffsetCommit) and lives until the node stops: the node owns the registry and
// closes every group at shutdown, after which nothing new is spawned.
//
// Cluster mode (coordinate_by_partition called; docs/cluster.md "Groups across nodes"): the
// node coordinates exactly the groups whose __consumer_offsets partition it serves. The node
// actor calls serve_partition when its applied view makes it that partition's leader (the
// partition's groups with stored offsets are spawned then, as Kafka loads a partition's
// groups when it becomes their coordinator) and release_partition when it stops leading it
// (the caller closes the returned actors: held requests get NOT_COORDINATOR). find and
// find_or_spawn give nothing for a group of another partition; `locate` tells who else
// coordinates it. A lookup that finds no __consumer_offsets topic in the view calls the
// topic creator (first use creates the topic, as in Kafka).
//
// A mutex, not copy on write as routing_table: group requests are a few per consumer and
// second (heartbeats), and a lookup may have to spawn.

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "actors/group_actor.hpp"
#include "cluster/group_coordinator_location.hpp"

namespace cafka {

class group_registry {
public:
  /// Spawns the actor of a new group.
  using spawn_function = std::function<group_actor(const std::string& group_id)>;
  /// Cluster mode: where the group's coordinator is, by the node's latest view.
  using locate_function = std::function<cluster::group_coordinator_location(const std::string& group_id)>;
  /// Cluster mode: the groups with committed offsets in this node's store.
  using stored_groups_function = std::function<std::vector<std::string>()>;

  explicit group_registry(spawn_function spawn) : spawn_(std::move(spawn)) {}

  /// Switches to cluster mode (before any group is spawned): groups are served per
  /// __consumer_offsets partition, none until serve_partition.
  void coordinate_by_partition(locate_function locate, stored_groups_function stored) {
    std::lock_guard<std::mutex> guard{mutex_};
    locate_ = std::move(locate);
    stored_ = std::move(stored);
  }

  /// Called (from any thread) when a lookup finds no __consumer_offsets topic.
  void set_topic_creator(std::function<void()> create) {
    std::lock_guard<std::mutex> guard{mutex_};
    create_topic_ = std::move(create);
  }

  /// Cluster mode: where `group_id`'s coordinator is; nullopt on a single node (this one
  /// coordinates every group).
  std::optional<cluster::group_coordinator_location> locate(const std::string& group_id) const {
    locate_function locate;
    std::function<void()> create;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      locate = locate_;
      create = create_topic_;
    }
    if (!locate)
      return std::nullopt;
    auto where = locate(group_id);
    if (!where.topic_exists() && create)
      create();
    return where;
  }

  /// Whether this node (broker `me`) coordinates the group now (always on a single node);
  /// `loading`: its view makes it the coordinator, but it does not serve the group's
  /// partition yet (loading its offsets: Kafka's COORDINATOR_LOAD_IN_PROGRESS).
  enum class coordination { here, loading, elsewhere };
  coordination coordination_of(const std::string& group_id, int32_t me) const {
    auto where = locate(group_id);
    if (!where)
      return coordination::here;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      if (where->topic_exists() && served_.count(where->partition) > 0)
        return coordination::here;
    }
    return where->topic_exists() && where->coordinator == me ? coordination::loading : coordination::elsewhere;
  }

  /// The group's actor, if it has one.
  std::optional<group_actor> find(const std::string& group_id) const {
    std::lock_guard<std::mutex> guard{mutex_};
    auto it = groups_.find(group_id);
    if (it == groups_.end())
      return std::nullopt;
    return it->second.actor;
  }

  /// The group's actor, spawned if it has none yet; nothing once closed, nor (cluster
  /// mode) for a group of a partition this node does not serve.
  std::optional<group_actor> find_or_spawn(const std::string& group_id) {
    auto where = locate(group_id);
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return std::nullopt;
    auto partition = where ? where->partition : -1;
    if (where && (!where->topic_exists() || served_.count(partition) == 0))
      return std::nullopt;
    auto it = groups_.find(group_id);
    if (it == groups_.end())
      it = groups_.emplace(group_id, entry{spawn_(group_id), partition}).first;
    return it->second.actor;
  }

  /// Cluster mode: this node now leads __consumer_offsets-`partition`; its groups with
  /// stored offsets get their actors (listed and described before anyone rejoins).
  void serve_partition(int32_t partition) {
    stored_groups_function stored;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      if (closed_ || !served_.insert(partition).second)
        return;
      stored = stored_;
    }
    if (!stored)
      return;
    for (auto& group_id : stored()) {
      auto where = locate(group_id);
      if (where && where->partition == partition)
        find_or_spawn(group_id);
    }
  }

  /// Cluster mode: this node no longer leads __consumer_offsets-`partition`; hands over the
  /// actors of its groups, for the caller to close.
  std::vector<group_actor> release_partition(int32_t partition) {
    std::lock_guard<std::mutex> guard{mutex_};
    served_.erase(partition);
    std::vector<group_actor> out;
    for (auto it = groups_.begin(); it != groups_.end();) {
      if (it->second.partition == partition) {
        out.push_back(it->second.actor);
        it = groups_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

  /// Forgets a group that DeleteGroups removed (if `actor` is still its actor).
  void erase(const std::string& group_id, const group_actor& actor) {
    std::lock_guard<std::mutex> guard{mutex_};
    auto it = groups_.find(group_id);
    if (it != groups_.end() && it->second.actor == actor)
      groups_.erase(it);
  }

  /// Every group and its actor, by group id (ListGroups).
  std::vector<std::pair<std::string, group_actor>> list() const {
    std::lock_guard<std::mutex> guard{mutex_};
    std::vector<std::pair<std::string, group_actor>> out;
    for (auto& [id, e] : groups_)
      out.emplace_back(id, e.actor);
    return out;
  }

  /// Stops spawning and hands over every group actor, for the caller to close.
  std::vector<group_actor> close() {
    std::lock_guard<std::mutex> guard{mutex_};
    closed_ = true;
    std::vector<group_actor> out;
    for (auto& [_, e] : groups_)
      out.push_back(e.actor);
    groups_.clear();
    served_.clear();
    return out;
  }

private:
  struct entry {
    group_actor actor;
    int32_t partition = -1; ///< its __consumer_offsets partition (cluster mode), else -1
  };

  spawn_function spawn_;
  locate_function locate_;
  stored_groups_function stored_;
  std::function<void()> create_topic_;
  mutable std::mutex mutex_;
  std::map<std::string, entry> groups_;
  std::set<int32_t> served_; ///< cluster mode: the __consumer_offsets partitions led here
  bool closed_ = false;
};

} // namespace cafka
