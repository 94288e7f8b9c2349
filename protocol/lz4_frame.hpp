#pragma once
// LZ4 frames (the LZ4 frame format, magic 0x184D2204), the container Kafka uses for
// codec 3: the records section of an LZ4 batch, and the value of a legacy LZ4 wrapper,
// is exactly one frame. (The LZ4 *block* API's output is not a valid frame.)
//
// Compression writes what librdkafka writes: 64 KiB independent blocks, no content size,
// no checksums, so the frame starts 04 22 4d 18 60 40 82 and Java consumers, which only
// accept independent blocks, can read it.
//
// Decompression accepts any valid frame (any block size, linked or independent blocks,
// optional checksums and content size), e.g. those of the `lz4` command-line tool. Each
// call uses a fresh decompression context, so an error or an abandoned frame can never
// poison a later call (lz4 1.9.4 does not fully reset a context; see caf-0.17-notes §8).
// The functions are therefore stateless and safe to call from any thread.

#include <cstddef>
#include <vector>

#include "protocol/batch_header.hpp" // bytes_view
#include "protocol/result.hpp"

namespace cafka::protocol {

/// Appends one LZ4 frame holding `input` to `out`. Throws std::bad_alloc only.
void append_lz4_frame(std::vector<char>& out, bytes_view input);

/// One LZ4 frame holding `input`.
std::vector<char> lz4_compress_frame(bytes_view input);

/// Which header checksum byte (HC) a frame may carry.
enum class lz4_header_checksum {
  standard,         ///< only the correct HC: xxh32 of the frame descriptor (FLG..)
  allow_kafka_3160, ///< also Kafka 0.8.2-0.9's HC over magic + descriptor (legacy magic 0)
};

/// Decompresses the single LZ4 frame that makes up all of `frame`. Fails with
/// too_large if the content would exceed `max_output` bytes (checked while decoding, so
/// at most `max_output` bytes are ever allocated for output, whatever the header says),
/// and with compression_failed for anything malformed: bad magic or checksum, corrupt
/// blocks, a frame that ends early, or bytes after the end of the frame.
result<std::vector<char>> lz4_decompress_frame(bytes_view frame, size_t max_output,
                                               lz4_header_checksum hc = lz4_header_checksum::standard);

} // namespace cafka::protocol
