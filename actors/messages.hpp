#pragma once
// The message types of cafka's actor interfaces. Every type crosses CAF's middleman
// (cafka's C++ client talks to the node through it), so each has an inspect()
// overload and an entry in actors/type_ids.hpp. Kafka wire structs stay out of here:
// protocol versions never ripple into the actors.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/meta/type_name.hpp>

#include "storage/aborted_txn_index.hpp"
#include "storage/listed_offsets.hpp"
#include "storage/log_config.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::protocol {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, topic_partition& x) {
  return f(caf::meta::type_name("topic_partition"), x.topic, x.partition);
}

} // namespace cafka::protocol

namespace cafka::storage {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, aborted_range& x) {
  return f(caf::meta::type_name("aborted_range"), x.producer_id, x.first_offset);
}

} // namespace cafka::storage

namespace cafka {

using storage::topic_partition;

using storage::earliest_timestamp; // list_offsets' special timestamps (storage/listed_offsets.hpp)
using storage::latest_timestamp;

/// Record batches (v2, any codec) for one partition. acks: 0 (the sender expects no
/// answer it waits for), 1 (answered once the batches are in the leader's operating
/// system), -1 (all: answered once every in-sync replica has them, or with
/// request_timed_out after timeout_ms).
struct produce_request {
  int16_t acks = 1;
  std::vector<char> records;
  int32_t timeout_ms = 30000;
  /// Kafka's AppendOrigin.COORDINATOR: a group coordinator's transactional offset commits
  /// (TxnOffsetCommit), whose producer epoch is checked but not their sequence.
  bool from_coordinator = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, produce_request& x) {
  return f(caf::meta::type_name("produce_request"), x.acks, x.records, x.timeout_ms, x.from_coordinator);
}

struct produce_result {
  int64_t base_offset = -1;     ///< offset of the first record appended
  int64_t log_append_time = -1; ///< -1 unless the topic uses LogAppendTime
  int64_t log_start_offset = 0;
  int64_t records = 0; ///< records appended (from the batch headers), for the metrics
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, produce_result& x) {
  return f(caf::meta::type_name("produce_result"), x.base_offset, x.log_append_time,
           x.log_start_offset, x.records);
}

/// A long poll: answered as soon as min_bytes are available from `offset`, or after
/// max_wait_ms with whatever there is.
struct fetch_request {
  int64_t offset = 0;
  int32_t max_bytes = 1 << 20;
  int32_t min_bytes = 1;
  int32_t max_wait_ms = 500;
  /// The leader epoch the client knows (Fetch v9+); -1: none. Another epoch than the
  /// leader's is FENCED_LEADER_EPOCH (older) or UNKNOWN_LEADER_EPOCH (newer).
  int32_t current_leader_epoch = -1;
  /// Kafka's isolation_level 1: data only up to the last stable offset, with the aborted
  /// transactions it overlaps.
  bool read_committed = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, fetch_request& x) {
  return f(caf::meta::type_name("fetch_request"), x.offset, x.max_bytes, x.min_bytes,
           x.max_wait_ms, x.current_leader_epoch, x.read_committed);
}

/// A fetch that never parks: answered at once with what there is, and if that is less
/// than min_bytes the partition keeps a watch. The next append that gives min_bytes sends
/// (fetch_atom, watcher_key, topic_partition, fetch_result) to `watcher`, once. A newer
/// watch with the same `watcher_key` (one per client connection) replaces an older one,
/// and a watch lapses fetch_watch_grace_ms after max_wait_ms, so a partition keeps at most
/// one per live connection, and the watcher may rely on an unfired watch for a while
/// without asking the partition again (Kafka's fetch sessions serve the same end).
struct fetch_watch {
  fetch_request request;
  caf::actor watcher;
  uint64_t watcher_key = 0;
};

constexpr int64_t fetch_watch_grace_ms = 30'000;

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, fetch_watch& x) {
  return f(caf::meta::type_name("fetch_watch"), x.request, x.watcher, x.watcher_key);
}

/// Whole batches from the one holding the requested offset, all below the high watermark.
struct fetch_result {
  int64_t high_watermark = 0;
  int64_t log_start_offset = 0;
  std::vector<char> records;
  int64_t last_stable_offset = 0;
  /// read_committed: the aborted transactions the records overlap (their batches are the
  /// reader's to drop up to each producer's ABORT marker).
  std::vector<storage::aborted_range> aborted;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, fetch_result& x) {
  return f(caf::meta::type_name("fetch_result"), x.high_watermark, x.log_start_offset, x.records,
           x.last_stable_offset, x.aborted);
}

/// A transaction marker the coordinator writes to one partition (an entry of Kafka's
/// WriteTxnMarkers): the producer's transaction there ends, committed or aborted. The leader
/// answers once the marker is replicated as acks=all is (request_timed_out after timeout_ms).
struct txn_marker_request {
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  bool commit = false;
  int32_t coordinator_epoch = 0;
  int32_t timeout_ms = 30000;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, txn_marker_request& x) {
  return f(caf::meta::type_name("txn_marker_request"), x.producer_id, x.producer_epoch, x.commit,
           x.coordinator_epoch, x.timeout_ms);
}

/// DescribeProducers: one producer a partition's leader knows (Kafka's ProducerState).
struct producer_description {
  int64_t producer_id = -1;
  int32_t producer_epoch = -1;
  int32_t last_sequence = -1;
  int64_t last_timestamp = -1;
  int32_t coordinator_epoch = -1;
  int64_t current_txn_start_offset = -1; ///< -1: no open transaction
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, producer_description& x) {
  return f(caf::meta::type_name("producer_description"), x.producer_id, x.producer_epoch, x.last_sequence,
           x.last_timestamp, x.coordinator_epoch, x.current_txn_start_offset);
}

/// An answer of list_offsets (storage/listed_offsets.hpp): the offset, the record's timestamp
/// for a timestamp lookup (-1 otherwise) and the leader epoch of the offset (latest: the
/// current one). offset -1: no record at or after the timestamp.
struct offset_answer {
  int64_t offset = -1;
  int64_t timestamp = -1;
  int32_t leader_epoch = -1; ///< -1: unknown
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, offset_answer& x) {
  return f(caf::meta::type_name("offset_answer"), x.offset, x.timestamp, x.leader_epoch);
}

struct partition_status {
  topic_partition tp;
  int64_t log_start_offset = 0;
  int64_t log_end_offset = 0;
  int64_t high_watermark = 0;
  int64_t size_bytes = 0;
  int32_t segments = 0;
  int64_t recovery_point = 0; ///< offsets below it are on disk (fsynced)
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_status& x) {
  return f(caf::meta::type_name("partition_status"), x.tp, x.log_start_offset, x.log_end_offset,
           x.high_watermark, x.size_bytes, x.segments, x.recovery_point);
}

/// What one retention pass removed from a partition.
struct retention_report {
  topic_partition tp;
  std::vector<int64_t> deleted_segments; ///< base offsets
  int64_t deleted_bytes = 0;
  int64_t log_start_offset = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, retention_report& x) {
  return f(caf::meta::type_name("retention_report"), x.tp, x.deleted_segments, x.deleted_bytes,
           x.log_start_offset);
}

} // namespace cafka

namespace cafka::storage {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, log_config& x) {
  return f(caf::meta::type_name("log_config"), x.segment_bytes, x.roll_ms, x.index_interval_bytes, x.index_max_bytes,
           x.retention_ms, x.retention_bytes, x.flush_interval_messages, x.flush_interval_ms, x.max_message_bytes,
           x.roll_jitter_ms, x.file_delete_delay_ms, x.preallocate, x.log_append_time, x.timestamp_before_max_ms,
           x.timestamp_after_max_ms, x.compression, x.producer_id_expiration_ms, x.cleanup_delete, x.cleanup_compact);
}

} // namespace cafka::storage

namespace cafka {

/// A topic to create. partitions / replication_factor -1: the broker defaults
/// (num.partitions, default.replication.factor).
struct topic_spec {
  std::string name;
  int32_t partitions = -1;
  int16_t replication_factor = -1;
  std::map<std::string, std::string> configs;
  /// Manual replica assignment (element p: partition p's brokers, preferred leader first);
  /// when given, partitions and replication_factor follow from it.
  std::vector<std::vector<int32_t>> assignments;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, topic_spec& x) {
  return f(caf::meta::type_name("topic_spec"), x.name, x.partitions, x.replication_factor,
           x.configs, x.assignments);
}

/// More partitions for a topic (CreatePartitions; cluster/partition_addition.hpp): `count` is
/// the new total; `assignments`, if given, the replicas of each new partition.
struct partition_addition_request {
  std::string topic;
  int32_t count = 0;
  std::vector<std::vector<int32_t>> assignments;
  bool validate_only = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_addition_request& x) {
  return f(caf::meta::type_name("partition_addition_request"), x.topic, x.count, x.assignments, x.validate_only);
}

struct topic_description {
  std::string name;
  int16_t replication_factor = 1;
  std::map<std::string, std::string> configs;
  std::vector<partition_status> partitions;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, topic_description& x) {
  return f(caf::meta::type_name("topic_description"), x.name, x.replication_factor, x.configs,
           x.partitions);
}

} // namespace cafka
