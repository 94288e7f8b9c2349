#include "protocol/batch_header.hpp"

#include "protocol/crc32c.hpp"
#include "protocol/endian.hpp"
#include "protocol/errc.hpp"

namespace cafka::protocol {
namespace {

namespace L = batch_layout;

/// The CRC-32C a batch of `size` bytes should carry: attributes to the end.
uint32_t compute_crc(const char* batch, size_t size) noexcept {
  return crc32c(batch + L::attributes, size - L::attributes);
}

} // namespace

result<batch_header> read_batch_header(bytes_view bytes) {
  if (bytes.size() < L::header_size) return errc::truncated;
  const char* p = bytes.data();
  // The magic decides how bytes 12..16 and everything after 16 are laid out, so it is
  // checked before any field past it is trusted.
  if (load_be<int8_t>(p + L::magic) != 2) return errc::bad_magic;
  batch_header h;
  h.base_offset = load_be<int64_t>(p + L::base_offset);
  h.batch_length = load_be<int32_t>(p + L::batch_length);
  h.leader_epoch = load_be<int32_t>(p + L::leader_epoch);
  h.magic = 2;
  h.crc = load_be<uint32_t>(p + L::crc);
  h.attributes = load_be<int16_t>(p + L::attributes);
  h.last_offset_delta = load_be<int32_t>(p + L::last_offset_delta);
  h.base_timestamp = load_be<int64_t>(p + L::base_timestamp);
  h.max_timestamp = load_be<int64_t>(p + L::max_timestamp);
  h.producer_id = load_be<int64_t>(p + L::producer_id);
  h.producer_epoch = load_be<int16_t>(p + L::producer_epoch);
  h.base_sequence = load_be<int32_t>(p + L::base_sequence);
  h.record_count = load_be<int32_t>(p + L::record_count);
  // batch_length < 49 would make total_size() end inside the header (or wrap when
  // negative), and a negative delta or count would make offsets run backwards.
  constexpr int32_t min_batch_length = L::header_size - L::log_overhead;
  if (h.batch_length < min_batch_length || h.last_offset_delta < 0 || h.record_count < 0)
    return errc::bad_length;
  return h;
}

result<batch_header> validate_batch(bytes_view bytes) {
  auto h = read_batch_header(bytes);
  if (!h) return h;
  if (bytes.size() < h->total_size()) return errc::truncated;
  if (compute_crc(bytes.data(), h->total_size()) != h->crc) return errc::bad_crc;
  return h;
}

void set_base_offset(char* batch, int64_t base_offset) noexcept {
  store_be(batch + L::base_offset, base_offset);
}

void set_leader_epoch(char* batch, int32_t epoch) noexcept {
  store_be(batch + L::leader_epoch, epoch);
}

void update_crc(char* batch, size_t size) noexcept {
  store_be(batch + L::crc, compute_crc(batch, size));
}

namespace {

// max_timestamp is covered by the CRC.
void set_max_timestamp(char* batch, size_t size, int64_t timestamp) noexcept {
  store_be(batch + L::max_timestamp, timestamp);
  update_crc(batch, size);
}

} // namespace

void set_log_append_time(char* batch, size_t size, int64_t append_time_ms) noexcept {
  auto attributes = load_be<int16_t>(batch + L::attributes);
  store_be(batch + L::attributes, static_cast<int16_t>(attributes | batch_attributes::log_append_time));
  set_max_timestamp(batch, size, append_time_ms);
}

size_t whole_batches_within(bytes_view bytes, size_t limit) noexcept {
  size_t taken = 0;
  while (bytes.size() - taken >= batch_layout::log_overhead) {
    auto length = static_cast<int32_t>(load_be<uint32_t>(bytes.data() + taken + 8));
    if (length < 0)
      break;
    auto size = batch_layout::log_overhead + static_cast<size_t>(length);
    if (size > bytes.size() - taken || (taken > 0 && taken + size > limit))
      break;
    taken += size;
  }
  return taken;
}

int64_t next_offset_after(bytes_view bytes) noexcept {
  int64_t next = -1;
  while (bytes.size() >= batch_layout::header_size) {
    auto h = read_batch_header(bytes);
    if (!h || h->total_size() > bytes.size())
      break;
    next = h->next_offset();
    bytes.remove_prefix(h->total_size());
  }
  return next;
}

uint64_t count_records(bytes_view bytes) noexcept {
  uint64_t records = 0;
  size_t at = 0;
  while (bytes.size() - at >= batch_layout::log_overhead + 5) { // framing, crc, magic
    auto length = static_cast<int32_t>(load_be<uint32_t>(bytes.data() + at + batch_layout::batch_length));
    auto size = batch_layout::log_overhead + static_cast<size_t>(length);
    if (length < 0 || size > bytes.size() - at)
      break;
    if (bytes[at + batch_layout::magic] == 2 && size >= batch_layout::header_size)
      records += static_cast<uint32_t>(load_be<uint32_t>(bytes.data() + at + batch_layout::record_count));
    else
      ++records;
    at += size;
  }
  return records;
}

void set_no_timestamp(char* batch, size_t size) noexcept { set_max_timestamp(batch, size, no_timestamp); }

} // namespace cafka::protocol
