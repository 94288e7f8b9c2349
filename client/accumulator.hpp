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
// Muting (Kafka's RecordAccumulator/Sender do the same): a partition whose requests
// cannot take another batch (its in-flight limit is reached, or a batch waits for a
// retry) is muted by the producer. drain_ready() leaves a muted partition alone, so its
// open batch keeps collecting records (up to batch_size; further records start the next
// batch) while the request is out; once unmuted, whatever accumulated goes out as one
// batch. With linger 0 this makes batches grow with the load while each record waits
// about one round trip. next_deadline() ignores muted partitions (nothing can be sent
// there before the answer arrives); expire() still reaches them.
//
// The size estimate is the exact uncompressed v2 size (61-byte header plus each record's
// encoded size); with LZ4 the batch on the wire is smaller than the estimate.
//
// Records are encoded as they are appended (what protocol::batch_builder does, with the
// same bytes as a result) into a buffer reserved for a full batch up front, so a batch
// never grows by reallocation; buffers handed back with recycle() are reused.
//
// Time is passed in as `now` (steady_clock time points); nothing here reads a clock.
// Pure logic: no actors. Not thread-safe (owned by the producer actor).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
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
  protocol::compression_codec codec = protocol::compression_codec::none; ///< any Kafka codec
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
  /// An idempotent producer's numbering, set (in `bytes`, with the epoch) before the first
  /// attempt and kept for every retry: base_sequence -1 = not numbered yet.
  int64_t producer_id = -1;
  int32_t base_sequence = -1;
};

class record_accumulator {
public:
  /// Throws std::invalid_argument for an undefined codec (5-7).
  explicit record_accumulator(accumulator_config cfg = {});

  struct append_result {
    bool new_batch = false;    ///< the record opened a new batch for its partition
    bool batch_closed = false; ///< a batch of this partition became full (closed)
    bool muted = false;        ///< the partition is muted (nothing of it is drained now)
  };

  /// Adds a record with its completion `token`; `now` starts the linger of a new batch.
  append_result append(const storage::topic_partition& tp, const protocol::record& rec,
                       uint64_t token, steady_time now);
  /// The same without a topic_partition (no copy of the topic name).
  append_result append(const std::string& topic, int32_t partition, const protocol::record& rec,
                       uint64_t token, steady_time now);

  /// Removes and builds the batches that are ready at `now`, oldest first per partition,
  /// at most `max_per_partition` of each partition; muted partitions are skipped.
  std::vector<sealed_batch> drain_ready(steady_time now, size_t max_per_partition = SIZE_MAX);

  /// Removes and builds every batch, ready or not, muted or not.
  std::vector<sealed_batch> drain_all();

  /// Removes the batches created before `cutoff` (delivery timeout), muted partitions
  /// included. Their `bytes` stay EMPTY (they are never sent; tokens and timestamps are
  /// set).
  std::vector<sealed_batch> expire(steady_time cutoff);

  /// When the oldest open (not yet ready) batch of an unmuted partition lingers out;
  /// nothing if there is none.
  std::optional<steady_time> next_deadline() const;

  /// Hands the bytes of a sealed batch back once nobody needs them any more (its produce
  /// request was answered), so that a later batch reuses the memory. Optional.
  void recycle(std::vector<char>&& bytes);

  /// When the oldest batch (muted or not) was created: what expire() looks at; nothing if
  /// there is none.
  std::optional<steady_time> oldest() const;

  /// Mutes / unmutes a partition (see above). Partitions start unmuted.
  void set_muted(const storage::topic_partition& tp, bool muted);
  bool muted(const storage::topic_partition& tp) const;
  bool muted(const std::string& topic, int32_t partition) const;

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
    std::vector<char> buffer; ///< header placeholder, then the encoded records
    int32_t count = 0;
    std::vector<uint64_t> tokens;
    std::vector<int64_t> timestamps;
    size_t estimated = protocol::batch_layout::header_size;
    int64_t base_timestamp = 0;
    int64_t max_timestamp = 0;
    steady_time created;
    uint64_t sequence = 0;
    bool closed = false;
  };

  struct partition_slot {
    std::deque<open_batch> batches; ///< oldest first; only the last one may be open
    bool muted = false;
  };
  /// The topic's partitions by number (slots are created on first use, never removed).
  using topic_slots = std::vector<partition_slot>;

  bool is_ready(const open_batch& b, steady_time now) const;
  void add_record(open_batch& b, const protocol::record& rec);
  std::vector<char> build(open_batch& b);
  std::vector<char> take_buffer();
  sealed_batch seal(const std::string& topic, int32_t partition, open_batch& b, bool with_bytes = true);
  partition_slot& slot(const std::string& topic, int32_t partition);
  const partition_slot* find_slot(const std::string& topic, int32_t partition) const;

  accumulator_config cfg_;
  std::map<std::string, topic_slots, std::less<>> topics_;
  std::vector<std::vector<char>> spare_; ///< recycled buffers
  size_t batches_ = 0;
  uint64_t next_sequence_ = 1;
  bool flushing_ = false;
};

} // namespace cafka::client
