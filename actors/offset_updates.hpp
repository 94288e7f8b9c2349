#pragma once
// Between a group's commit (group_offset) and the records of __consumer_offsets
// (cluster::offset_update): shared by both offsets stores.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "actors/group_offset_store.hpp"
#include "cluster/offset_table.hpp"

namespace cafka {

inline cluster::offset_update to_offset_update(const std::string& group, const group_offset& o, int64_t now_ms) {
  cluster::committed_offset value;
  value.offset = o.offset;
  value.leader_epoch = o.leader_epoch;
  value.metadata = o.metadata;
  value.commit_timestamp_ms = now_ms;
  return cluster::offset_update{cluster::offset_key{group, o.tp.topic, o.tp.partition}, std::move(value)};
}

/// Tombstones for the committed offsets of `group`'s `partitions`.
inline std::vector<cluster::offset_update> tombstones_of(const std::string& group,
                                                         const std::vector<storage::topic_partition>& partitions) {
  std::vector<cluster::offset_update> out;
  out.reserve(partitions.size());
  for (auto& tp : partitions)
    out.push_back(cluster::offset_update{cluster::offset_key{group, tp.topic, tp.partition}, std::nullopt});
  return out;
}

inline group_offset to_group_offset(const std::string& topic, int32_t partition, const cluster::committed_offset& c) {
  return group_offset{storage::topic_partition{topic, partition}, c.offset, c.leader_epoch, c.metadata};
}

/// The committed offsets of `group` in `table` among those `query` names.
inline std::vector<group_offset> offsets_of(const cluster::offset_table& table, const std::string& group,
                                            const group_offset_query& query) {
  std::vector<group_offset> out;
  if (query.all) {
    for (auto& p : table.group_offsets(group))
      out.push_back(to_group_offset(p.topic, p.partition, p.committed));
    return out;
  }
  for (auto& tp : query.partitions)
    if (auto* c = table.find(cluster::offset_key{group, tp.topic, tp.partition}))
      out.push_back(to_group_offset(tp.topic, tp.partition, *c));
  return out;
}

/// The groups with committed offsets in any table of `partitions` (a map whose values have a
/// `table`), sorted, each once.
template <class PartitionMap>
std::vector<std::string> groups_in(const PartitionMap& partitions) {
  std::vector<std::string> out;
  for (auto& [_, ps] : partitions)
    for (auto& g : ps.table.groups())
      out.push_back(g);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// The committed offsets held in all tables of `partitions`.
template <class PartitionMap>
size_t offsets_in(const PartitionMap& partitions) {
  size_t n = 0;
  for (auto& [_, ps] : partitions)
    n += ps.table.size();
  return n;
}

} // namespace cafka
