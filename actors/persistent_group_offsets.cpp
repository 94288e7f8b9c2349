#include "actors/persistent_group_offsets.hpp"

#include <utility>

namespace cafka {

void persistent_group_offsets::commit(std::vector<group_offset> offsets, int64_t now_ms, commit_done done) {
  store_->commit(group_, std::move(offsets), wall_ms_ ? wall_ms_() : now_ms, std::move(done));
}

void persistent_group_offsets::commit_txn(int64_t producer_id, int16_t producer_epoch,
                                          std::vector<group_offset> offsets, int64_t now_ms, commit_done done) {
  store_->commit_txn(group_, producer_id, producer_epoch, std::move(offsets), wall_ms_ ? wall_ms_() : now_ms,
                     std::move(done));
}

void persistent_group_offsets::remove(std::vector<storage::topic_partition> partitions, int64_t now_ms,
                                      commit_done done) {
  store_->remove(group_, partitions, wall_ms_ ? wall_ms_() : now_ms, std::move(done));
}

void persistent_group_offsets::fetch(const group_offset_query& query, fetch_done done) {
  done(store_->fetch(group_, query));
}

} // namespace cafka
