#pragma once
// The actor that owns one partition's replica on this node: its log, its role (leader or
// follower, docs/replication.md) and, as leader, its high watermark and in-sync replicas.
//
// As leader it appends, serves fetches below the high watermark (parking long polls as
// response promises, answered when the high watermark moves or max_wait_ms ends), serves
// its followers' fetches up to the log end, answers acks=all produces once the in-sync
// replicas have the batch, answers offset lookups and applies retention. As follower it
// appends what its replica fetcher brings from the leader, byte for byte, and truncates
// where the leader's epochs say its log diverged; clients get NOT_LEADER_OR_FOLLOWER.
// Appends and reads are plain write()/pread() calls into the page cache; fsync and file
// deletion go to the node's I/O worker, a detached actor, so they never block a
// scheduler thread.

#include <cstdint>
#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"
#include "actors/clean_messages.hpp"
#include "actors/messages.hpp"
#include "actors/replication_messages.hpp"

namespace cafka::storage {
class partition_log;
struct deleted_segment;
}

namespace cafka::cluster {
class coordinator;
}

namespace cafka::metrics {
class broker_metrics;
}

namespace cafka {

using partition_actor = caf::typed_actor<
  /// Appends the batches (validated; offsets assigned) and answers once they are in the
  /// operating system.
  caf::replies_to<produce_atom, produce_request>::with<produce_result>,
  /// Leader: the producers its log knows (DescribeProducers).
  caf::replies_to<describe_producers_atom>::with<std::vector<producer_description>>,
  /// Leader: a transaction marker from the coordinator, answered as an acks=all produce.
  caf::replies_to<txn_marker_atom, txn_marker_request>::with<produce_result>,
  /// Reads from an offset, waiting up to max_wait_ms for min_bytes.
  caf::replies_to<fetch_atom, fetch_request>::with<fetch_result>,
  /// Reads from an offset at once, watching for more when short of min_bytes (see
  /// fetch_watch): how a fetch over several partitions waits without parking at each.
  caf::replies_to<fetch_atom, fetch_watch>::with<fetch_result>,
  /// earliest_timestamp, latest_timestamp, or the first record at or after a timestamp.
  caf::replies_to<list_offsets_atom, int64_t>::with<offset_answer>,
  /// The same with the leader epoch the client knows (-1: none), checked as a fetch's, and
  /// whether it reads committed (isolation level 1: the last stable offset bounds the answer).
  caf::replies_to<list_offsets_atom, int64_t, int32_t, bool>::with<offset_answer>,
  /// Offsets and size.
  caf::replies_to<caf::get_atom>::with<partition_status>,
  /// Reads whole batches from an offset (at most the bytes given) up to the log end, not
  /// only the high watermark, whatever the role: how the offsets store loads the committed
  /// offsets of a __consumer_offsets partition this broker comes to lead (Kafka loads to the
  /// log end). Empty at the log end.
  caf::replies_to<offsets_load_atom, int64_t, int32_t>::with<fetch_result>,
  /// Leader: DeleteRecords, moving the log start to an offset (-1: the high watermark);
  /// answers the low watermark once every live replica's log start reached it, or
  /// request_timed_out after the milliseconds given.
  caf::replies_to<delete_records_atom, int64_t, int32_t>::with<int64_t>,
  /// The log cleaner (actors/log_cleaner.hpp): how dirty the log is, a round to run, and
  /// its result to swap in (each replica compacts its own log, as in Kafka).
  caf::replies_to<clean_status_atom, int64_t>::with<clean_candidate>,
  caf::replies_to<clean_prepare_atom, int64_t>::with<clean_job_handle>,
  caf::replies_to<clean_complete_atom, clean_job_handle>::with<clean_report>,
  /// Applies time and size retention for `now` (ms since the epoch).
  caf::replies_to<retention_atom, int64_t>::with<retention_report>,
  /// Leader: a follower's fetch of one partition (replica id), up to the log end; an empty
  /// answer leaves a watch that sends (replica_fetch_atom, key) to the watcher on the next
  /// append (the leader's multi-partition poll, actors/replica_fetch_poll.hpp).
  caf::replies_to<replica_fetch_atom, int32_t, replica_fetch_partition, caf::actor, uint64_t>::with<
    replica_fetch_partition_result>,
  /// Leader: OffsetForLeaderEpoch (current leader epoch of the asker, epoch asked).
  caf::replies_to<epoch_end_atom, int32_t, int32_t>::with<epoch_end_answer>,
  /// Follower: where its log ends, for its fetcher.
  caf::replies_to<replica_fetch_atom>::with<replica_position>,
  /// Follower: appends the leader's batches (leader epoch followed, the offset they start
  /// at, the bytes, the leader's high watermark and log start); answers the new position.
  caf::replies_to<replica_append_atom, int32_t, int64_t, std::vector<char>, int64_t, int64_t>::with<
    replica_position>,
  /// Follower: truncates by the leader's answer to OffsetForLeaderEpoch.
  caf::replies_to<truncate_atom, epoch_end_answer>::with<truncation_done>,
  /// Follower: after OFFSET_OUT_OF_RANGE, given the leader's log start and end.
  caf::replies_to<truncate_atom, int64_t, int64_t>::with<replica_position>,
  /// The role the applied cluster view records (from the node actor).
  caf::reacts_to<role_atom, replica_role>,
  /// The topic's settings changed (a config altered at run time): used from now on (sizes
  /// and times at the next roll or retention pass).
  caf::reacts_to<log_config_atom, storage::log_config>,
  /// Leader: the ISR check timer (its generation), and an ISR write's outcome.
  caf::reacts_to<isr_atom, uint64_t>,
  caf::reacts_to<isr_atom, bool, std::vector<int32_t>>,
  /// Internal timers: the earliest deadline of parked fetches and acks=all produces (its
  /// id), and the flush.ms interval.
  caf::reacts_to<caf::timeout_atom, uint64_t>,
  caf::reacts_to<caf::tick_atom>,
  /// Answers parked fetches, stops and replies with the log end offset. The log is then
  /// the caller's to close.
  caf::replies_to<caf::close_atom>::with<int64_t>>;

/// What a partition actor needs besides its log.
struct partition_context {
  topic_partition tp;
  /// The node's I/O worker (actors/io_worker.hpp) for fsync and deletions.
  caf::actor io_worker;
  /// Milliseconds since the epoch; replaceable for simulated time.
  std::function<int64_t()> now_ms;
  /// This broker, and the role to start in; an empty role.replicas makes it the only
  /// replica (a single node): leader, ISR = {broker_id}.
  int32_t broker_id = 0;
  replica_role role;
  /// The high watermark of replication-offset-checkpoint; -1: none (an only replica then
  /// starts at its log end, others at the log start).
  int64_t high_watermark = -1;
  int64_t replica_lag_time_max_ms = 30000;
  /// Where a leader records ISR changes (conditional writes); null on a single node.
  std::shared_ptr<cluster::coordinator> coordinator;
  /// Counts the ISR changes this leader makes; may be null.
  std::shared_ptr<metrics::broker_metrics> metrics;
};

/// Spawns the actor; it shares the log with the node, which closes it after the actor
/// answered close.
partition_actor spawn_partition(caf::actor_system& sys, std::shared_ptr<storage::partition_log> log,
                                partition_context ctx);

} // namespace cafka
