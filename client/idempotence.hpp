#pragma once
// The idempotent producer's pure parts (producer_actor.hpp, "Idempotence"): numbering batches
// per partition, writing the numbering into a batch, what a produce error means for it, and
// the aborted-transaction filter of a read_committed consumer. No actors, no clocks.

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "client/accumulator.hpp"
#include "protocol/kafka_error.hpp"
#include "storage/aborted_txn_index.hpp"

namespace cafka::client {

/// A producer id and epoch from InitProducerId; id -1 = none yet.
struct producer_identity {
  int64_t id = -1;
  int16_t epoch = -1;
  bool valid() const noexcept { return id >= 0; }
};

/// Writes producer id, epoch and base sequence (and the transactional attribute) into the
/// v2 batch `bytes` and recomputes its CRC (all of them are covered by it).
void write_producer_fields(std::vector<char>& bytes, int64_t producer_id, int16_t producer_epoch,
                           int32_t base_sequence, bool transactional);

/// Each partition's next sequence under the current producer identity.
class batch_numbering {
public:
  /// Numbers `b` (its fields and its bytes) with its partition's next sequence; sequences
  /// wrap from INT32_MAX to 0 as Kafka's do.
  void number(sealed_batch& b, const producer_identity& who, bool transactional);
  /// A new identity: every partition starts at 0 again.
  void reset() { next_.clear(); }
  int32_t next(const storage::topic_partition& tp) const;

private:
  std::map<storage::topic_partition, int32_t> next_;
};

/// What a produce error means to an idempotent producer.
enum class sequence_outcome {
  other,     ///< not about the numbering: retried or failed as for any producer
  duplicate, ///< DUPLICATE_SEQUENCE_NUMBER: the batch is already written (offset unknown)
  broken,    ///< the leader cannot take the numbering (out of order, unknown producer,
             ///< old epoch): the batch fails and later ones need a new identity
  fenced,    ///< PRODUCER_FENCED (and, for a transactional producer, INVALID_PRODUCER_EPOCH)
};

sequence_outcome classify_produce_error(protocol::kafka_error e, bool transactional) noexcept;

/// What an answer of the transaction coordinator (a Kafka error code) means.
enum class coordinator_outcome {
  done,      ///< 0
  retry,     ///< ask again after a backoff (concurrent transactions, loading, ...)
  relocate,  ///< ask again, after looking the coordinator up again
  fenced,    ///< fatal: another producer took the transactional id
  failed,    ///< fatal for this call (invalid state, ...)
};

coordinator_outcome classify_coordinator_code(int16_t code) noexcept;

/// read_committed: which batches belong to aborted transactions, walking a fetch result's
/// batches in offset order with the broker's aborted list (Kafka's consumer does the same):
/// a producer's transactional batches are dropped from the first offset of its aborted
/// transaction up to its ABORT marker.
class aborted_filter {
public:
  explicit aborted_filter(std::vector<storage::aborted_range> aborted);
  /// Whether the batch starting at `base_offset` is to be skipped. Batches must come in
  /// offset order; control batches are passed as well (an ABORT marker ends the range).
  bool skip(int64_t base_offset, int64_t producer_id, bool transactional, bool control, bool abort_marker);

private:
  std::vector<storage::aborted_range> pending_; ///< by first_offset, descending (next at back)
  std::set<int64_t> aborting_;
};

} // namespace cafka::client
