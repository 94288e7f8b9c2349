#pragma once
// The committed offsets of the groups this node coordinates, in memory: the state that the
// records of __consumer_offsets (cluster/offset_records.hpp) describe, rebuilt by applying
// them in log order, kept current by applying each new commit once it is appended.
//
// Expiry (offsets.retention.minutes), as Kafka >= 2.1 (KIP-211) does for groups without a
// subscription it can inspect; `now - base >= retention` removes an offset, where
//   - only the offsets of EMPTY groups expire (a group with members keeps all of them;
//     Kafka also expires a stable consumer group's offsets of topics it no longer
//     subscribes to, which needs the members' subscriptions and is not done here);
//   - an offset committed with an explicit retention (expire_timestamp_ms, OffsetCommit
//     v2-v4 with retention_time_ms) expires at that timestamp instead;
//   - base = when the group became empty, if the group actor knows it (Kafka's
//     currentStateTimestamp), else the offset's own commit timestamp: a group without a
//     live actor (a standalone consumer's commits, or a group not rejoined since this node
//     started) keeps each offset for retention after its last commit.
// The expired offsets come back as tombstones to append; the table changes only when they
// are applied, like any other update.
//
// Transactional commits (TxnOffsetCommit) are pending per producer id until the marker of its
// transaction: COMMIT applies them (in the order they were written), ABORT drops them, as
// Kafka's GroupMetadata.pendingTransactionalOffsetCommits. OffsetFetch does not see them.
//
// Superseded records: the log holds every record appended until the cleaner compacts it
// (storage/clean_job.hpp), the table only the last per key.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/offset_records.hpp"

namespace cafka::cluster {

/// A group's committed offset for one partition (OffsetFetch for all partitions).
struct partition_offset {
  std::string topic;
  int32_t partition = 0;
  committed_offset committed;
};

/// What expiry needs to know about a group, from its group actor.
struct group_expiry_state {
  bool empty = true; ///< no members
  std::optional<int64_t> empty_since_ms; ///< when it last became empty, if known
};

/// Asked once per group that has offsets.
using group_expiry_probe = std::function<group_expiry_state(const std::string& group)>;

class offset_table {
public:
  /// Stores a commit or removes the key for a tombstone, and counts the record as one more
  /// in the log.
  void apply(const offset_update& update);
  void apply(const std::vector<offset_update>& updates);
  /// Every step of a read of the log, in order: plain commits applied, transactional ones
  /// pending, markers completing them.
  void apply(const decoded_offset_batch& read);
  /// A transactional commit of `producer_id`, held until complete_pending.
  void add_pending(int64_t producer_id, const std::vector<offset_update>& updates);
  /// The marker of `producer_id`'s transaction: its pending commits applied (`commit`) or dropped.
  void complete_pending(int64_t producer_id, bool commit);
  /// Whether a transaction's commits are pending (the log must not be rewritten then: its
  /// snapshot holds only applied entries).
  bool has_pending() const noexcept { return !pending_.empty(); }

  /// The committed offset of one partition, or nullptr if there is none (OffsetFetch answers
  /// offset -1 then). Valid until the next apply().
  const committed_offset* find(const offset_key& key) const;
  /// Every committed offset of `group`, by topic then partition.
  std::vector<partition_offset> group_offsets(std::string_view group) const;
  /// The groups with at least one committed offset, sorted.
  std::vector<std::string> groups() const;
  bool has_group(std::string_view group) const;

  size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }

  /// Tombstones for the offsets that expire at `now_ms` with offsets.retention.minutes =
  /// `retention_ms` (see the top of this header), by key order. `group_state` is asked once
  /// per group. The caller appends them (encode_offset_batch) and then applies them.
  std::vector<offset_update> expired(int64_t now_ms, int64_t retention_ms,
                                     const group_expiry_probe& group_state) const;

  /// Records applied since construction (what the log held, before compaction).
  size_t log_records() const noexcept { return log_records_; }

private:
  /// Stores or removes `update`'s offset (no log count).
  void set(const offset_update& update);
  std::map<offset_key, committed_offset> entries_;
  std::map<int64_t, std::vector<offset_update>> pending_; ///< by producer id
  size_t log_records_ = 0;
};

} // namespace cafka::cluster
