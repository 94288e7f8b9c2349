#pragma once
// Record batches v2 (magic 2) as a whole: building one from records, and reading the
// records back. The 61-byte header itself is in batch_header.hpp, one record's layout
// in record_codec.hpp.
//
// A batch is laid out as Kafka does (DefaultRecordBatch.java): the header, then the
// records section, which is the records back to back (codec none) or those bytes
// compressed in one piece (ONE gzip member, xerial snappy stream, LZ4 frame or zstd
// frame: protocol/compression.hpp). record_count stays outside the compression.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/record.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

struct batch_options {
  compression_codec codec = compression_codec::none; ///< any of Kafka's codecs 0..4
  int64_t base_offset = 0;
  int32_t leader_epoch = 0; ///< what librdkafka sends; the broker overwrites it anyway
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  bool transactional = false;
  /// Unset: CreateTime, max_timestamp = the largest record timestamp. Set: LogAppendTime
  /// with this as max_timestamp (see set_log_append_time()).
  std::optional<int64_t> log_append_time;
};

/// Accumulates records and produces one complete, CRC-correct v2 batch.
///
/// Each add() encodes the record at once into an internal buffer (offset_delta = its
/// position, timestamp_delta relative to the first record's timestamp, which becomes
/// base_timestamp). build() fills in the header, compresses once if asked, computes the
/// CRC once, returns the batch and leaves the builder empty for reuse with the same
/// options. Not thread-safe; one builder per thread.
class batch_builder {
public:
  /// Throws std::invalid_argument for an undefined codec (5..7).
  explicit batch_builder(batch_options options = {});

  void add(const record& r);
  /// The same without headers and without copying key and value into a `record`.
  void add(int64_t timestamp, const std::optional<bytes_view>& key,
           const std::optional<bytes_view>& value);

  int32_t record_count() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }

  /// Precondition: at least one record (Kafka has no empty batches); throws
  /// std::logic_error otherwise, and std::length_error if the batch exceeds 2 GiB.
  std::vector<char> build();

private:
  void add(int64_t timestamp, const std::optional<bytes_view>& key,
           const std::optional<bytes_view>& value, const std::vector<record_header>& headers);
  void reset();

  batch_options options_;
  std::vector<char> buffer_; ///< header_size placeholder bytes, then the encoded records
  int32_t count_ = 0;
  int64_t base_timestamp_ = 0;
  int64_t max_timestamp_ = 0;
};

/// One batch holding `records` in order: a batch_builder with default options except
/// the codec. Precondition: `records` is not empty.
std::vector<char> build_batch(const std::vector<record>& records,
                              compression_codec codec = compression_codec::none);

/// Visits the records of the batch at the start of `batch` (bytes after it are
/// ignored), in order. First validates the batch (validate_batch: header, length, CRC),
/// then decompresses the records section once if needed, into at most
/// `max_uncompressed` bytes (else too_large). The views passed to `visit` point into
/// `batch` or into that decompressed buffer and die when `visit` returns.
///
/// Errors: those of validate_batch; unsupported_compression for undefined codecs (5..7);
/// compression_failed / too_large from decompress(); truncated if a record's
/// length runs past the records section; bad_record for a malformed record, an
/// offset_delta that is not increasing or lies beyond last_offset_delta, or a number
/// of records other than record_count. `visit` may already have seen the records before
/// a later one fails. Returns the batch header on success.
result<batch_header> for_each_record(bytes_view batch, size_t max_uncompressed,
                                     const std::function<void(const record_view&)>& visit);

/// The records of the batch at the start of `batch`, copied out; errors as
/// for_each_record().
result<std::vector<decoded_record>> read_records(bytes_view batch, size_t max_uncompressed);

} // namespace cafka::protocol
