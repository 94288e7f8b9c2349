// batch_builder and build_batch; the reading side is in record_batch_reader.cpp.
#include "protocol/record_batch.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "protocol/byte_writer.hpp"
#include "protocol/compression.hpp"
#include "protocol/record_codec.hpp"
#include "protocol/record_section.hpp"

namespace cafka::protocol {
namespace {

namespace L = batch_layout;

std::optional<bytes_view> view_of(const std::optional<std::string>& s) noexcept {
  if (!s) return std::nullopt;
  return bytes_view{*s};
}

const std::vector<record_header> no_headers;

} // namespace

batch_builder::batch_builder(batch_options options) : options_(options) {
  if (!is_known_codec(options_.codec))
    throw std::invalid_argument("batch_builder: undefined compression codec");
  reset();
}

void batch_builder::reset() {
  // Records go right behind a placeholder header: an uncompressed batch is then built
  // in place, without copying the records section.
  buffer_.assign(L::header_size, 0);
  count_ = 0;
  base_timestamp_ = 0;
  max_timestamp_ = 0;
}

void batch_builder::add(const record& r) {
  add(r.timestamp, view_of(r.key), view_of(r.value), r.headers);
}

void batch_builder::add(int64_t timestamp, const std::optional<bytes_view>& key,
                        const std::optional<bytes_view>& value) {
  add(timestamp, key, value, no_headers);
}

void batch_builder::add(int64_t timestamp, const std::optional<bytes_view>& key,
                        const std::optional<bytes_view>& value,
                        const std::vector<record_header>& headers) {
  if (count_ == std::numeric_limits<int32_t>::max())
    throw std::length_error("batch_builder: too many records");
  if (count_ == 0) base_timestamp_ = max_timestamp_ = timestamp;
  max_timestamp_ = std::max(max_timestamp_, timestamp);
  // Wrapping subtraction: defined for any pair of timestamps, and the reader's wrapping
  // addition restores the original value.
  auto delta = static_cast<int64_t>(static_cast<uint64_t>(timestamp) -
                                    static_cast<uint64_t>(base_timestamp_));
  byte_writer out(buffer_);
  write_record(out, count_, delta, key, value, headers);
  ++count_;
}

std::vector<char> batch_builder::build() {
  if (count_ == 0) throw std::logic_error("batch_builder::build: a batch needs a record");
  std::vector<char> batch;
  if (options_.codec != compression_codec::none) {
    batch.reserve(L::header_size + buffer_.size() / 2);
    batch.resize(L::header_size);
    bytes_view records{buffer_.data() + L::header_size, buffer_.size() - L::header_size};
    // The codecs only fail on allocation (thrown) or library bugs.
    if (auto n = compress(options_.codec, records, batch); !n)
      throw std::system_error(n.error(), "batch_builder: compression failed");
  } else {
    batch = std::move(buffer_);
  }
  size_t batch_length = batch.size() - L::log_overhead;
  if (batch_length > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error("batch_builder: batch larger than 2 GiB");

  int16_t attributes = static_cast<int16_t>(options_.codec);
  if (options_.transactional) attributes |= batch_attributes::transactional;
  char* p = batch.data();
  batch_header h;
  h.base_offset = options_.base_offset;
  h.leader_epoch = options_.leader_epoch;
  h.attributes = attributes;
  h.last_offset_delta = count_ - 1;
  h.base_timestamp = base_timestamp_;
  h.max_timestamp = max_timestamp_;
  h.producer_id = options_.producer_id;
  h.producer_epoch = options_.producer_epoch;
  h.base_sequence = options_.base_sequence;
  h.record_count = count_;
  store_batch_header(p, batch.size(), h);
  if (options_.log_append_time) set_log_append_time(p, batch.size(), *options_.log_append_time);
  else update_crc(p, batch.size());

  reset();
  return batch;
}

std::vector<char> build_batch(const std::vector<record>& records, compression_codec codec) {
  batch_options options;
  options.codec = codec;
  batch_builder builder(options);
  for (const auto& r : records) builder.add(r);
  return builder.build();
}

} // namespace cafka::protocol
