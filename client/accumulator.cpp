#include "client/accumulator.hpp"

#include <stdexcept>

#include "protocol/byte_writer.hpp"

namespace cafka::client {

namespace {

std::optional<protocol::bytes_view> view(const std::optional<std::string>& s) {
  if (!s)
    return std::nullopt;
  return protocol::bytes_view{*s};
}

} // namespace

record_accumulator::record_accumulator(accumulator_config cfg) : cfg_(cfg) {
  if (cfg_.codec != protocol::compression_codec::none && cfg_.codec != protocol::compression_codec::lz4)
    throw std::invalid_argument("record_accumulator: only none and lz4 compression are supported");
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

record_accumulator::append_result record_accumulator::append(const storage::topic_partition& tp,
                                                             const protocol::record& rec,
                                                             uint64_t token, steady_time now) {
  append_result out;
  auto& q = parts_[tp];
  if (!q.empty() && !q.back().closed) {
    auto& open = q.back();
    auto size = record_size(rec, open.builder.record_count(), open.base_timestamp);
    if (open.estimated + size > cfg_.batch_size) {
      open.closed = true; // full: this record starts the next batch
      out.batch_closed = true;
    }
  }
  if (q.empty() || q.back().closed) {
    protocol::batch_options opts;
    opts.codec = cfg_.codec;
    q.emplace_back(opts);
    auto& b = q.back();
    b.created = now;
    b.base_timestamp = rec.timestamp;
    b.sequence = next_sequence_++;
    ++batches_;
    out.new_batch = true;
  }
  auto& b = q.back();
  b.estimated += record_size(rec, b.builder.record_count(), b.base_timestamp);
  b.builder.add(rec);
  b.tokens.push_back(token);
  b.timestamps.push_back(rec.timestamp);
  if (b.estimated >= cfg_.batch_size) {
    b.closed = true;
    out.batch_closed = true;
  }
  return out;
}

bool record_accumulator::is_ready(const open_batch& b, steady_time now) const {
  return b.closed || flushing_ || now - b.created >= cfg_.linger;
}

sealed_batch record_accumulator::seal(const storage::topic_partition& tp, open_batch& b) {
  sealed_batch out;
  out.tp = tp;
  out.sequence = b.sequence;
  out.bytes = b.builder.build();
  out.tokens = std::move(b.tokens);
  out.timestamps = std::move(b.timestamps);
  out.created = b.created;
  return out;
}

std::vector<sealed_batch> record_accumulator::drain_ready(steady_time now) {
  std::vector<sealed_batch> out;
  for (auto it = parts_.begin(); it != parts_.end();) {
    auto& q = it->second;
    // Batches of a partition become ready in order (older ones first).
    while (!q.empty() && is_ready(q.front(), now)) {
      out.push_back(seal(it->first, q.front()));
      q.pop_front();
      --batches_;
    }
    it = q.empty() ? parts_.erase(it) : std::next(it);
  }
  return out;
}

std::vector<sealed_batch> record_accumulator::drain_all() {
  std::vector<sealed_batch> out;
  for (auto& [tp, q] : parts_)
    for (auto& b : q)
      out.push_back(seal(tp, b));
  parts_.clear();
  batches_ = 0;
  return out;
}

std::optional<steady_time> record_accumulator::next_deadline() const {
  std::optional<steady_time> out;
  for (auto& [tp, q] : parts_)
    for (auto& b : q)
      if (!b.closed) {
        auto due = b.created + cfg_.linger;
        if (!out || due < *out)
          out = due;
      }
  return out;
}

} // namespace cafka::client
