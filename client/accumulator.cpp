#include "client/accumulator.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "protocol/byte_writer.hpp"
#include "protocol/endian.hpp"
#include "protocol/compression.hpp"
#include "protocol/record_codec.hpp"

namespace cafka::client {

namespace {

std::optional<protocol::bytes_view> view(const std::optional<std::string>& s) {
  if (!s)
    return std::nullopt;
  return protocol::bytes_view{*s};
}

namespace L = protocol::batch_layout;

/// A new batch's buffer is reserved for a full batch, up to this much.
constexpr size_t max_reserve = size_t{1} << 20;
/// At most this many recycled buffers are kept.
constexpr size_t max_spare = 8;

} // namespace

record_accumulator::record_accumulator(accumulator_config cfg) : cfg_(cfg) {
  if (!protocol::is_known_codec(cfg_.codec))
    throw std::invalid_argument("record_accumulator: unknown compression codec");
}

size_t record_accumulator::record_size(const protocol::record& rec, int32_t offset_delta,
                                       int64_t base_timestamp) {
  return record_size(rec.key, rec.value, rec.headers, offset_delta, rec.timestamp - base_timestamp);
}

size_t record_accumulator::record_size(const std::optional<std::string>& key,
                                       const std::optional<std::string>& value,
                                       const std::vector<protocol::record_header>& headers,
                                       int32_t offset_delta, int64_t timestamp_delta) {
  using namespace protocol;
  size_t body = 1; // attributes
  body += varlong_size(timestamp_delta);
  body += varint_size(offset_delta);
  body += varint_bytes_size(view(key));
  body += varint_bytes_size(view(value));
  body += varint_size(static_cast<int32_t>(headers.size()));
  for (auto& h : headers) {
    body += varint_bytes_size(bytes_view{h.key});
    body += varint_bytes_size(view(h.value));
  }
  return varint_size(static_cast<int32_t>(body)) + body;
}

record_accumulator::partition_slot& record_accumulator::slot(const std::string& topic, int32_t partition) {
  auto it = topics_.find(topic);
  if (it == topics_.end())
    it = topics_.emplace(topic, topic_slots{}).first;
  auto idx = static_cast<size_t>(partition);
  if (idx >= it->second.size())
    it->second.resize(idx + 1);
  return it->second[idx];
}

const record_accumulator::partition_slot* record_accumulator::find_slot(const std::string& topic,
                                                                        int32_t partition) const {
  auto it = topics_.find(topic);
  if (it == topics_.end() || partition < 0 || static_cast<size_t>(partition) >= it->second.size())
    return nullptr;
  return &it->second[static_cast<size_t>(partition)];
}

record_accumulator::append_result record_accumulator::append(const storage::topic_partition& tp,
                                                             const protocol::record& rec,
                                                             uint64_t token, steady_time now) {
  return append(tp.topic, tp.partition, rec, token, now);
}

record_accumulator::append_result record_accumulator::append(const std::string& topic, int32_t partition,
                                                             const protocol::record& rec,
                                                             uint64_t token, steady_time now) {
  append_result out;
  auto& sl = slot(topic, partition);
  out.muted = sl.muted;
  auto& q = sl.batches;
  open_batch* b = nullptr;
  size_t size = 0;
  if (!q.empty() && !q.back().closed) {
    b = &q.back();
    size = record_size(rec, b->count, b->base_timestamp);
    if (b->estimated + size > cfg_.batch_size) {
      b->closed = true; // full: this record starts the next batch
      out.batch_closed = true;
      b = nullptr;
    }
  }
  if (!b) {
    b = &q.emplace_back();
    b->buffer = take_buffer();
    b->created = now;
    b->base_timestamp = rec.timestamp;
    b->sequence = next_sequence_++;
    ++batches_;
    out.new_batch = true;
    size = record_size(rec, 0, rec.timestamp);
  }
  b->estimated += size;
  add_record(*b, rec);
  b->tokens.push_back(token);
  b->timestamps.push_back(rec.timestamp);
  if (b->estimated >= cfg_.batch_size) {
    b->closed = true;
    out.batch_closed = true;
  }
  return out;
}

std::vector<char> record_accumulator::take_buffer() {
  std::vector<char> buf;
  if (!spare_.empty()) {
    buf = std::move(spare_.back());
    spare_.pop_back();
  } else {
    buf.reserve(std::min(cfg_.batch_size, max_reserve));
  }
  buf.assign(L::header_size, 0);
  return buf;
}

void record_accumulator::recycle(std::vector<char>&& bytes) {
  auto want = std::min(cfg_.batch_size, max_reserve);
  // Only buffers of about the usual size: not tiny ones, nor one grown for a huge record.
  if (spare_.size() < max_spare && bytes.capacity() >= want && bytes.capacity() <= 2 * want)
    spare_.push_back(std::move(bytes));
}

// What protocol::batch_builder::add() does (the same bytes), into the batch's own buffer.
void record_accumulator::add_record(open_batch& b, const protocol::record& rec) {
  if (b.count == std::numeric_limits<int32_t>::max())
    throw std::length_error("record_accumulator: too many records in a batch");
  b.max_timestamp = b.count == 0 ? rec.timestamp : std::max(b.max_timestamp, rec.timestamp);
  // Wrapping subtraction, as the batch builder does (the reader adds back wrapping).
  auto delta = static_cast<int64_t>(static_cast<uint64_t>(rec.timestamp) - static_cast<uint64_t>(b.base_timestamp));
  protocol::byte_writer out(b.buffer);
  protocol::write_record(out, b.count, delta, view(rec.key), view(rec.value), rec.headers);
  ++b.count;
}

// What protocol::batch_builder::build() does with default options and cfg_.codec.
std::vector<char> record_accumulator::build(open_batch& b) {
  std::vector<char> batch;
  if (cfg_.codec != protocol::compression_codec::none) {
    batch.reserve(L::header_size + b.buffer.size() / 2);
    batch.resize(L::header_size);
    auto packed = protocol::compress(cfg_.codec, {b.buffer.data() + L::header_size, b.buffer.size() - L::header_size}, batch);
    if (!packed) // not expected for a known codec (out of memory inside the library)
      throw std::system_error(packed.error());
    recycle(std::move(b.buffer));
  } else {
    batch = std::move(b.buffer);
  }
  b.buffer = {};
  size_t batch_length = batch.size() - L::log_overhead;
  if (batch_length > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error("record_accumulator: batch larger than 2 GiB");
  char* p = batch.data();
  protocol::store_be(p + L::base_offset, int64_t{0});
  protocol::store_be(p + L::batch_length, static_cast<int32_t>(batch_length));
  protocol::store_be(p + L::leader_epoch, int32_t{0});
  protocol::store_be(p + L::magic, int8_t{2});
  protocol::store_be(p + L::attributes, static_cast<int16_t>(cfg_.codec));
  protocol::store_be(p + L::last_offset_delta, b.count - 1);
  protocol::store_be(p + L::base_timestamp, b.base_timestamp);
  protocol::store_be(p + L::max_timestamp, b.max_timestamp);
  protocol::store_be(p + L::producer_id, int64_t{-1});
  protocol::store_be(p + L::producer_epoch, int16_t{-1});
  protocol::store_be(p + L::base_sequence, int32_t{-1});
  protocol::store_be(p + L::record_count, b.count);
  protocol::update_crc(p, batch.size());
  return batch;
}

bool record_accumulator::is_ready(const open_batch& b, steady_time now) const {
  return b.closed || flushing_ || now - b.created >= cfg_.linger;
}

sealed_batch record_accumulator::seal(const std::string& topic, int32_t partition, open_batch& b, bool with_bytes) {
  sealed_batch out;
  out.tp = storage::topic_partition{topic, partition};
  out.sequence = b.sequence;
  if (with_bytes)
    out.bytes = build(b);
  else
    recycle(std::move(b.buffer));
  out.tokens = std::move(b.tokens);
  out.timestamps = std::move(b.timestamps);
  out.created = b.created;
  return out;
}

std::vector<sealed_batch> record_accumulator::drain_ready(steady_time now, size_t max_per_partition) {
  std::vector<sealed_batch> out;
  if (batches_ == 0)
    return out;
  for (auto& [topic, slots] : topics_) {
    for (size_t p = 0; p < slots.size(); ++p) {
      auto& s = slots[p];
      if (s.muted)
        continue;
      // Batches of a partition become ready in order (older ones first).
      for (size_t n = 0; n < max_per_partition && !s.batches.empty() && is_ready(s.batches.front(), now); ++n) {
        out.push_back(seal(topic, static_cast<int32_t>(p), s.batches.front()));
        s.batches.pop_front();
        --batches_;
      }
    }
  }
  return out;
}

std::vector<sealed_batch> record_accumulator::drain_all() {
  std::vector<sealed_batch> out;
  for (auto& [topic, slots] : topics_)
    for (size_t p = 0; p < slots.size(); ++p) {
      for (auto& b : slots[p].batches)
        out.push_back(seal(topic, static_cast<int32_t>(p), b));
      slots[p].batches.clear();
    }
  batches_ = 0;
  return out;
}

std::vector<sealed_batch> record_accumulator::expire(steady_time cutoff) {
  std::vector<sealed_batch> out;
  if (batches_ == 0)
    return out;
  for (auto& [topic, slots] : topics_)
    for (size_t p = 0; p < slots.size(); ++p) {
      auto& q = slots[p].batches;
      // Created in order: the old ones are at the front.
      while (!q.empty() && q.front().created < cutoff) {
        out.push_back(seal(topic, static_cast<int32_t>(p), q.front(), false));
        q.pop_front();
        --batches_;
      }
    }
  return out;
}

std::optional<steady_time> record_accumulator::next_deadline() const {
  std::optional<steady_time> out;
  if (batches_ == 0)
    return out;
  for (auto& [topic, slots] : topics_)
    for (auto& s : slots) {
      if (s.muted)
        continue;
      for (auto& b : s.batches)
        if (!b.closed) {
          auto due = b.created + cfg_.linger;
          if (!out || due < *out)
            out = due;
        }
    }
  return out;
}

std::optional<steady_time> record_accumulator::oldest() const {
  std::optional<steady_time> out;
  if (batches_ == 0)
    return out;
  for (auto& [topic, slots] : topics_)
    for (auto& s : slots)
      if (!s.batches.empty() && (!out || s.batches.front().created < *out))
        out = s.batches.front().created;
  return out;
}

void record_accumulator::set_muted(const storage::topic_partition& tp, bool muted) {
  if (muted) {
    slot(tp.topic, tp.partition).muted = true;
    return;
  }
  auto it = topics_.find(tp.topic);
  if (it != topics_.end() && tp.partition >= 0 && static_cast<size_t>(tp.partition) < it->second.size())
    it->second[static_cast<size_t>(tp.partition)].muted = false;
}

bool record_accumulator::muted(const storage::topic_partition& tp) const {
  return muted(tp.topic, tp.partition);
}

bool record_accumulator::muted(const std::string& topic, int32_t partition) const {
  auto* s = find_slot(topic, partition);
  return s && s->muted;
}

} // namespace cafka::client
