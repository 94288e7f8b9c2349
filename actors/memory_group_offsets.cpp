#include "actors/memory_group_offsets.hpp"

#include <utility>

namespace cafka {

void memory_group_offsets::commit(std::vector<group_offset> offsets, int64_t, commit_done done) {
  for (auto& o : offsets) {
    auto tp = o.tp;
    offsets_[tp] = std::move(o);
  }
  done(protocol::kafka_error::none);
}

// A map has no transactions to keep commits pending in: refused, not applied at once.
void memory_group_offsets::commit_txn(int64_t, int16_t, std::vector<group_offset>, int64_t, commit_done done) {
  done(protocol::kafka_error::coordinator_not_available);
}

void memory_group_offsets::remove(std::vector<storage::topic_partition> partitions, int64_t, commit_done done) {
  for (auto& tp : partitions)
    offsets_.erase(tp);
  done(protocol::kafka_error::none);
}

void memory_group_offsets::fetch(const group_offset_query& query, fetch_done done) {
  std::vector<group_offset> out;
  if (query.all) {
    for (auto& [_, o] : offsets_)
      out.push_back(o);
  } else {
    for (auto& tp : query.partitions)
      if (auto it = offsets_.find(tp); it != offsets_.end())
        out.push_back(it->second);
  }
  done(std::move(out));
}

} // namespace cafka
