#pragma once
// Where a node keeps every group's committed offsets: the interface the group actors
// (through persistent_group_offsets), the offsets expirer and the group registry use. Two
// implementations:
//   - offset_log_store: a single node; it owns the __consumer_offsets logs itself;
//   - replicated_offsets: cluster mode; __consumer_offsets partitions are replicated
//     partitions (partition actors, replica fetchers), and a commit is answered once the
//     in-sync replicas have it (docs/replication.md, "__consumer_offsets").

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "actors/group_offset_store.hpp"
#include "cluster/offset_table.hpp"
#include "protocol/kafka_error.hpp"
#include "protocol/result.hpp"

namespace cafka {

class offsets_store {
public:
  using commit_done = std::function<void(protocol::kafka_error)>;

  virtual ~offsets_store() = default;

  /// Stores `offsets` of `group`, then calls `done` (maybe later, from another thread) with
  /// none, or the error that kept all of them from being stored.
  virtual void commit(const std::string& group, std::vector<group_offset> offsets, int64_t now_ms,
                      commit_done done) = 0;
  /// Removes the committed offsets of `group`'s `partitions` (tombstones; DeleteGroups,
  /// OffsetDelete), then calls `done` as commit does.
  virtual void remove(const std::string& group, const std::vector<storage::topic_partition>& partitions,
                      int64_t now_ms, commit_done done) = 0;
  /// TxnOffsetCommit: `offsets` of `group` appended as one transactional batch of
  /// `producer_id` at `producer_epoch`, pending until that transaction's marker (offset_table);
  /// then `done` as commit does (INVALID_PRODUCER_EPOCH when a newer epoch wrote there).
  virtual void commit_txn(const std::string& group, int64_t producer_id, int16_t producer_epoch,
                          std::vector<group_offset> offsets, int64_t now_ms, commit_done done) = 0;
  /// A transaction coordinator's marker for __consumer_offsets-`partition`: written (as the
  /// partition's leader writes markers), then the producer's pending commits applied (`commit`)
  /// or dropped; `done` with none or why not (the coordinator sends it again).
  virtual void write_txn_marker(int32_t partition, int64_t producer_id, int16_t producer_epoch, bool commit,
                                int32_t coordinator_epoch, int64_t now_ms, commit_done done) = 0;
  /// The __consumer_offsets partition of `group` (-1 while the topic does not exist).
  virtual int32_t partition_of(const std::string& group) const = 0;
  /// The committed offsets of `group` among those `query` names (see group_offset_store).
  virtual std::vector<group_offset> fetch(const std::string& group, const group_offset_query& query) const = 0;
  /// The groups with committed offsets that this node holds (and, in a cluster, serves), sorted.
  virtual std::vector<std::string> groups() const = 0;
  /// Removes the offsets that expired at `now_ms` (offset_table::expired); returns how many
  /// expired (in a cluster: how many tombstones were sent to be replicated).
  virtual result<size_t> expire(int64_t now_ms, int64_t retention_ms, const cluster::group_expiry_probe& probe) = 0;
};

} // namespace cafka
