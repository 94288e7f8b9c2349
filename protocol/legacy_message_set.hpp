#pragma once
// Legacy message sets (magic 0 and 1; Produce v0-v2, Fetch v0-v3), converted on arrival
// into one v2 batch so that everything behind the protocol layer sees only magic 2.
//
// A message set is entries back to back:
//
//   offset:i64 message_size:i32 message, where message is
//   crc:u32 magic:i8 attributes:i8 [magic 1: timestamp:i64] key:NULLABLE_BYTES value:NULLABLE_BYTES
//
// crc is CRC-32 (IEEE) over magic..end of the message. Attributes bits 0-2 are the codec,
// bit 3 (magic 1) the timestamp type. A compressed set is a *wrapper* message whose value
// is the compressed inner message set (uncompressed messages of the same magic).
//
// Byte 16 of an entry is the magic in both the legacy and the v2 layout, which is how a
// caller routes a produce payload: magic_of() == 2 -> v2 batch, 0 or 1 -> this file.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

/// The magic byte (offset 16) of the first entry of `bytes`, or -1 if it is shorter.
int magic_of(bytes_view bytes) noexcept;

struct legacy_conversion_options {
  /// Timestamp given to magic 0 messages, which carry none (the broker's clock).
  int64_t now_ms = 0;
  /// Limit on all decompressed inner message sets together (else too_large).
  size_t max_uncompressed = 64 * 1024 * 1024;
  /// Codec of the resulting batch: any of Kafka's codecs 0..4.
  compression_codec output_codec = compression_codec::none;
};

/// Converts the legacy message set `set` (all of it) into ONE v2 batch holding all its
/// messages in order, wrappers flattened: offset deltas 0..n-1, base_offset 0 (the
/// broker assigns offsets with set_base_offset), producer id/epoch/sequence -1.
///
/// Timestamps: magic 0 -> options.now_ms; magic 1 -> the message's own, or for the inner
/// messages of a LogAppendTime wrapper the wrapper's. If any message or wrapper is
/// LogAppendTime, the batch becomes LogAppendTime with the largest such timestamp as
/// its max_timestamp (readers then report that time for every record).
///
/// Wrappers: gzip, snappy and LZ4 (codecs 1-3) are decompressed (protocol/compression.hpp);
/// for magic 0 an LZ4 frame may carry the broken header checksum of KAFKA-3160. Zstd
/// (which needs magic 2) and undefined codecs fail with unsupported_compression. A
/// wrapper inside a wrapper, an inner magic that differs from its wrapper's, or an empty
/// inner set is bad_record.
///
/// Errors: truncated (empty input, or an entry cut short), bad_magic (magic not 0/1),
/// bad_length (message_size below the minimum of its magic, or a negative key/value
/// length other than -1), bad_crc, bad_record (fields overrunning or not filling their
/// message), and those of decompress() (compression_failed, too_large).
result<std::vector<char>> convert_legacy_message_set(bytes_view set,
                                                     const legacy_conversion_options& options);

} // namespace cafka::protocol
