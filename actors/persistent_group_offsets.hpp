#pragma once
// One group's view of the node's offsets_store: what a group actor is given as its
// group_offset_store. A commit is answered once its batch is in __consumer_offsets (in a
// cluster: on every in-sync replica of the group's partition).

#include <functional>
#include <memory>
#include <string>

#include "actors/group_offset_store.hpp"
#include "actors/offsets_store.hpp"

namespace cafka {

class persistent_group_offsets final : public group_offset_store {
public:
  /// `wall_ms` stamps the commits (milliseconds since the epoch): the group actor's time is
  /// its actor clock, which does not survive a restart, and expiry compares commit
  /// timestamps across restarts.
  persistent_group_offsets(std::string group, std::shared_ptr<offsets_store> store,
                           std::function<int64_t()> wall_ms)
      : group_(std::move(group)), store_(std::move(store)), wall_ms_(std::move(wall_ms)) {}

  void commit(std::vector<group_offset> offsets, int64_t now_ms, commit_done done) override;
  void commit_txn(int64_t producer_id, int16_t producer_epoch, std::vector<group_offset> offsets, int64_t now_ms,
                  commit_done done) override;
  void remove(std::vector<storage::topic_partition> partitions, int64_t now_ms, commit_done done) override;
  void fetch(const group_offset_query& query, fetch_done done) override;

private:
  std::string group_;
  std::shared_ptr<offsets_store> store_;
  std::function<int64_t()> wall_ms_;
};

} // namespace cafka
