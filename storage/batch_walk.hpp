#pragma once
// Walking the record batches of a segment file in read chunks: the segment's recovery scan and
// index lookups, and the cleaner's reads of sealed segments (storage/clean_job.cpp).

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

/// How much a CRC-checking walk reads at once (a larger batch is read whole).
inline constexpr size_t walk_chunk_bytes = 1 << 20;

/// Visits the batches of `log` (of `size` bytes) from position `from` on, reading headers
/// only, or whole batches with their CRC checked. Stops at the end of the file, at the first
/// batch that is torn or invalid, or when the visitor returns false (`stopped_by_visitor`).
/// The visitor takes (header, position) or, with `check_crc`, (header, position, the batch's
/// bytes, valid during the call). Returns the position where the walk stopped.
template <class Visitor>
result<uint64_t> walk_batches(const file& log, uint64_t size, uint64_t from,
                                     bool check_crc, bool& stopped_by_visitor,
                                     Visitor&& visit) {
  stopped_by_visitor = false;
  std::vector<char> buf;
  uint64_t buf_start = 0; // file position of buf[0]
  uint64_t pos = from;
  auto ensure = [&](uint64_t need) -> result<bool> { // buf covers [pos, pos + need)?
    if (pos >= buf_start && pos + need <= buf_start + buf.size())
      return true;
    if (pos + need > size)
      return false;
    size_t want = check_crc ? std::max<uint64_t>(need, std::min<uint64_t>(walk_chunk_bytes, size - pos))
                            : need;
    buf.resize(want);
    auto got = log.read_at(buf.data(), want, pos);
    if (!got)
      return got.error();
    buf.resize(*got);
    buf_start = pos;
    return *got >= need;
  };
  while (pos < size) {
    auto have_header = ensure(protocol::batch_layout::header_size);
    if (!have_header)
      return have_header.error();
    if (!*have_header)
      break; // torn header
    auto header_bytes = protocol::bytes_view(buf.data() + (pos - buf_start), buf.size() - (pos - buf_start));
    auto h = protocol::read_batch_header(header_bytes);
    if (!h || pos + h->total_size() > size)
      break; // garbage or torn batch
    if (check_crc) {
      auto have_batch = ensure(h->total_size());
      if (!have_batch)
        return have_batch.error();
      if (!*have_batch)
        break;
      auto whole = protocol::bytes_view(buf.data() + (pos - buf_start), h->total_size());
      if (!protocol::validate_batch(whole))
        break;
    }
    bool go_on;
    if constexpr (std::is_invocable_v<Visitor, const protocol::batch_header&, uint64_t, protocol::bytes_view>)
      go_on = visit(*h, pos, protocol::bytes_view(buf.data() + (pos - buf_start), h->total_size()));
    else
      go_on = visit(*h, pos);
    if (!go_on) {
      stopped_by_visitor = true;
      break;
    }
    pos += h->total_size();
  }
  return pos;
}

} // namespace cafka::storage
