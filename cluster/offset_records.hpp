#pragma once
// The records of the internal topic __consumer_offsets that hold committed offsets, in
// Kafka's format (OffsetCommitKey / OffsetCommitValue), so the log reads like Kafka's.
//
// Every key and value starts with an i16 version; STRING is an i16 length and UTF-8 bytes.
//
//   key v0, v1 (offset commit):  version:i16 group:STRING topic:STRING partition:i32
//   key v2 (group metadata):     version:i16 group:STRING                 (skipped here)
//   key v3+ (newer record kinds of Kafka's group coordinator)             (skipped here)
//
//   value v0, v2:  version:i16 offset:i64 metadata:STRING commit_timestamp:i64
//   value v1:      version:i16 offset:i64 metadata:STRING commit_timestamp:i64
//                  expire_timestamp:i64                    (-1 = none)
//   value v3:      version:i16 offset:i64 leader_epoch:i32 metadata:STRING commit_timestamp:i64
//   value v4:      v3 with metadata as COMPACT_STRING, then TAG_BUFFER (flexible; read only)
//   null value:    a tombstone: the offset of that key is deleted
//
// Writing follows Kafka >= 2.1: value v1 when the commit carries an expire timestamp (an
// OffsetCommit v2-v4 with retention_time_ms), else v3; keys are always v1. Reading takes
// every version above so logs written by older or newer code still load; a key or value
// version it does not know is skipped, never an error. Metadata is never null in the log:
// a commit whose metadata is null is stored as "" (Kafka's OffsetAndMetadata.NoMetadata).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

inline constexpr std::string_view offsets_topic_name = "__consumer_offsets";

/// What an offset is committed for.
struct offset_key {
  std::string group;
  std::string topic;
  int32_t partition = 0;

  friend bool operator==(const offset_key& a, const offset_key& b) {
    return a.group == b.group && a.topic == b.topic && a.partition == b.partition;
  }
  friend bool operator<(const offset_key& a, const offset_key& b) {
    if (a.group != b.group)
      return a.group < b.group;
    if (a.topic != b.topic)
      return a.topic < b.topic;
    return a.partition < b.partition;
  }
};

/// One committed offset, as OffsetFetch returns it.
struct committed_offset {
  int64_t offset = 0;
  int32_t leader_epoch = -1; ///< -1 = unknown (values before v3)
  std::string metadata;
  int64_t commit_timestamp_ms = 0;
  /// Set only by a commit with an explicit retention (value v1): the offset expires then,
  /// instead of by offsets.retention.minutes.
  std::optional<int64_t> expire_timestamp_ms;

  friend bool operator==(const committed_offset& a, const committed_offset& b) {
    return a.offset == b.offset && a.leader_epoch == b.leader_epoch && a.metadata == b.metadata
           && a.commit_timestamp_ms == b.commit_timestamp_ms
           && a.expire_timestamp_ms == b.expire_timestamp_ms;
  }
};

/// One record of the topic: a commit, or a deletion (tombstone) when `value` is empty.
struct offset_update {
  offset_key key;
  std::optional<committed_offset> value;

  bool is_tombstone() const noexcept { return !value.has_value(); }
  friend bool operator==(const offset_update& a, const offset_update& b) {
    return a.key == b.key && a.value == b.value;
  }
};

// -- single keys and values ---------------------------------------------------------------

/// The key, version 1. Throws std::length_error for a group or topic over 32767 bytes.
std::string encode_offset_key(const offset_key& key);

/// The value version Kafka writes for `value`: 1 with an expire timestamp, else 3.
int16_t offset_value_version(const committed_offset& value) noexcept;
/// The value in `version` (1 or 3; others throw std::invalid_argument). Version 1 drops the
/// leader epoch, version 3 the expire timestamp.
std::string encode_offset_value(const committed_offset& value, int16_t version);

/// The offset-commit key in `key`, or nothing for another record kind (group metadata,
/// newer kinds). Errors: the byte_reader's (truncated, bad_length) for a malformed key of a
/// known version. Trailing bytes are ignored.
result<std::optional<offset_key>> decode_offset_key(protocol::bytes_view key);

/// The value in `value`, or nothing for a version it does not know (above 4). Errors as
/// decode_offset_key().
result<std::optional<committed_offset>> decode_offset_value(protocol::bytes_view value);

// -- batches --------------------------------------------------------------------------------

/// One uncompressed v2 batch holding `updates` in order, one record each (key v1, value as
/// offset_value_version(), null value for a tombstone), every record timestamped
/// `timestamp_ms`; ready for partition_log::append. Empty `updates` give an empty buffer
/// (Kafka has no empty batches: append nothing).
std::vector<char> encode_offset_batch(const std::vector<offset_update>& updates,
                                      int64_t timestamp_ms);

/// The same, split into consecutive batches of at most `max_batch_bytes` each (unless one
/// record alone is larger), back to back in one buffer: partition_log::append takes several
/// batches at once, and message.max.bytes limits each.
std::vector<char> encode_offset_batches(const std::vector<offset_update>& updates,
                                        int64_t timestamp_ms, size_t max_batch_bytes);

/// A transactional batch of offset commits (TxnOffsetCommit: pending until the producer's
/// transaction ends), timestamped `timestamp_ms`, with the producer's id and epoch, base
/// sequence 0 (as Kafka's group coordinator writes it; the log does not check its sequence).
std::vector<char> encode_txn_offset_batch(const std::vector<offset_update>& updates, int64_t producer_id,
                                          int16_t producer_epoch, int64_t timestamp_ms);

/// One batch as the offsets' state sees it: plain commits, a transaction's pending commits,
/// or the marker that ends that transaction.
struct offset_log_step {
  int64_t producer_id = -1;           ///< a transactional batch's or marker's producer; -1: plain
  std::vector<offset_update> updates; ///< the batch's records (none for a marker)
  std::optional<bool> commit;         ///< a transaction marker: true COMMIT, false ABORT
};

/// What a batch of the topic held.
struct decoded_offset_batch {
  std::vector<offset_update> updates; ///< the plain (non-transactional) commits, in log order
  std::vector<offset_log_step> steps; ///< every batch with records or a marker, in log order
  size_t skipped_records = 0; ///< other record kinds, unknown versions, other control records
  int64_t next_offset = 0;    ///< the offset after the last batch read
  size_t bytes = 0;           ///< bytes of the batches read
};

/// Decodes every batch in `batches` (e.g. what partition_log::read returned) into updates.
/// Records without a key, of other kinds (group metadata) or of unknown versions are counted
/// in skipped_records; a control batch is a step only when it is a transaction marker.
///
/// Errors: those of for_each_record (a corrupt batch: truncated, bad_crc, ...; unsupported
/// compression) and of decode_offset_key / decode_offset_value for a malformed record of a
/// known version. An empty input gives an empty result.
result<decoded_offset_batch> decode_offset_batches(protocol::bytes_view batches,
                                                   size_t max_uncompressed = 64u << 20);

} // namespace cafka::cluster
