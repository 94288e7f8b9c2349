#pragma once
// The compression codecs of Kafka records (attributes & 0x07 of a v2 batch, or of a
// legacy wrapper message), one entry point per direction. Each codec writes what
// Kafka's Java client writes and reads what it and librdkafka write:
//
//   none   0  the bytes themselves
//   gzip   1  one gzip member (RFC 1952), byte for byte what java.util.zip's
//             GZIPOutputStream (JDK 16+) writes: zlib level 6, no name, mtime 0, OS 255.
//             Reading takes one member or several back to back (no Kafka client writes
//             several, but it is cheap to allow); anything else after a member fails.
//   snappy 2  the xerial snappy-java stream Kafka's Java client writes: 82 'SNAPPY' 00,
//             int32 version 1, int32 min-compatible 1 (big-endian), then 32 KiB blocks
//             as [int32 big-endian length][raw snappy block]. librdkafka produces a
//             plain raw snappy block instead; reading takes both, and concatenated
//             xerial streams, as snappy-java's SnappyInputStream does.
//   lz4    3  one LZ4 frame, see lz4_frame.hpp
//   zstd   4  zstd frames. Written one-shot (level 3, Kafka's default, with the content
//             size); read with the streaming API, because Java's zstd-jni and librdkafka
//             stream and so leave the content size out.
//   5..7      undefined: unsupported_compression
//
// Every call uses its own codec context, so the functions are stateless and
// thread-safe, and a corrupt input can never affect a later call.

#include <cstddef>
#include <vector>

#include "protocol/batch_header.hpp" // bytes_view, compression_codec
#include "protocol/lz4_frame.hpp"    // lz4_header_checksum
#include "protocol/result.hpp"

namespace cafka::protocol {

/// True for codecs 0..4, the ones Kafka defines (and compress/decompress support).
bool is_known_codec(compression_codec codec) noexcept;

/// Appends `input` compressed with `codec` to `out` and returns how many bytes were
/// appended. Errors: unsupported_compression for codecs 5..7, compression_failed if the
/// library reports an error (not expected for valid codecs). Throws std::bad_alloc.
result<size_t> compress(compression_codec codec, bytes_view input, std::vector<char>& out);

/// The same into a vector of its own.
result<std::vector<char>> compress(compression_codec codec, bytes_view input);

/// Appends the decompressed content of `input` (all of it: trailing bytes that are not
/// another member, stream or frame of the codec are an error) to `out` and returns how
/// many bytes were appended. At most `max_output` bytes are ever appended or allocated
/// for output, whatever sizes the input declares. On error `out` keeps its old size.
///
/// Errors: unsupported_compression for codecs 5..7; too_large if the content exceeds
/// `max_output`; compression_failed for anything malformed (bad magic or checksum,
/// corrupt data, input that ends early or has garbage after it). `hc` only matters for
/// lz4 (see lz4_decompress_frame).
result<size_t> decompress(compression_codec codec, bytes_view input, std::vector<char>& out,
                          size_t max_output, lz4_header_checksum hc = lz4_header_checksum::standard);

} // namespace cafka::protocol
