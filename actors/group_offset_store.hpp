#pragma once
// Where a group actor keeps its group's committed offsets: in __consumer_offsets on a
// node (actors/persistent_group_offsets.hpp), or in memory (actors/memory_group_offsets.hpp,
// tests). Both calls complete through a callback so that a store which
// must append to a log first can answer later; the in-memory one answers at once. Called
// only from the group actor, one call at a time.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "protocol/kafka_error.hpp"
#include "storage/topic_partition.hpp"

namespace cafka {

/// One partition's committed offset (OffsetCommit stores it, OffsetFetch returns it).
struct group_offset {
  storage::topic_partition tp;
  int64_t offset = -1;       ///< may be negative: kafkajs commits -1/-2 as markers
  int32_t leader_epoch = -1; ///< -1 = unknown
  std::string metadata;      ///< a null metadata is stored as "" (Kafka's NoMetadata)
};

/// The partitions OffsetFetch asks for: every committed one, or the listed ones.
struct group_offset_query {
  bool all = false;
  std::vector<storage::topic_partition> partitions;
};

class group_offset_store {
public:
  using commit_done = std::function<void(protocol::kafka_error)>;
  using fetch_done = std::function<void(std::vector<group_offset>)>;

  virtual ~group_offset_store() = default;

  /// Stores `offsets` (a later commit of a partition replaces the earlier one), then calls
  /// `done` with none, or the error that kept all of them from being stored.
  virtual void commit(std::vector<group_offset> offsets, int64_t now_ms, commit_done done) = 0;

  /// TxnOffsetCommit: `offsets` pending in the transaction of `producer_id` (at
  /// `producer_epoch`) until its marker; `done` as commit does.
  virtual void commit_txn(int64_t producer_id, int16_t producer_epoch, std::vector<group_offset> offsets,
                          int64_t now_ms, commit_done done) = 0;

  /// Removes the committed offsets of `partitions`, then calls `done` as commit does.
  virtual void remove(std::vector<storage::topic_partition> partitions, int64_t now_ms, commit_done done) = 0;

  /// Calls `done` with the committed offsets of the partitions `query` names that have one
  /// (the caller answers -1 for the others): in the order asked, or by topic and partition
  /// for all.
  virtual void fetch(const group_offset_query& query, fetch_done done) = 0;
};

} // namespace cafka
