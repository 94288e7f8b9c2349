#pragma once
// Rewriting one v2 batch with some of its records, as the log cleaner does (Kafka's
// MemoryRecords.filterTo / buildRetainedRecordsInto):
//
// - A batch that keeps every record (and gets no delete horizon) is copied as it is.
// - Otherwise the kept records are written into a new batch with the same base offset,
//   last_offset_delta (so the batch still ends where it ended: offsets become sparse),
//   codec, producer id / epoch / base sequence, flags, leader epoch and timestamp type.
//   Each record keeps its offset_delta; record_count is the number kept; max_timestamp
//   is the largest kept one (under CreateTime); the CRC is new.
// - A delete horizon (the time after which the batch's tombstones may go) is stored as
//   Kafka does: base_timestamp = the horizon and attribute bit 6, with the records'
//   timestamp deltas rewritten against it (their absolute timestamps stay).
// - A batch that keeps no record yields nothing; empty_batch() is the 61-byte header a
//   cleaner keeps instead where producer state or the end offset needs it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/record.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

namespace batch_attributes {
/// Bit 6: base_timestamp holds the batch's delete horizon (KIP-534).
constexpr int16_t delete_horizon = 0x40;
} // namespace batch_attributes

/// The delete horizon of a batch, if it has one.
std::optional<int64_t> delete_horizon_of(const batch_header& h) noexcept;

enum class filter_outcome {
  unchanged, ///< every record kept: the batch was copied as it is
  rewritten, ///< a new batch with the kept records was written
  emptied,   ///< no record kept: nothing was written
};

struct filter_result {
  filter_outcome outcome = filter_outcome::unchanged;
  batch_header header; ///< the original batch's
  int32_t kept = 0;    ///< records kept
};

/// Appends to `out` what is kept of the batch at the start of `batch` (validated as
/// for_each_record does, decompressed into at most `max_uncompressed` bytes): `keep` sees
/// every record in order. `new_delete_horizon` is stamped when a kept record is a tombstone
/// (a null value) and the batch has no horizon yet. Errors: those of for_each_record and compress; `out` keeps
/// its old size then. Control batches are the caller's business (not filtered here).
result<filter_result> filter_batch(bytes_view batch, size_t max_uncompressed,
                                   const std::function<bool(const record_view&)>& keep,
                                   std::optional<int64_t> new_delete_horizon, std::vector<char>& out);

/// Appends the header-only batch Kafka keeps for an emptied batch (writeEmptyHeader): no
/// records, codec none, base_timestamp -1, everything else as in `h`.
void append_empty_batch(const batch_header& h, std::vector<char>& out);

} // namespace cafka::protocol
