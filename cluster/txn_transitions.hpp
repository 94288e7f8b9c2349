#pragma once
// A transaction coordinator's decisions, as values (Kafka's TransactionCoordinator and
// TransactionMetadata, AK 3.6 before KIP-890): given what the coordinator knows of a
// transactional id and a request, what to answer and which new state to write to
// __transaction_state first. The actor (actors/txn_coordinator.hpp) writes, waits for the
// write, then applies the state and answers; after a Prepare* state it writes the markers to
// every partition of the transaction and then the Complete* state (complete_txn).
//
// Errors are Kafka's: INVALID_TRANSACTION_TIMEOUT, CONCURRENT_TRANSACTIONS (another change is
// being written, or markers are being written), INVALID_PRODUCER_ID_MAPPING,
// PRODUCER_FENCED (the caller maps it to INVALID_PRODUCER_EPOCH for clients below the
// versions that know it), INVALID_TXN_STATE.

#include <cstdint>
#include <optional>
#include <string>

#include "cluster/txn_metadata.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

/// What to do: answer `error` (with the producer id and epoch for InitProducerId), after
/// writing `write` when there is one.
struct txn_step {
  protocol::kafka_error error = protocol::kafka_error::none;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::optional<txn_metadata> write;
};

/// Kafka's RecordBatch.NO_PRODUCER_EPOCH and the last epoch before a new id is needed
/// (TransactionMetadata.isEpochExhausted: Short.MaxValue - 1).
inline constexpr int16_t max_txn_epoch = 32766;

/// Whether init_txn_producer needs a fresh producer id (an unknown or expired id, or an
/// epoch about to be exhausted): the caller gets one first (they come asynchronously).
bool txn_needs_new_producer_id(const std::optional<txn_metadata>& known) noexcept;

/// InitProducerId with a transactional id. `known`: the id's metadata, if any; `busy`: a
/// write for it is in flight. `producer_id`/`producer_epoch`: the client's current ones
/// (v3+, KIP-360), -1 for none. `fresh_id`: when txn_needs_new_producer_id said so.
///  - unknown id: the fresh id at epoch 0, Empty;
///  - Ongoing: fenced: the epoch bumped and the transaction aborted (the write is PrepareAbort
///    at the new epoch), answered CONCURRENT_TRANSACTIONS so that the client retries;
///  - Prepare*: CONCURRENT_TRANSACTIONS;
///  - Empty / Complete*: the epoch bumped (the fresh id at epoch 0 once exhausted), Empty; a
///    KIP-360 retry of the last bump gets the current id and epoch without a write; another
///    id or epoch than the current ones is PRODUCER_FENCED.
txn_step init_txn_producer(const std::optional<txn_metadata>& known, bool busy, int32_t timeout_ms,
                           int32_t max_timeout_ms, int64_t producer_id, int16_t producer_epoch, int64_t now_ms,
                           int64_t fresh_id);

/// AddPartitionsToTxn / AddOffsetsToTxn (the group's __consumer_offsets partition): Ongoing with
/// the union of the partitions (a new transaction starts now); nothing is written when all
/// are in it already.
txn_step add_txn_partitions(const std::optional<txn_metadata>& known, bool busy, int64_t producer_id,
                            int16_t producer_epoch, const txn_partitions& partitions, int64_t now_ms);

/// EndTxn: from Ongoing to PrepareCommit or PrepareAbort (answered once that is written; the
/// markers follow). A retry after the end is answered without a write.
txn_step end_txn(const std::optional<txn_metadata>& known, bool busy, int64_t producer_id, int16_t producer_epoch,
                 bool commit, int64_t now_ms);

/// A transaction open longer than its timeout: fenced and aborted as init_txn_producer fences
/// (Kafka's abortTimedOutTransactions); nothing when it is not due.
std::optional<txn_metadata> abort_if_timed_out(const txn_metadata& m, int64_t now_ms);

/// After the markers of a Prepare* state are written: CompleteCommit or CompleteAbort, no
/// partitions.
txn_metadata complete_txn(const txn_metadata& prepared, int64_t now_ms);

} // namespace cafka::cluster
