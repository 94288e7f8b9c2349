#pragma once
// Encoding and decoding of ONE record of a v2 batch (DefaultRecord.java):
//
//   length:varint                 bytes after this field
//   attributes:i8                 unused, written as 0
//   timestamp_delta:varlong       relative to the batch's base_timestamp
//   offset_delta:varint           relative to the batch's base_offset
//   key_length:varint key         -1 = null
//   value_length:varint value     -1 = null
//   header_count:varint
//   headers: key_length:varint key value_length:varint value   (key never null)
//
// All varints are zigzag. The batch-level logic (which deltas are legal, absolute
// values, compression) lives in record_batch.*; this file only knows the layout.

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/byte_writer.hpp"
#include "protocol/record.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

/// Appends one record, length prefix included.
void write_record(byte_writer& out, int32_t offset_delta, int64_t timestamp_delta,
                  const std::optional<bytes_view>& key, const std::optional<bytes_view>& value,
                  const std::vector<record_header>& headers);

/// Decodes the body of one record (the bytes after its length prefix, exactly) into
/// `out`: offset_delta, timestamp_delta, key, value and headers, as views into `body`.
/// `out` is filled in place so that its header vector keeps its capacity from record to
/// record. Fails with bad_record if the body is malformed or has bytes left over; on
/// failure `out` holds garbage.
status read_record_body(bytes_view body, record_view& out);

} // namespace cafka::protocol
