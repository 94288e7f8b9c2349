#include "protocol/batch_filter.hpp"

#include <algorithm>
#include <limits>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/compression.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_codec.hpp"
#include "protocol/record_section.hpp"

namespace cafka::protocol {
namespace {

namespace L = batch_layout;

int64_t wrapping_sub(int64_t a, int64_t b) noexcept {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

// Fills in the header of the batch that starts at `out[at]` and ends at out.end(): `h` with
// the given attributes, timestamps and count.
void finish_header(std::vector<char>& out, size_t at, batch_header h, int16_t attributes, int64_t base_timestamp,
                   int64_t max_timestamp, int32_t count) {
  h.attributes = attributes;
  h.base_timestamp = base_timestamp;
  h.max_timestamp = max_timestamp;
  h.record_count = count;
  store_batch_header(out.data() + at, out.size() - at, h);
  update_crc(out.data() + at, out.size() - at);
}

} // namespace

std::optional<int64_t> delete_horizon_of(const batch_header& h) noexcept {
  if ((h.attributes & batch_attributes::delete_horizon) == 0)
    return std::nullopt;
  return h.base_timestamp;
}

result<filter_result> filter_batch(bytes_view batch, size_t max_uncompressed,
                                   const std::function<bool(const record_view&)>& keep,
                                   std::optional<int64_t> new_delete_horizon, std::vector<char>& out) {
  auto header = validate_batch(batch);
  if (!header)
    return header.error();
  const batch_header& h = *header;
  filter_result r{filter_outcome::unchanged, h, 0};
  std::vector<char> inflated;
  auto section = records_section(batch, h, max_uncompressed, inflated);
  if (!section)
    return section.error();
  const bool log_append_time = h.attributes & batch_attributes::log_append_time;
  struct kept_record {
    bytes_view stored; ///< length prefix included
    int64_t timestamp;
  };
  std::vector<kept_record> kept;
  bool kept_tombstone = false;
  int64_t max_timestamp = std::numeric_limits<int64_t>::min();
  auto walked = walk_records(h, *section, [&](const record_view& rec, bytes_view stored) {
    if (!keep(rec))
      return;
    kept.push_back({stored, rec.timestamp});
    kept_tombstone |= !rec.value;
    max_timestamp = std::max(max_timestamp, rec.timestamp);
  });
  if (!walked)
    return walked.error();
  r.kept = static_cast<int32_t>(kept.size());
  if (r.kept == 0) {
    r.outcome = filter_outcome::emptied;
    return r;
  }
  const bool stamp_horizon = new_delete_horizon && kept_tombstone && !delete_horizon_of(h);
  if (r.kept == h.record_count && !stamp_horizon) {
    out.insert(out.end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(h.total_size()));
    return r;
  }
  r.outcome = filter_outcome::rewritten;
  const int64_t base_timestamp = stamp_horizon ? *new_delete_horizon : h.base_timestamp;
  std::vector<char> records;
  byte_writer writer(records);
  record_view rec;
  std::vector<record_header> headers;
  for (auto& k : kept) {
    if (!stamp_horizon) { // the same base timestamp: the stored bytes stay valid
      records.insert(records.end(), k.stored.begin(), k.stored.end());
      continue;
    }
    // Re-encoded with its timestamp delta against the horizon (walk_records decoded it once).
    byte_reader in(k.stored);
    auto length = in.read_varint();
    (void) read_record_body(in.read_raw(static_cast<size_t>(length)), rec);
    headers.clear();
    for (auto& hv : rec.headers)
      headers.push_back({std::string{hv.key}, hv.value ? std::optional<std::string>{std::string{*hv.value}}
                                                       : std::nullopt});
    write_record(writer, rec.offset_delta, wrapping_sub(k.timestamp, base_timestamp), rec.key, rec.value, headers);
  }
  auto at = out.size();
  out.resize(at + L::header_size);
  if (h.codec() == compression_codec::none) {
    out.insert(out.end(), records.begin(), records.end());
  } else if (auto n = compress(h.codec(), bytes_view{records.data(), records.size()}, out); !n) {
    out.resize(at);
    return n.error();
  }
  int16_t attributes = h.attributes;
  if (stamp_horizon)
    attributes |= batch_attributes::delete_horizon;
  finish_header(out, at, h, attributes, base_timestamp, log_append_time ? h.max_timestamp : max_timestamp, r.kept);
  return r;
}

void append_empty_batch(const batch_header& h, std::vector<char>& out) {
  auto at = out.size();
  out.resize(at + L::header_size);
  // Kept: the timestamp type and the transactional and control flags; codec none.
  auto attributes = static_cast<int16_t>(h.attributes & (batch_attributes::log_append_time
                                                         | batch_attributes::transactional
                                                         | batch_attributes::control));
  finish_header(out, at, h, attributes, -1, h.max_timestamp, 0);
}

} // namespace cafka::protocol
