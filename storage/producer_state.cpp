#include "storage/producer_state.hpp"

#include <limits>
#include <utility>

#include "protocol/byte_reader.hpp"
#include "protocol/crc32c.hpp"
#include "protocol/endian.hpp"
#include "storage/errc.hpp"
#include "storage/planted_bugs.hpp"

namespace cafka::storage {

namespace {

constexpr int32_t int32_max = std::numeric_limits<int32_t>::max();
constexpr int16_t no_epoch = -1;   // RecordBatch.NO_PRODUCER_EPOCH
constexpr int32_t no_sequence = -1; // RecordBatch.NO_SEQUENCE

// ProducerAppendInfo.inSequence: the next sequence after INT32_MAX is 0.
bool in_sequence(int32_t last_seq, int32_t next_seq) {
  return int64_t{next_seq} == int64_t{last_seq} + 1 || (next_seq == 0 && last_seq == int32_max);
}

// Kafka's ProducerStateEntry.lastSeq: NO_SEQUENCE without batches.
int32_t last_seq_of(const producer_entry& e) {
  return e.batches.empty() ? no_sequence : e.batches.back().last_seq;
}

bool tracked(const protocol::batch_header& h) {
  return h.producer_id >= 0 && !h.is_control();
}

} // namespace

// In 64 bits and cut back to 32 like Java's int arithmetic, so that garbage (a negative
// sequence from a snapshot, say) gives Kafka's value instead of signed overflow.
int32_t increment_sequence(int32_t seq, int32_t delta) noexcept {
  int64_t s = seq, d = delta;
  return static_cast<int32_t>(s > int32_max - d ? d - (int32_max - s) - 1 : s + d);
}

int32_t decrement_sequence(int32_t seq, int32_t delta) noexcept {
  int64_t s = seq, d = delta;
  return static_cast<int32_t>(s < d ? int32_max - (d - s) + 1 : s - d);
}

int32_t last_sequence(const protocol::batch_header& h) noexcept {
  if (h.base_sequence == no_sequence)
    return no_sequence;
  return increment_sequence(h.base_sequence, h.last_offset_delta);
}

producer_verdict producer_state::check(const protocol::batch_header& h) const {
  if (!tracked(h))
    return {};
  auto it = entries_.find(h.producer_id);
  if (it == entries_.end())
    return {}; // unknown (new or expired): any sequence, KIP-360
  const producer_entry& e = it->second;
  // Duplicates first (ProducerStateEntry.findDuplicateBatch): a retry whose first attempt
  // was appended gets that attempt's offsets, whatever came after it.
  if (h.producer_epoch == e.epoch) {
    int32_t last = last_sequence(h);
    for (auto& b : e.batches)
      if (b.first_seq == h.base_sequence && b.last_seq == last) {
        if (testing::current_planted_bug() == testing::planted_bug::append_duplicates)
          return {};
        return {producer_check::duplicate, b};
      }
  }
  if (h.producer_epoch < e.epoch)
    return {producer_check::invalid_producer_epoch, {}};
  bool ok = h.producer_epoch != e.epoch ? h.base_sequence == 0 || e.epoch == no_epoch
                                        : e.epoch == no_epoch || in_sequence(last_seq_of(e), h.base_sequence);
  if (!ok)
    return {producer_check::out_of_order_sequence, {}};
  bool transactional = h.attributes & protocol::batch_attributes::transactional;
  if (!transactional && e.txn_first_offset >= 0)
    return {producer_check::invalid_txn_state, {}};
  return {};
}

producer_check producer_state::check_marker(int64_t producer_id, int16_t producer_epoch,
                                            int32_t coordinator_epoch) const {
  auto it = entries_.find(producer_id);
  if (it == entries_.end())
    return producer_check::append;
  if (producer_epoch < it->second.epoch)
    return producer_check::invalid_producer_epoch;
  if (coordinator_epoch < it->second.coordinator_epoch)
    return producer_check::coordinator_fenced;
  return producer_check::append;
}

void producer_state::record(const protocol::batch_header& h) {
  if (!tracked(h))
    return;
  producer_entry& e = entries_[h.producer_id];
  if (e.epoch != h.producer_epoch) {
    e.batches.clear();
    e.epoch = h.producer_epoch;
  }
  if (e.batches.size() == batches_kept)
    e.batches.pop_front();
  e.batches.push_back({h.base_sequence, last_sequence(h), h.base_offset, h.last_offset(), h.max_timestamp});
  e.last_timestamp = h.max_timestamp;
  if ((h.attributes & protocol::batch_attributes::transactional) && e.txn_first_offset < 0) {
    e.txn_first_offset = h.base_offset;
    open_txns_.emplace(h.base_offset, h.producer_id);
  }
}

std::optional<completed_txn> producer_state::record_marker(int64_t producer_id, int16_t producer_epoch,
                                                           int32_t coordinator_epoch, bool commit, int64_t offset,
                                                           int64_t timestamp) {
  producer_entry& e = entries_[producer_id];
  if (e.epoch != producer_epoch) { // ProducerStateEntry.maybeUpdateProducerEpoch
    e.batches.clear();
    e.epoch = producer_epoch;
  }
  e.coordinator_epoch = coordinator_epoch;
  e.last_timestamp = timestamp;
  if (e.txn_first_offset < 0)
    return std::nullopt;
  completed_txn done{producer_id, e.txn_first_offset, offset, !commit};
  open_txns_.erase({e.txn_first_offset, producer_id});
  e.txn_first_offset = -1;
  return done;
}

std::optional<int64_t> producer_state::first_open_txn_offset() const {
  if (open_txns_.empty())
    return std::nullopt;
  return open_txns_.begin()->first;
}

int64_t producer_state::last_stable_offset_after(const completed_txn& txn) const {
  for (auto& [first, id] : open_txns_)
    if (id != txn.producer_id)
      return first;
  return txn.last_offset + 1;
}

size_t producer_state::expire(int64_t now_ms, int64_t expiration_ms) {
  size_t dropped = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.txn_first_offset < 0 && now_ms - it->second.last_timestamp >= expiration_ms) {
      it = entries_.erase(it);
      ++dropped;
    } else {
      ++it;
    }
  }
  return dropped;
}

// -- snapshots ----------------------------------------------------------------------------

namespace {

constexpr int16_t snapshot_version = 1;
constexpr size_t crc_position = 2;
constexpr size_t entries_position = 6; // the CRC covers [6, end): count and entries
constexpr size_t header_size = 10;
constexpr size_t entry_size = 46;

void append_entry(std::string& out, int64_t producer_id, const producer_entry& e) {
  bool has_batch = !e.batches.empty();
  const producer_batch last = has_batch ? e.batches.back() : producer_batch{};
  protocol::append_be<int64_t>(out, producer_id);
  protocol::append_be<int16_t>(out, e.epoch);
  protocol::append_be<int32_t>(out, has_batch ? last.last_seq : no_sequence);
  protocol::append_be<int64_t>(out, has_batch ? last.last_offset : -1);
  protocol::append_be<int32_t>(out, has_batch ? static_cast<int32_t>(last.last_offset - last.first_offset) : 0);
  protocol::append_be<int64_t>(out, e.last_timestamp);
  protocol::append_be<int32_t>(out, e.coordinator_epoch);
  protocol::append_be<int64_t>(out, e.txn_first_offset);
}

uint32_t snapshot_crc(std::string_view bytes) {
  return protocol::crc32c(bytes.data() + entries_position, bytes.size() - entries_position);
}

// ProducerStateManager.readSnapshot: one batch if the entry has data. False on an offset
// delta that makes no batch (negative, or reaching below offset 0).
bool read_entry(protocol::byte_reader& r, producer_entry& e) {
  e.epoch = r.read_i16();
  int32_t last_seq = r.read_i32();
  int64_t last_offset = r.read_i64();
  int32_t offset_delta = r.read_i32();
  e.last_timestamp = r.read_i64();
  e.coordinator_epoch = r.read_i32();
  e.txn_first_offset = r.read_i64();
  if (e.txn_first_offset < -1)
    return false;
  if (last_offset < 0)
    return true;
  if (offset_delta < 0 || offset_delta > last_offset)
    return false;
  e.batches.push_back({decrement_sequence(last_seq, offset_delta), last_seq, last_offset - offset_delta,
                       last_offset, e.last_timestamp});
  return true;
}

} // namespace

std::string encode_producer_snapshot(const producer_state& s) {
  std::string out;
  out.reserve(header_size + entry_size * s.entries().size());
  protocol::append_be<int16_t>(out, snapshot_version);
  protocol::append_be<uint32_t>(out, 0); // filled in below
  protocol::append_be<int32_t>(out, static_cast<int32_t>(s.entries().size()));
  for (auto& [id, e] : s.entries())
    append_entry(out, id, e);
  protocol::store_be(out.data() + crc_position, snapshot_crc(out));
  return out;
}

result<producer_state> decode_producer_snapshot(std::string_view bytes) {
  protocol::byte_reader r(bytes);
  int16_t version = r.read_i16();
  uint32_t crc = r.read_u32();
  int32_t count = r.read_i32();
  if (!r.ok() || version != snapshot_version || count < 0
      || r.remaining() != entry_size * static_cast<size_t>(count) || crc != snapshot_crc(bytes))
    return errc::corrupt_checkpoint;
  producer_state s;
  for (int32_t i = 0; i < count; ++i) {
    int64_t id = r.read_i64();
    producer_entry e;
    if (!read_entry(r, e) || !s.entries_.emplace(id, e).second)
      return errc::corrupt_checkpoint;
    if (e.txn_first_offset >= 0)
      s.open_txns_.emplace(e.txn_first_offset, id);
  }
  return s;
}

} // namespace cafka::storage
