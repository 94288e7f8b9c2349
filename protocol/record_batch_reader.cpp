// for_each_record and read_records; the building side is in record_batch.cpp.
#include "protocol/record_batch.hpp"

#include "protocol/byte_reader.hpp"
#include "protocol/compression.hpp"
#include "protocol/endian.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_codec.hpp"
#include "protocol/record_section.hpp"

namespace cafka::protocol {
namespace {

namespace L = batch_layout;

std::optional<std::string> copy_of(const std::optional<bytes_view>& v) {
  if (!v) return std::nullopt;
  return std::string{*v};
}

// The shortest record: length, attributes, timestamp_delta, offset_delta, key length,
// value length and header count, one byte each.
constexpr size_t min_record_size = 7;

// Header fields are attacker-controlled: a base near INT64_MAX must not be signed overflow.
int64_t wrapping_add(int64_t base, int64_t delta) noexcept {
  return static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(delta));
}

} // namespace

result<batch_header> for_each_record(bytes_view batch, size_t max_uncompressed,
                                     const std::function<void(const record_view&)>& visit) {
  auto header = validate_batch(batch);
  if (!header) return header;
  const batch_header& h = *header;
  std::vector<char> inflated; // owns the records section of a compressed batch
  auto section = records_section(batch, h, max_uncompressed, inflated);
  if (!section) return section.error();
  if (auto st = walk_records(h, *section, [&](const record_view& rec, bytes_view) { visit(rec); }); !st)
    return st.error();
  return header;
}

void store_batch_header(char* p, size_t size, const batch_header& h) noexcept {
  store_be(p + L::base_offset, h.base_offset);
  store_be(p + L::batch_length, static_cast<int32_t>(size - L::log_overhead));
  store_be(p + L::leader_epoch, h.leader_epoch);
  store_be(p + L::magic, int8_t{2});
  store_be(p + L::attributes, h.attributes);
  store_be(p + L::last_offset_delta, h.last_offset_delta);
  store_be(p + L::base_timestamp, h.base_timestamp);
  store_be(p + L::max_timestamp, h.max_timestamp);
  store_be(p + L::producer_id, h.producer_id);
  store_be(p + L::producer_epoch, h.producer_epoch);
  store_be(p + L::base_sequence, h.base_sequence);
  store_be(p + L::record_count, h.record_count);
}

result<bytes_view> records_section(bytes_view batch, const batch_header& h, size_t max_uncompressed,
                                   std::vector<char>& inflated) {
  bytes_view section = batch.substr(L::header_size, h.total_size() - L::header_size);
  if (h.codec() == compression_codec::none) return section;
  if (auto n = decompress(h.codec(), section, inflated, max_uncompressed); !n) return n.error();
  return bytes_view{inflated.data(), inflated.size()};
}

status walk_records(const batch_header& h, bytes_view section,
                    const std::function<void(const record_view&, bytes_view stored)>& visit) {
  // Under LogAppendTime the broker's time in max_timestamp replaces every record's own.
  const bool log_append_time = h.attributes & batch_attributes::log_append_time;
  byte_reader in(section);
  record_view rec; // reused, so its header vector is allocated once per batch at most
  int32_t seen = 0;
  int64_t previous_delta = -1;
  while (in.remaining() > 0) {
    // More records than record_count says, or more than the bytes could hold: stop
    // before decoding (and visiting) a record the header does not account for.
    if (seen == h.record_count) return errc::bad_record;
    auto start = in.position();
    int32_t length = in.read_varint();
    if (!in.ok() || length < 0) return errc::bad_record;
    bytes_view body = in.read_raw(static_cast<size_t>(length));
    if (!in.ok()) return errc::truncated;
    if (auto st = read_record_body(body, rec); !st) return st.error();
    // Deltas must increase (gaps are legal: compaction leaves them) and stay within the
    // range the header promises, or offsets would overlap other batches.
    if (rec.offset_delta <= previous_delta || rec.offset_delta > h.last_offset_delta)
      return errc::bad_record;
    previous_delta = rec.offset_delta;
    rec.offset = wrapping_add(h.base_offset, rec.offset_delta);
    rec.timestamp = log_append_time ? h.max_timestamp
                                    : wrapping_add(h.base_timestamp, rec.timestamp_delta);
    visit(rec, section.substr(start, in.position() - start));
    ++seen;
  }
  if (seen != h.record_count) return errc::bad_record;
  return {};
}

result<std::vector<decoded_record>> read_records(bytes_view batch, size_t max_uncompressed) {
  std::vector<decoded_record> out;
  // record_count is only a hint until checked; cap the reservation by what the bytes
  // could possibly hold so a lying header cannot make us allocate.
  if (auto h = read_batch_header(batch); h && h->record_count > 0)
    out.reserve(std::min(static_cast<size_t>(h->record_count), batch.size() / min_record_size));
  auto r = for_each_record(batch, max_uncompressed, [&](const record_view& v) {
    decoded_record d;
    d.offset = v.offset;
    d.timestamp = v.timestamp;
    d.key = copy_of(v.key);
    d.value = copy_of(v.value);
    d.headers.reserve(v.headers.size());
    for (const auto& hv : v.headers) d.headers.push_back({std::string{hv.key}, copy_of(hv.value)});
    out.push_back(std::move(d));
  });
  if (!r) return r.error();
  return out;
}

} // namespace cafka::protocol
