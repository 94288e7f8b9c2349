#pragma once
// The idempotent producer state of one partition, as a value: for each producer id its
// epoch and its last (at most 5) batches, so that the leader can refuse a batch that is
// out of sequence or from a fenced epoch, and answer a retried batch with the offsets it
// already got instead of appending it twice. Kafka's ProducerStateManager without the
// transactions and the files (replication-notes.md §6).
//
// Who calls what:
//   leader, client batch:  check() -> append the batch (offsets assigned) -> record()
//   follower, recovery:    record() only (Kafka's REPLICATION origin: no checks)
//   follower truncation:   truncate_from(new log end)
//   periodically:          expire(now, producer.id.expiration.ms)
//   segment roll / close:  encode_producer_snapshot() into <state end offset>.snapshot
//
// The log start moving (retention, DeleteRecords) leaves the state alone: since AK@2.4.0
// (KIP-360, KAFKA-7190) Kafka keeps producers whose data is gone until they expire, so
// that a quiet producer does not lose its dedupe window and fencing; before that
// (ProducerStateManager.truncateHead) it dropped producers whose last offset fell below
// the log start. Hence there is no truncate_before().
//
// Transactions (Kafka's ProducerAppendInfo.appendDataBatch / appendEndTxnMarker): a
// producer's first transactional batch opens its transaction at that batch's base offset; a
// transaction marker (protocol/control_batch.hpp) closes it and returns it as completed_txn.
// The open transactions decide the partition's last stable offset (last_stable_offset()).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::storage {

/// One appended batch of a producer (Kafka's BatchMetadata).
struct producer_batch {
  int32_t first_seq = 0;
  int32_t last_seq = 0;
  int64_t first_offset = 0;
  int64_t last_offset = 0;
  int64_t timestamp = -1; ///< the batch's max timestamp, as stored
  friend bool operator==(const producer_batch& a, const producer_batch& b) {
    return a.first_seq == b.first_seq && a.last_seq == b.last_seq && a.first_offset == b.first_offset
           && a.last_offset == b.last_offset && a.timestamp == b.timestamp;
  }
  friend bool operator!=(const producer_batch& a, const producer_batch& b) { return !(a == b); }
};

/// Kafka's ProducerStateEntry: the epoch and the last (at most 5) batches of that epoch,
/// newest last. An entry may have no batches (only when loaded from a snapshot entry
/// without data, last offset -1): then only sequence 0 continues it, as in Kafka.
struct producer_entry {
  int16_t epoch = -1;
  std::deque<producer_batch> batches;
  int64_t last_timestamp = -1; ///< max timestamp of the last batch: what expiry looks at
  /// The epoch of the coordinator that wrote its last marker (-1: none yet).
  int32_t coordinator_epoch = -1;
  /// The first offset of its open transaction; -1 when none is open.
  int64_t txn_first_offset = -1;
  friend bool operator==(const producer_entry& a, const producer_entry& b) {
    return a.epoch == b.epoch && a.batches == b.batches && a.last_timestamp == b.last_timestamp
           && a.coordinator_epoch == b.coordinator_epoch && a.txn_first_offset == b.txn_first_offset;
  }
  friend bool operator!=(const producer_entry& a, const producer_entry& b) { return !(a == b); }
};

/// The leader's verdict on a client batch or a marker; the Kafka error codes are the caller's
/// mapping (out_of_order_sequence 45, invalid_producer_epoch 47, invalid_txn_state 48,
/// coordinator_fenced 52 TRANSACTION_COORDINATOR_FENCED).
enum class producer_check {
  append,
  duplicate,
  out_of_order_sequence,
  invalid_producer_epoch,
  invalid_txn_state,
  coordinator_fenced
};

struct producer_verdict {
  producer_check outcome = producer_check::append;
  /// For duplicate: the cached batch, whose first_offset is the base offset to answer
  /// (and timestamp the log append time, under LogAppendTime).
  producer_batch original;
};

/// A transaction a marker ended: its producer, its first offset, the marker's offset.
struct completed_txn {
  int64_t producer_id = -1;
  int64_t first_offset = 0;
  int64_t last_offset = 0;
  bool aborted = false;
};

/// Kafka's DefaultRecordBatch.incrementSequence: `seq + delta`, wrapping past INT32_MAX to 0.
int32_t increment_sequence(int32_t seq, int32_t delta) noexcept;
/// Kafka's DefaultRecordBatch.decrementSequence: the inverse of increment_sequence.
int32_t decrement_sequence(int32_t seq, int32_t delta) noexcept;
/// The sequence of a batch's last record; -1 (NO_SEQUENCE) stays -1.
int32_t last_sequence(const protocol::batch_header& h) noexcept;

class producer_state {
public:
  /// Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN (= max.in.flight of an idempotent client).
  static constexpr size_t batches_kept = 5;

  /// The leader's check of a client's data batch, from its header alone (Kafka's
  /// UnifiedLog.analyzeAndValidateProducerState, then ProducerAppendInfo checkProducerEpoch
  /// and checkSequence), in Kafka's order:
  ///  - no producer id (< 0), or a control batch (the caller refuses those from clients): append;
  ///  - same epoch as the entry and (first, last) sequence equal to a cached batch: duplicate;
  ///  - epoch below the entry's: invalid_producer_epoch;
  ///  - a new epoch: base sequence must be 0;
  ///  - same epoch: base sequence must be the last one + 1 (INT32_MAX -> 0);
  ///  - no entry (new or expired producer): any sequence (KIP-360, AK@2.5.0+);
  ///  - a non-transactional batch while the producer's transaction is open: invalid_txn_state.
  producer_verdict check(const protocol::batch_header& h) const;

  /// The leader's check of a marker the coordinator sends (appendEndTxnMarker): an epoch below
  /// the producer's is invalid_producer_epoch, a coordinator epoch below the last marker's
  /// coordinator_fenced; else append (also for an unknown producer).
  producer_check check_marker(int64_t producer_id, int16_t producer_epoch, int32_t coordinator_epoch) const;

  /// Records a batch that was appended, with its final base_offset and as stored (max
  /// timestamp after LogAppendTime): the leader after check(), a follower's replicated batch,
  /// recovery's scan. Takes the batch's epoch as is (a new one, even a lower one from
  /// replication, clears the cached batches: ProducerStateEntry.maybeUpdateProducerEpoch);
  /// keeps the newest batches_kept. Ignores control batches and batches without a producer id.
  /// A transactional batch of a producer without an open transaction opens one.
  void record(const protocol::batch_header& h);

  /// Records a marker appended at `offset` (any origin, no checks): the producer's transaction
  /// is closed and returned if one was open (a marker of an empty transaction completes
  /// nothing); the entry takes the marker's epochs and timestamp.
  std::optional<completed_txn> record_marker(int64_t producer_id, int16_t producer_epoch, int32_t coordinator_epoch,
                                             bool commit, int64_t offset, int64_t timestamp);

  /// The first offset of the earliest open transaction, if any.
  std::optional<int64_t> first_open_txn_offset() const;
  /// What an aborted-transaction entry records as its last stable offset when `txn` ends
  /// (Kafka's ProducerStateManager.lastStableOffset(completedTxn)): the earliest open
  /// transaction of another producer, else the marker's offset + 1. Call before record_marker.
  int64_t last_stable_offset_after(const completed_txn& txn) const;

  /// Drops producers idle for producer.id.expiration.ms: now - last_timestamp >= expiration
  /// (ProducerStateManager.isProducerExpired); producers with an open transaction stay.
  /// Returns how many were dropped.
  size_t expire(int64_t now_ms, int64_t expiration_ms);

  /// Ascending producer id.
  const std::map<int64_t, producer_entry>& entries() const noexcept { return entries_; }
  bool empty() const noexcept { return entries_.empty(); }

  friend bool operator==(const producer_state& a, const producer_state& b) { return a.entries_ == b.entries_; }
  friend bool operator!=(const producer_state& a, const producer_state& b) { return !(a == b); }

private:
  friend result<producer_state> decode_producer_snapshot(std::string_view bytes);

  std::map<int64_t, producer_entry> entries_;
  /// (txn_first_offset, producer id) of every open transaction: the earliest first.
  std::set<std::pair<int64_t, int64_t>> open_txns_;
};

/// Kafka's <offset>.snapshot file (ProducerStateManager.writeSnapshot), big-endian:
///
///   0 version i16 (= 1)   2 crc u32, CRC-32C of bytes [6, end)   6 count i32
///  10 count x 46 bytes: producer_id i64, epoch i16, last_sequence i32, last_offset i64,
///     offset_delta i32, timestamp i64, coordinator_epoch i32, current_txn_first_offset i64
///
/// Only the newest batch of each producer fits (so after loading, the dedupe window is one
/// batch until refilled). A producer without batches is written as Kafka does:
/// last_sequence -1, last_offset -1, offset_delta 0.
std::string encode_producer_snapshot(const producer_state& s);

/// The inverse (ProducerStateManager.readSnapshot): an entry with last_offset < 0 loads
/// without batches. Does not drop expired
/// producers (Kafka's load does: call expire() afterwards). Fails with
/// errc::corrupt_checkpoint on a version other than 1, a CRC mismatch, a negative count, a
/// length other than 10 + 46 x count, an offset delta outside [0, last_offset], or a
/// producer id listed twice.
result<producer_state> decode_producer_snapshot(std::string_view bytes);

} // namespace cafka::storage
