#pragma once
// A group's committed offsets in a map, lost at shutdown: what cafka keeps until the
// offsets are stored in __consumer_offsets.

#include <map>
#include <memory>

#include "actors/group_offset_store.hpp"

namespace cafka {

class memory_group_offsets final : public group_offset_store {
public:
  void commit(std::vector<group_offset> offsets, int64_t now_ms, commit_done done) override;
  void commit_txn(int64_t producer_id, int16_t producer_epoch, std::vector<group_offset> offsets, int64_t now_ms,
                  commit_done done) override;
  void remove(std::vector<storage::topic_partition> partitions, int64_t now_ms, commit_done done) override;
  void fetch(const group_offset_query& query, fetch_done done) override;

private:
  std::map<storage::topic_partition, group_offset> offsets_;
};

} // namespace cafka
