#pragma once
// Settings of one partition log, taken from the broker's log.* keys and the topic's
// overrides. Every field has Kafka's default.

#include <cstdint>
#include <limits>

namespace cafka::storage {

struct log_config {
  /// log.segment.bytes / segment.bytes: roll when the active segment would exceed this.
  int64_t segment_bytes = 1024 * 1024 * 1024;
  /// log.roll.ms / segment.ms: roll when the active segment's first batch is this old.
  int64_t roll_ms = 7LL * 24 * 60 * 60 * 1000;
  /// log.index.interval.bytes: bytes of log between two sparse index entries.
  int32_t index_interval_bytes = 4096;
  /// log.index.size.max.bytes: the size an index file is preallocated to (roll when full).
  int32_t index_max_bytes = 10 * 1024 * 1024;
  /// log.retention.ms / retention.ms: delete sealed segments older than this; -1 = never.
  int64_t retention_ms = 7LL * 24 * 60 * 60 * 1000;
  /// log.retention.bytes / retention.bytes: delete oldest segments above this; -1 = never.
  int64_t retention_bytes = -1;
  /// log.flush.interval.messages / flush.messages: fsync after this many unflushed records.
  int64_t flush_interval_messages = std::numeric_limits<int64_t>::max();
  /// log.flush.interval.ms / flush.ms: fsync when unflushed data is this old.
  int64_t flush_interval_ms = std::numeric_limits<int64_t>::max();
  /// message.max.bytes / max.message.bytes: the largest batch accepted.
  int32_t max_message_bytes = 1048588;
  /// segment.jitter.ms: each new segment rolls by time up to this much before roll_ms (a
  /// random share), so that partitions created together do not all roll at once.
  int64_t roll_jitter_ms = 0;
  /// file.delete.delay.ms: how long the files of a deleted segment (renamed *.deleted) stay
  /// before they are unlinked.
  int64_t file_delete_delay_ms = 60000;
  /// preallocate: reserve segment_bytes of disk for each new segment (the file keeps its size).
  bool preallocate = false;
  /// message.timestamp.type=LogAppendTime: the leader stamps each batch with its append time.
  bool log_append_time = false;
  /// message.timestamp.before.max.ms / after.max.ms (difference.max.ms where those are
  /// unset), CreateTime only: a batch whose first timestamp lies more than this before now,
  /// or whose max timestamp more than this after now, is refused.
  int64_t timestamp_before_max_ms = std::numeric_limits<int64_t>::max();
  int64_t timestamp_after_max_ms = std::numeric_limits<int64_t>::max();
  /// compression.type: the codec (protocol::compression_codec) the leader stores batches
  /// in, recompressing those that came in another; -1: as the producer sent them.
  int8_t compression = -1;
  /// producer.id.expiration.ms (a broker key): an idempotent producer's state is dropped once
  /// its last batch is this old (its next batch is then taken at any sequence).
  int64_t producer_id_expiration_ms = 86400000;
  /// cleanup.policy contains "delete": retention removes old segments.
  bool cleanup_delete = true;
  /// cleanup.policy contains "compact": the cleaner keeps the last value per key.
  bool cleanup_compact = false;
  /// min.cleanable.dirty.ratio: the cleaner takes the log once the dirty part is this share.
  double min_cleanable_dirty_ratio = 0.5;
  /// min.compaction.lag.ms / max.compaction.lag.ms: a record stays uncompacted at least, and
  /// at most (then the log is cleaned whatever its ratio), this long.
  int64_t min_compaction_lag_ms = 0;
  int64_t max_compaction_lag_ms = std::numeric_limits<int64_t>::max();
  /// delete.retention.ms: a tombstone stays this long after the clean that first kept it.
  int64_t delete_retention_ms = 86400000;
};

} // namespace cafka::storage
