#pragma once
// The producer's record accumulator: records handed to the producer are collected per
// partition into record batches (protocol::batch_builder) until a batch is "ready":
//
//   * full: its estimated size reached batch_size (the record that would overflow a
//     non-empty batch starts the next one; a record larger than batch_size gets a batch
//     of its own), or
//   * lingered: linger has passed since its first record, or
//   * flushing: while set_flushing(true), every batch is ready at once.
//
// The size estimate is the exact uncompressed v2 size (61-byte header plus each record's
// encoded size); with LZ4 the batch on the wire is smaller than the estimate.
//
// Time is passed in as `now` (steady_clock time points); nothing here reads a clock.
// Pure logic: no actors. Not thread-safe (owned by the producer actor).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/record.hpp"
#include "protocol/record_batch.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::client {

using steady_time = std::chrono::steady_clock::time_point;

struct accumulator_config {
  size_t batch_size = 16384;
  std::chrono::milliseconds linger{5};
  protocol::compression_codec codec = protocol::compression_codec::none; ///< none or lz4
};

/// A closed batch, built and ready to be produced.
struct sealed_batch {
  storage::topic_partition tp;
  uint64_t sequence = 0;         ///< creation order; increases per partition
  std::vector<char> bytes;       ///< one complete v2 batch
  std::vector<uint64_t> tokens;  ///< the records' tokens, in offset order
  std::vector<int64_t> timestamps; ///< the records' CreateTime timestamps
  steady_time created;           ///< when its first record was appended
  int attempts = 0;              ///< produce attempts so far (the send queue counts)
};

class record_accumulator {
public:
  /// Throws std::invalid_argument for a codec other than none or lz4.
  explicit record_accumulator(accumulator_config cfg = {});

  struct append_result {
    bool new_batch = false;    ///< the record opened a new batch for its partition
    bool batch_closed = false; ///< a batch of this partition became full (closed)
  };

  /// Adds a record with its completion `token`; `now` starts the linger of a new batch.
  append_result append(const storage::topic_partition& tp, const protocol::record& rec,
                       uint64_t token, steady_time now);

  /// Removes and builds every batch that is ready at `now`, oldest first per partition.
  std::vector<sealed_batch> drain_ready(steady_time now);

  /// Removes and builds every batch, ready or not.
  std::vector<sealed_batch> drain_all();

  /// When the oldest open (not yet ready) batch lingers out; nothing if there is none.
  std::optional<steady_time> next_deadline() const;

  /// While set, every batch is ready regardless of linger (producer flush()).
  void set_flushing(bool on) noexcept { flushing_ = on; }

  bool empty() const noexcept { return batches_ == 0; }
  size_t batch_count() const noexcept { return batches_; }

  /// The encoded size of `rec` as record number `offset_delta` of a batch whose first
  /// timestamp is `base_timestamp` (length prefix included).
  static size_t record_size(const protocol::record& rec, int32_t offset_delta, int64_t base_timestamp);
  /// The same from the record's parts.
  static size_t record_size(const std::optional<std::string>& key, const std::optional<std::string>& value,
                            const std::vector<protocol::record_header>& headers, int32_t offset_delta,
                            int64_t timestamp_delta);

private:
  struct open_batch {
    explicit open_batch(protocol::batch_options opts) : builder(opts) {}
    protocol::batch_builder builder;
    std::vector<uint64_t> tokens;
    std::vector<int64_t> timestamps;
    size_t estimated = protocol::batch_layout::header_size;
    int64_t base_timestamp = 0;
    steady_time created;
    uint64_t sequence = 0;
    bool closed = false;
  };

  bool is_ready(const open_batch& b, steady_time now) const;
  sealed_batch seal(const storage::topic_partition& tp, open_batch& b);

  accumulator_config cfg_;
  std::map<storage::topic_partition, std::deque<open_batch>> parts_;
  size_t batches_ = 0;
  uint64_t next_sequence_ = 1;
  bool flushing_ = false;
};

} // namespace cafka::client
