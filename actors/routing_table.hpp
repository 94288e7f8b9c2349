#pragma once
// topic-partition -> partition actor, readable from any thread without a message to the
// broker actor: request paths (the Kafka listener, the retention cleaner) look up
// partitions here, so the broker actor is not on the per-request path.
//
// Copy on write: readers take an immutable snapshot; the broker actor, the only writer,
// publishes a new map on topic creation and deletion.
//
// In a cluster the table also knows the partitions that exist but are led by another
// broker (or by nobody right now), so that a request for one is answered
// NOT_LEADER_OR_FOLLOWER rather than UNKNOWN_TOPIC_OR_PARTITION (miss_error), and every
// local replica, followers included (replicas(): what the retention cleaner works on).

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "actors/partition_actor.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka {

class routing_table {
public:
  using map_type = std::map<topic_partition, partition_actor>;

  std::shared_ptr<const map_type> snapshot() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return current_;
  }

  std::optional<partition_actor> find(const topic_partition& tp) const {
    auto snap = snapshot();
    auto it = snap->find(tp);
    if (it == snap->end())
      return std::nullopt;
    return it->second;
  }

  /// Every local replica: the routes and the followers.
  std::shared_ptr<const map_type> replicas() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return replicas_;
  }

  /// Every partition led here, the internal __consumer_offsets ones included: what
  /// followers fetch from (clients are not routed to the internal ones).
  std::shared_ptr<const map_type> leaders() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return leaders_;
  }

  /// Every local replica, the internal ones included (what a crash of the node kills).
  std::shared_ptr<const map_type> all_replicas() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return everything_;
  }

  /// Publishes `routes` as the new table; `elsewhere`: partitions that exist in the
  /// cluster but are not served here (a single node has none); `followers`: the local
  /// replicas led elsewhere; `internal_leaders` and `internal_followers`: the replicas of
  /// internal partitions, led here or elsewhere (neither routed to nor under retention).
  void publish(map_type routes, std::set<topic_partition> elsewhere = {}, map_type followers = {},
               map_type internal_leaders = {}, const map_type& internal_followers = {}) {
    followers.insert(routes.begin(), routes.end());
    internal_leaders.insert(routes.begin(), routes.end());
    auto every = followers;
    every.insert(internal_leaders.begin(), internal_leaders.end());
    every.insert(internal_followers.begin(), internal_followers.end());
    auto everything = std::make_shared<const map_type>(std::move(every));
    auto all = std::make_shared<const map_type>(std::move(followers));
    auto led = std::make_shared<const map_type>(std::move(internal_leaders));
    auto next = std::make_shared<const map_type>(std::move(routes));
    auto others = std::make_shared<const std::set<topic_partition>>(std::move(elsewhere));
    std::lock_guard<std::mutex> guard{mutex_};
    current_ = std::move(next);
    elsewhere_ = std::move(others);
    replicas_ = std::move(all);
    leaders_ = std::move(led);
    everything_ = std::move(everything);
  }

  /// The error for a partition that has no route here: not_leader_or_follower if the
  /// cluster has it elsewhere, else unknown_topic_or_partition.
  protocol::kafka_error miss_error(const topic_partition& tp) const {
    std::shared_ptr<const std::set<topic_partition>> others;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      others = elsewhere_;
    }
    return others->count(tp) > 0 ? protocol::kafka_error::not_leader_or_follower
                                 : protocol::kafka_error::unknown_topic_or_partition;
  }

private:
  mutable std::mutex mutex_;
  std::shared_ptr<const map_type> current_ = std::make_shared<const map_type>();
  std::shared_ptr<const map_type> replicas_ = std::make_shared<const map_type>();
  std::shared_ptr<const map_type> leaders_ = std::make_shared<const map_type>();
  std::shared_ptr<const map_type> everything_ = std::make_shared<const map_type>();
  std::shared_ptr<const std::set<topic_partition>> elsewhere_ = std::make_shared<const std::set<topic_partition>>();
};

} // namespace cafka
