#pragma once
// The records section of a v2 batch (uncompressed), walked record by record with the
// checks every reader makes: lengths within the section, offset deltas increasing and
// within last_offset_delta, exactly record_count records. Shared by for_each_record and
// filter_batch.

#include <cstddef>
#include <functional>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/record.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

/// Writes every header field of `h` but the CRC into the batch at `p` of `size` bytes
/// (batch_length from `size`, magic 2). The caller computes the CRC (update_crc).
void store_batch_header(char* p, size_t size, const batch_header& h) noexcept;

/// The records section of `batch` (whose header is `h`): a view into `batch`, or, for a
/// compressed batch, into `inflated`, which receives at most `max_uncompressed` bytes.
/// Errors: those of decompress().
result<bytes_view> records_section(bytes_view batch, const batch_header& h, size_t max_uncompressed,
                                   std::vector<char>& inflated);

/// Visits each record of `section` (the records of the batch `h`, decompressed) with its
/// absolute offset and timestamp filled in, and the record's bytes as stored (length prefix
/// included). Errors: bad_record, truncated, or those of read_record_body; `visit` may have
/// seen earlier records then.
status walk_records(const batch_header& h, bytes_view section,
                    const std::function<void(const record_view&, bytes_view stored)>& visit);

} // namespace cafka::protocol
