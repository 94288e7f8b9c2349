#include "cluster/txn_transitions.hpp"

namespace cafka::cluster {

namespace {

using protocol::kafka_error;

txn_step fail(kafka_error e) { return txn_step{e, -1, -1, std::nullopt}; }

// The producer is the one the coordinator knows (Kafka's TransactionCoordinator checks the id
// first, then the epoch).
std::optional<txn_step> check_producer(const std::optional<txn_metadata>& known, int64_t producer_id,
                                       int16_t producer_epoch) {
  if (!known || known->status == txn_status::dead || known->producer_id != producer_id)
    return fail(kafka_error::invalid_producer_id_mapping);
  if (known->producer_epoch != producer_epoch)
    return fail(kafka_error::producer_fenced);
  return std::nullopt;
}

// The transaction aborted by a newer epoch (TransactionMetadata.prepareFenceProducerEpoch,
// then prepareAbortOrCommit): what is written is PrepareAbort at the bumped epoch. An exhausted
// epoch aborts at the last one (Kafka does the same: the next InitProducerId takes a new id).
txn_metadata fenced_abort(const txn_metadata& m, int64_t now_ms) {
  auto next = m;
  if (m.producer_epoch < max_txn_epoch) {
    next.last_producer_id = m.producer_id;
    next.last_producer_epoch = m.producer_epoch;
    next.producer_epoch = static_cast<int16_t>(m.producer_epoch + 1);
  }
  next.status = txn_status::prepare_abort;
  next.last_update_ms = now_ms;
  return next;
}

} // namespace

bool txn_needs_new_producer_id(const std::optional<txn_metadata>& known) noexcept {
  return !known || known->status == txn_status::dead || known->producer_epoch >= max_txn_epoch;
}

txn_step init_txn_producer(const std::optional<txn_metadata>& known, bool busy, int32_t timeout_ms,
                           int32_t max_timeout_ms, int64_t producer_id, int16_t producer_epoch, int64_t now_ms,
                           int64_t fresh_id) {
  if (timeout_ms <= 0 || timeout_ms > max_timeout_ms)
    return fail(kafka_error::invalid_transaction_timeout);
  if ((producer_id < 0) != (producer_epoch < 0))
    return fail(kafka_error::invalid_request);
  if (!known || known->status == txn_status::dead) {
    txn_metadata m;
    m.producer_id = fresh_id;
    m.producer_epoch = 0;
    m.timeout_ms = timeout_ms;
    m.status = txn_status::empty;
    m.last_update_ms = now_ms;
    return txn_step{kafka_error::none, m.producer_id, m.producer_epoch, m};
  }
  auto& m = *known;
  if (busy || m.in_prepare())
    return fail(kafka_error::concurrent_transactions);
  if (m.status == txn_status::ongoing) {
    return txn_step{kafka_error::concurrent_transactions, -1, -1, fenced_abort(m, now_ms)};
  }
  // Empty or Complete*: KIP-360 checks of the id and epoch the client names (Kafka's
  // isValidProducerId, then prepareIncrementProducerEpoch).
  if (producer_id >= 0) {
    bool rotated_retry = producer_id == m.last_producer_id && producer_id != m.producer_id
                         && producer_epoch >= max_txn_epoch; // the bump that took a new id
    if (rotated_retry)
      return txn_step{kafka_error::none, m.producer_id, m.producer_epoch, std::nullopt};
    if (producer_id != m.producer_id)
      return fail(kafka_error::producer_fenced);
    if (producer_epoch != m.producer_epoch) {
      if (producer_epoch == m.last_producer_epoch && m.last_producer_epoch >= 0) // a retry of the last bump
        return txn_step{kafka_error::none, m.producer_id, m.producer_epoch, std::nullopt};
      return fail(kafka_error::producer_fenced);
    }
  }
  auto next = m;
  next.last_producer_id = m.producer_id;
  next.last_producer_epoch = m.producer_epoch;
  if (m.producer_epoch >= max_txn_epoch) {
    next.producer_id = fresh_id;
    next.producer_epoch = 0;
  } else {
    next.producer_epoch = static_cast<int16_t>(m.producer_epoch + 1);
  }
  next.timeout_ms = timeout_ms;
  next.status = txn_status::empty;
  next.partitions.clear();
  next.start_ms = -1;
  next.last_update_ms = now_ms;
  return txn_step{kafka_error::none, next.producer_id, next.producer_epoch, next};
}

txn_step add_txn_partitions(const std::optional<txn_metadata>& known, bool busy, int64_t producer_id,
                            int16_t producer_epoch, const txn_partitions& partitions, int64_t now_ms) {
  if (auto refused = check_producer(known, producer_id, producer_epoch))
    return *refused;
  auto& m = *known;
  if (busy || m.in_prepare())
    return fail(kafka_error::concurrent_transactions);
  auto next = m;
  if (m.status != txn_status::ongoing) { // a new transaction
    next.partitions.clear();
    next.start_ms = now_ms;
  }
  bool added = false;
  for (auto& [topic, ids] : partitions)
    for (auto id : ids)
      added |= next.partitions[topic].insert(id).second;
  if (m.status == txn_status::ongoing && !added)
    return txn_step{};
  next.status = txn_status::ongoing;
  next.last_update_ms = now_ms;
  return txn_step{kafka_error::none, -1, -1, next};
}

txn_step end_txn(const std::optional<txn_metadata>& known, bool busy, int64_t producer_id, int16_t producer_epoch,
                 bool commit, int64_t now_ms) {
  if (auto refused = check_producer(known, producer_id, producer_epoch))
    return *refused;
  auto& m = *known;
  if (busy)
    return fail(kafka_error::concurrent_transactions);
  switch (m.status) {
    case txn_status::ongoing: {
      auto next = m;
      next.status = commit ? txn_status::prepare_commit : txn_status::prepare_abort;
      next.last_update_ms = now_ms;
      return txn_step{kafka_error::none, -1, -1, next};
    }
    case txn_status::complete_commit:
      return commit ? txn_step{} : fail(kafka_error::invalid_txn_state);
    case txn_status::complete_abort:
      return commit ? fail(kafka_error::invalid_txn_state) : txn_step{};
    case txn_status::prepare_commit:
      return commit ? fail(kafka_error::concurrent_transactions) : fail(kafka_error::invalid_txn_state);
    case txn_status::prepare_abort:
      return commit ? fail(kafka_error::invalid_txn_state) : fail(kafka_error::concurrent_transactions);
    default:
      return fail(kafka_error::invalid_txn_state);
  }
}

std::optional<txn_metadata> abort_if_timed_out(const txn_metadata& m, int64_t now_ms) {
  if (m.status != txn_status::ongoing || m.start_ms < 0 || m.start_ms + m.timeout_ms >= now_ms)
    return std::nullopt;
  return fenced_abort(m, now_ms);
}

txn_metadata complete_txn(const txn_metadata& prepared, int64_t now_ms) {
  auto done = prepared;
  done.status = prepared.status == txn_status::prepare_commit ? txn_status::complete_commit
                                                              : txn_status::complete_abort;
  done.partitions.clear();
  done.last_update_ms = now_ms;
  return done;
}

} // namespace cafka::cluster
