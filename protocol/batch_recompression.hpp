#pragma once
// compression.type on the broker (Kafka's LogValidator): a batch that came in another codec
// than the topic's is stored in the topic's. One batch at a time, as a whole: its records
// section is decompressed and compressed again in one piece, never record by record; the
// header keeps every field (producer id, epoch, sequence, timestamps, leader epoch, control
// and transactional flags) but the codec bits, batch_length and the CRC.

#include <cstddef>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

/// Whether a batch in `current` must be rewritten for a topic storing `target` (-1: as the
/// producer sent it; else a compression_codec number). Control batches (transaction
/// markers) stay uncompressed, as Kafka writes them.
bool needs_recompression(const batch_header& h, int target) noexcept;

/// The complete batch at the start of `batch` (validated by the caller) with its records
/// section in `target`; at most `max_uncompressed` bytes decompressed (else too_large).
/// Errors: those of decompress() and compress() (protocol/compression.hpp).
result<std::vector<char>> recompress_batch(bytes_view batch, compression_codec target, size_t max_uncompressed);

} // namespace cafka::protocol
