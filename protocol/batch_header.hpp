#pragma once
// The fixed 61-byte header of a Kafka record batch, magic 2, as stored on disk and
// sent on the wire (all integers big-endian):
//
//   0  base_offset i64        21 attributes i16          43 producer_id i64
//   8  batch_length i32       23 last_offset_delta i32    51 producer_epoch i16
//  12  leader_epoch i32       27 base_timestamp i64       53 base_sequence i32
//  16  magic i8 (= 2)         35 max_timestamp i64        57 record_count i32
//  17  crc u32 (CRC-32C of bytes 21..end)                 61 records ...
//
// batch_length counts the bytes after itself, so a batch occupies 12 + batch_length
// bytes. This is everything the storage layer reads per batch: it never looks inside
// the records, and offsets are assigned by rewriting base_offset alone (outside the CRC).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/result.hpp"

namespace cafka::protocol {

/// Byte views over batches are std::string_view (bytes, not text).
using bytes_view = std::string_view;

namespace batch_layout {
constexpr size_t base_offset = 0;
constexpr size_t batch_length = 8;
constexpr size_t leader_epoch = 12;
constexpr size_t magic = 16;
constexpr size_t crc = 17;
constexpr size_t attributes = 21;
constexpr size_t last_offset_delta = 23;
constexpr size_t base_timestamp = 27;
constexpr size_t max_timestamp = 35;
constexpr size_t producer_id = 43;
constexpr size_t producer_epoch = 51;
constexpr size_t base_sequence = 53;
constexpr size_t record_count = 57;
constexpr size_t header_size = 61;
/// base_offset + batch_length: the part of a batch not counted by batch_length.
constexpr size_t log_overhead = 12;
} // namespace batch_layout

enum class compression_codec : int8_t { none = 0, gzip = 1, snappy = 2, lz4 = 3, zstd = 4 };

namespace batch_attributes {
constexpr int16_t codec_mask = 0x07;
constexpr int16_t log_append_time = 0x08;
constexpr int16_t transactional = 0x10;
constexpr int16_t control = 0x20;
} // namespace batch_attributes

/// The decoded header fields of one v2 batch.
struct batch_header {
  int64_t base_offset = 0;
  int32_t batch_length = 0;
  int32_t leader_epoch = 0;
  int8_t magic = 2;
  uint32_t crc = 0;
  int16_t attributes = 0;
  int32_t last_offset_delta = 0;
  int64_t base_timestamp = 0;
  int64_t max_timestamp = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  int32_t record_count = 0;

  /// Offset of the last record (inclusive).
  int64_t last_offset() const noexcept { return base_offset + last_offset_delta; }
  /// Offset after the last record: where the next batch starts.
  int64_t next_offset() const noexcept { return last_offset() + 1; }
  /// Bytes the whole batch occupies, header included.
  size_t total_size() const noexcept {
    return batch_layout::log_overhead + static_cast<size_t>(batch_length);
  }
  compression_codec codec() const noexcept {
    return static_cast<compression_codec>(attributes & batch_attributes::codec_mask);
  }
  bool is_control() const noexcept { return attributes & batch_attributes::control; }
  bool is_transactional() const noexcept { return attributes & batch_attributes::transactional; }
};

/// Decodes the header at the start of `bytes` without checking the CRC. Fails with
/// truncated (fewer than 61 bytes), bad_magic (magic != 2) or bad_length
/// (batch_length too small for the header, or last_offset_delta or record_count negative).
result<batch_header> read_batch_header(bytes_view bytes);

/// Decodes and fully validates the batch at the start of `bytes`: the header as above,
/// the whole batch present (else truncated), and the CRC-32C (else bad_crc).
result<batch_header> validate_batch(bytes_view bytes);

/// Rewrites the base offset of the batch starting at `batch` (the CRC does not cover it).
void set_base_offset(char* batch, int64_t base_offset) noexcept;

/// Rewrites the partition leader epoch (also outside the CRC).
void set_leader_epoch(char* batch, int32_t epoch) noexcept;

/// Recomputes and stores the CRC of a complete batch of `size` bytes (after changing
/// attributes or timestamps, e.g. for LogAppendTime).
void update_crc(char* batch, size_t size) noexcept;

/// Switches a complete batch of `size` bytes to LogAppendTime: sets attribute bit 3 and
/// max_timestamp = `append_time_ms`, then recomputes the CRC (both are covered by it).
/// Readers then report `append_time_ms` as the timestamp of every record.
void set_log_append_time(char* batch, size_t size, int64_t append_time_ms) noexcept;

/// The size of the whole batches (or legacy message sets: the same offset + length framing)
/// at the start of `bytes` that fit in `limit`, but at least the first one: what a fetch may
/// return when a response limit cuts into a partition's data (Kafka lets only the first batch
/// go over, KIP-74). Reads the 12-byte framing only; stops at a torn or partial entry.
size_t whole_batches_within(bytes_view bytes, size_t limit) noexcept;

/// The records in the whole entries at the start of `bytes`: a v2 batch's header record_count,
/// 1 per legacy message (a compressed legacy wrapper counts once). Reads the framing and the
/// header only (what the broker's messages-out counter may cost); stops at a partial entry.
uint64_t count_records(bytes_view bytes) noexcept;

/// The offset after the last whole v2 batch at the start of `bytes` (its base offset +
/// last_offset_delta + 1), -1 when there is none: where a fetch's data ends. Reads the framing
/// and headers only; stops at a partial entry.
int64_t next_offset_after(bytes_view bytes) noexcept;

/// Kafka's RecordBatch.NO_TIMESTAMP.
constexpr int64_t no_timestamp = -1;

/// A CreateTime batch whose first timestamp is NO_TIMESTAMP: its producer set no timestamp
/// (librdkafka given -1 writes first timestamp -1, max timestamp 0 and deltas 0). Read off
/// the header alone; the broker stores such a batch with max timestamp -1, as Kafka's
/// recomputed max would be, so rolling and retention fall back to file times.
inline bool lacks_timestamp(const batch_header& h) noexcept {
  return !(h.attributes & batch_attributes::log_append_time) && h.base_timestamp < 0;
}

/// Sets max_timestamp = NO_TIMESTAMP in a complete batch of `size` bytes and recomputes
/// the CRC.
void set_no_timestamp(char* batch, size_t size) noexcept;

} // namespace cafka::protocol
