#include "client/idempotence.hpp"

#include <algorithm>

#include "client/retry.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/endian.hpp"
#include "storage/producer_state.hpp"

namespace cafka::client {

using protocol::kafka_error;
namespace L = protocol::batch_layout;

void write_producer_fields(std::vector<char>& bytes, int64_t producer_id, int16_t producer_epoch,
                           int32_t base_sequence, bool transactional) {
  if (bytes.size() < L::header_size)
    return;
  auto* b = bytes.data();
  protocol::store_be(b + L::producer_id, producer_id);
  protocol::store_be(b + L::producer_epoch, producer_epoch);
  protocol::store_be(b + L::base_sequence, base_sequence);
  auto attributes = protocol::load_be<int16_t>(b + L::attributes);
  if (transactional)
    attributes = static_cast<int16_t>(attributes | protocol::batch_attributes::transactional);
  protocol::store_be(b + L::attributes, attributes);
  protocol::update_crc(b, bytes.size());
}

void batch_numbering::number(sealed_batch& b, const producer_identity& who, bool transactional) {
  auto& next = next_[b.tp];
  b.producer_id = who.id;
  b.base_sequence = next;
  write_producer_fields(b.bytes, who.id, who.epoch, next, transactional);
  next = storage::increment_sequence(next, static_cast<int32_t>(b.tokens.size()));
}

int32_t batch_numbering::next(const storage::topic_partition& tp) const {
  auto it = next_.find(tp);
  return it == next_.end() ? 0 : it->second;
}

sequence_outcome classify_produce_error(kafka_error e, bool transactional) noexcept {
  switch (e) {
    case kafka_error::duplicate_sequence_number:
      return sequence_outcome::duplicate;
    case kafka_error::producer_fenced:
      return sequence_outcome::fenced;
    case kafka_error::invalid_producer_epoch:
      return transactional ? sequence_outcome::fenced : sequence_outcome::broken;
    case kafka_error::out_of_order_sequence_number:
    case kafka_error::unknown_producer_id:
      return sequence_outcome::broken;
    default:
      return sequence_outcome::other;
  }
}

coordinator_outcome classify_coordinator_code(int16_t code) noexcept {
  if (code == 0)
    return coordinator_outcome::done;
  switch (from_wire(code)) {
    case kafka_error::not_coordinator:
    case kafka_error::coordinator_not_available:
    case kafka_error::request_timed_out:
    case kafka_error::network_exception:
      return coordinator_outcome::relocate;
    case kafka_error::coordinator_load_in_progress:
    case kafka_error::concurrent_transactions:
    case kafka_error::not_enough_replicas:
    case kafka_error::not_enough_replicas_after_append:
      return coordinator_outcome::retry;
    case kafka_error::producer_fenced:
    case kafka_error::invalid_producer_epoch:
    case kafka_error::transactional_id_authorization_failed:
      return coordinator_outcome::fenced;
    default:
      return coordinator_outcome::failed;
  }
}

aborted_filter::aborted_filter(std::vector<storage::aborted_range> aborted) : pending_(std::move(aborted)) {
  std::sort(pending_.begin(), pending_.end(),
            [](const auto& a, const auto& b) { return a.first_offset > b.first_offset; });
}

bool aborted_filter::skip(int64_t base_offset, int64_t producer_id, bool transactional, bool control,
                          bool abort_marker) {
  // Every aborted transaction that started at or before this batch is under way now.
  while (!pending_.empty() && pending_.back().first_offset <= base_offset) {
    aborting_.insert(pending_.back().producer_id);
    pending_.pop_back();
  }
  if (control) {
    if (abort_marker)
      aborting_.erase(producer_id);
    return true;
  }
  return transactional && aborting_.count(producer_id) > 0;
}

} // namespace cafka::client
