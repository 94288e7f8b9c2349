#pragma once
// topic-partition -> partition actor, readable from any thread without a message to the
// broker actor: request paths (the Kafka listener, the retention cleaner) look up
// partitions here, so the broker actor is not on the per-request path.
//
// Copy on write: readers take an immutable snapshot; the broker actor, the only writer,
// publishes a new map on topic creation and deletion.

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "actors/partition_actor.hpp"

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

  /// Publishes `routes` as the new table.
  void publish(map_type routes) {
    auto next = std::make_shared<const map_type>(std::move(routes));
    std::lock_guard<std::mutex> guard{mutex_};
    current_ = std::move(next);
  }

private:
  mutable std::mutex mutex_;
  std::shared_ptr<const map_type> current_ = std::make_shared<const map_type>();
};

} // namespace cafka
