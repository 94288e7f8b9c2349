#pragma once
// The latest cluster view a broker loaded (cluster/cluster_view.hpp), shared between the
// cluster member actor (actors/cluster_member.hpp), its only writer, and the node actor,
// which reads it to answer metadata and to open or close its partitions. The view is
// not a network message type, so it travels through this shared slot and the node actor
// is only told "the view changed".
//
// Copy on write, like routing_table: readers take an immutable snapshot.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "cluster/cluster_loader.hpp"

namespace cafka {

class cluster_view_cache {
public:
  using value_type = cluster::loaded_view;

  /// The latest view; an empty view before the first load.
  std::shared_ptr<const value_type> snapshot() const {
    std::lock_guard<std::mutex> guard{mutex_};
    return current_;
  }

  void publish(value_type view) {
    auto next = std::make_shared<const value_type>(std::move(view));
    std::lock_guard<std::mutex> guard{mutex_};
    current_ = std::move(next);
  }

  /// The epoch this broker acts as controller at, 0 when it does not (set by the member; read
  /// by tests that check that no two brokers act as controller at once).
  int32_t acting_controller_epoch() const { return acting_epoch_.load(); }
  void set_acting_controller_epoch(int32_t epoch) { acting_epoch_.store(epoch); }

private:
  std::atomic<int32_t> acting_epoch_{0};
  mutable std::mutex mutex_;
  std::shared_ptr<const value_type> current_ = std::make_shared<const value_type>();
};

} // namespace cafka
