#pragma once
// The log of one partition: an ordered list of segments in one folder, the last of
// which (the active segment) takes appends.
//
//   append    validates each batch (length, magic 2, CRC-32C, size limit), assigns
//             offsets by rewriting base offsets (and stamps the leader epoch, both
//             outside the CRC), and writes the whole buffer with one write(): once it
//             returns, the bytes are in the operating system. A follower's
//             append_replicated writes the leader's bytes as they are.
//   read      whole batches from the one holding the requested offset.
//   flush     fdatasync()s what the flush policy asks for and advances the recovery
//             point, the offset below which the log is known to be on disk.
//
// Opening trusts the sealed segments below the recovery point (or all, after a clean
// shutdown) and scans the rest with CRC checks: the first torn or corrupt batch and
// everything after it is truncated away, and missing or damaged indexes are rebuilt.
//
// Leader epochs (Kafka's KIP-101): the log keeps a leader_epoch_cache built from the
// partition_leader_epoch of the batches it stores, in <dir>/leader-epoch-checkpoint.
//   * Every change (append, assign_leader_epoch, truncation, retention) rewrites the file
//     at once by temporary file + rename, but without fsync: that costs no device wait
//     on the append path and happens about once per leader change. A killed process
//     thus leaves the current file. The next flush (prepare_flush/flush_job, flush,
//     close) fdatasync()s it and the folder, like the segments. A power loss before that
//     leaves the previous file, which opening corrects, or (on some file systems) an
//     empty one, handled as damaged.
//   * Opening loads the file (missing: empty; damaged: ignored, nothing logged), drops
//     its entries from the first scanned segment on and assigns them again from the
//     scanned batches, then trims it to [log start, log end]. So a lost or damaged file
//     is rebuilt where the log was scanned; epochs of trusted segments are lost then, as
//     in Kafka.
//   * If writing the file fails, the change stays in memory and prepare_flush() retries
//     the write, reporting its error: append never fails because of the epoch file.
//
// Log start (Kafka's logStartOffset): the first segment's base offset, or later when
// DeleteRecords moved it into a segment (advance_log_start). A moved start is kept in
// <dir>/log-start-offset (a decimal number), written like the epoch file (temporary file +
// rename, fsynced by the next flush); segments wholly below it are deleted at once, and by
// apply_retention() after a crash in between. A lost or damaged file only brings back
// records that were deleted, never loses any.
//
// Idempotent producers (Kafka's ProducerStateManager, storage/producer_state.hpp): the leader's
// append checks each batch of a producer id against its last five batches: a duplicate is
// answered with the original offsets and not written again (append_info::duplicate), a gap
// or an old epoch is refused. Every appended batch, the leader's, a follower's or one read
// at recovery, updates the state. It is snapshotted at each roll to
// <dir>/<next offset>.snapshot (Kafka's file format; written like the epoch file, and at a
// clean close durably) and rebuilt at open from the newest snapshot at or below the log end
// plus the batch headers after it (partition_log_producers.cpp).
//
// Transactions (Kafka's transactional log, storage/producer_state.hpp): a producer's first
// transactional batch opens its transaction; the marker a coordinator appends
// (append_txn_marker, protocol/control_batch.hpp) closes it. The last stable offset is the
// first offset of the earliest transaction still open, or whose marker is not yet below the
// high watermark; ABORT markers add the transaction to the aborted transaction index
// (storage/aborted_txn_index.hpp, <base>.txnindex) that read_committed fetches consult. At
// open (and after a truncation) the entries after the replay start are dropped and rebuilt
// from the replayed markers. Clients may not append control batches (INVALID_RECORD).
//
// Not thread-safe and blocking: one owner calls it. Only open(), flush(), close() and
// flush_job::run() wait for the device (fsync); the rest blocks in plain reads and writes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"
#include "protocol/control_batch.hpp"
#include "storage/aborted_txn_index.hpp"
#include "storage/clean_job.hpp"
#include "storage/cleaning_plan.hpp"
#include "storage/file.hpp"
#include "storage/leader_epoch_cache.hpp"
#include "storage/log_dir_health.hpp"
#include "storage/log_config.hpp"
#include "storage/producer_state.hpp"
#include "storage/retention.hpp"

namespace cafka::storage {

class segment;

inline constexpr const char* log_start_file_name = "log-start-offset";
/// The cleaner's first dirty offset (a decimal number; Kafka keeps it per log dir in
/// cleaner-offset-checkpoint).
inline constexpr const char* cleaner_offset_file_name = "cleaner-offset";

/// What append() assigned.
struct append_info {
  int64_t first_offset = 0;
  int64_t last_offset = 0;
  int64_t max_timestamp = -1;
  int64_t log_append_time = -1; ///< the time stamped into the batches, -1 unless LogAppendTime
  /// An idempotent producer's retry of a batch the log has: nothing was written, and the
  /// offsets (and append time) are the original batch's.
  bool duplicate = false;
  size_t batches = 0;
  size_t records = 0;
};

/// What open() found and repaired.
struct recovery_report {
  size_t segments = 0;          ///< segments found on disk
  size_t recovered_segments = 0; ///< segments scanned with CRC checks
  size_t rebuilt_indexes = 0;   ///< trusted segments whose index had to be rebuilt
  uint64_t truncated_bytes = 0; ///< torn or corrupt bytes cut from the end
  size_t deleted_segments = 0;  ///< segments after the damage, removed
};

/// A segment removed by retention.
struct deleted_segment {
  int64_t base_offset = 0;
  uint64_t size = 0;
  bool by_time = false;           ///< else by size, or below the log start
  bool below_log_start = false;   ///< wholly below a log start DeleteRecords moved
  std::vector<std::string> files; ///< renamed to *.deleted: the caller unlinks them
};

/// What complete_clean() did.
struct clean_outcome {
  bool swapped = false;                  ///< false: the log changed meanwhile, nothing swapped
  std::vector<std::string> deleted_files; ///< the replaced segments' files (*.deleted) to unlink
};

/// The fsync part of a flush, detached from the log so that it can run on another
/// thread while the log keeps taking appends; holds duplicate file descriptors.
class flush_job {
public:
  /// fdatasync()s every file and the folder if needed. Blocking. A failure takes the log's
  /// directory offline: after a failed fsync the page cache may have dropped the data.
  status run();
  /// The recovery point once run() succeeded.
  int64_t end_offset() const noexcept { return end_offset_; }

private:
  friend class partition_log;
  std::vector<file> files_;
  std::string dir_to_sync_;
  int64_t end_offset_ = 0;
  std::shared_ptr<log_dir_health> health_;
};

class partition_log {
public:
  /// Opens (creating if needed) the log in `dir`. `recovery_point` comes from the
  /// checkpoint file (0 if unknown); `clean_shutdown` says whether the previous owner
  /// closed the log properly, in which case nothing is scanned. Otherwise the tail after the
  /// recovery point is scanned, cut at the first damage, and fsynced (blocking).
  static result<std::unique_ptr<partition_log>> open(std::string dir, const log_config& cfg,
                                                     int64_t recovery_point,
                                                     bool clean_shutdown, int64_t now_ms);
  ~partition_log();
  partition_log(const partition_log&) = delete;
  partition_log& operator=(const partition_log&) = delete;

  /// Appends one or more v2 batches, rewriting their base offsets in place, and stamps
  /// `leader_epoch` into each batch's partition_leader_epoch when it is >= 0 (the
  /// leader's append). The epoch cache is assigned from each batch's final
  /// partition_leader_epoch (negative ones are skipped), so that a recovery scan of the
  /// same bytes rebuilds the same cache.
  result<append_info> append(std::vector<char>& batches, int64_t now_ms, int32_t leader_epoch);
  /// The same without stamping (leader_epoch = -1).
  result<append_info> append(std::vector<char>& batches, int64_t now_ms);
  /// A follower's append of the leader's bytes: validated as append() does, but nothing
  /// is rewritten. The first batch must start at log_end_offset() and each next one
  /// right after the previous (in a compacted log: at or after, as the leader's cleaner
  /// leaves gaps), else non_contiguous_offsets and nothing is written.
  result<append_info> append_replicated(std::vector<char>& batches, int64_t now_ms);
  /// The health of the directory this log is in (log_directory::open_log sets the one
  /// its logs share; a log opened alone has its own). Appends refuse with log_dir_offline
  /// once it is offline; a failed write or fsync of this log takes it offline, after
  /// cutting what the write left of its batches.
  void set_dir_health(std::shared_ptr<log_dir_health> health) { health_ = std::move(health); }
  const log_dir_health& dir_health() const noexcept { return *health_; }

  /// A coordinator's data batches (Kafka's appendAsLeader with origin COORDINATOR: a group
  /// coordinator's transactional offset commits): a producer's epoch below the one the log
  /// knows is refused with invalid_producer_epoch; sequences are not checked.
  result<append_info> append_as_coordinator(std::vector<char>& batches, int64_t now_ms, int32_t leader_epoch);

  /// The coordinator's transaction marker for a producer (Kafka's appendAsLeader with origin
  /// COORDINATOR), stamped with `leader_epoch`: refused with invalid_producer_epoch when the
  /// producer's epoch is newer, coordinator_fenced when its last marker came from a newer
  /// coordinator epoch (storage/errc.hpp).
  result<append_info> append_txn_marker(int64_t producer_id, int16_t producer_epoch, protocol::txn_marker marker,
                                        int64_t now_ms, int32_t leader_epoch);

  /// The last stable offset under `high_watermark`: the first offset of the earliest
  /// transaction that is open, or whose marker is not yet below the high watermark (Kafka's
  /// firstUnstableOffset), else the high watermark. Forgets the completed transactions whose
  /// marker is below it (Kafka's onHighWatermarkUpdated): leaders and followers call it as
  /// their high watermark moves.
  int64_t last_stable_offset(int64_t high_watermark);
  /// read_committed: the aborted transactions overlapping [fetch_offset, upper)
  /// (aborted_txn_index::collect).
  std::vector<aborted_range> aborted_transactions(int64_t fetch_offset, int64_t upper) const {
    return txn_index_.collect(fetch_offset, upper);
  }

  /// A new leader's assign(epoch, log end) (Kafka's makeLeader). True if it changed.
  bool assign_leader_epoch(int32_t epoch);
  const leader_epoch_cache& epoch_cache() const noexcept { return epochs_; }
  const producer_state& producers() const noexcept { return producers_; }

  /// Bytes of whole batches starting with the batch that holds `offset`: at most
  /// `max_bytes` unless the first batch alone is larger, none at or beyond `end_offset`
  /// (default: the log end). Fails with offset_out_of_range outside
  /// [log_start_offset(), log_end_offset()]; empty at the end.
  result<std::vector<char>> read(int64_t offset, size_t max_bytes,
                                 std::optional<int64_t> end_offset = std::nullopt);

  /// Where the batch holding `offset` starts: its segment's base offset and the file
  /// position; nothing when no batch holds it (at the log end). offset_out_of_range
  /// outside the log.
  struct position {
    int64_t segment_base_offset = 0;
    uint64_t file_position = 0;
  };
  result<std::optional<position>> locate(int64_t offset);

  /// The first batch whose max timestamp is >= `timestamp` (Kafka's ListOffsets
  /// lookup), as (base offset of that batch, its max timestamp); nothing if none.
  struct timestamp_match {
    int64_t batch_base_offset = 0;
    int64_t batch_max_timestamp = 0;
    std::vector<char> batch; ///< the batch's bytes, for a per-record search
  };
  result<std::optional<timestamp_match>> find_by_timestamp(int64_t timestamp);

  /// ListOffsets by timestamp: the first record whose timestamp is >= `timestamp`
  /// (searched within the batch find_by_timestamp() picks, decompressing it if needed;
  /// for a codec this build cannot open, the batch's base offset). Nothing if none.
  struct timestamp_offset {
    int64_t offset = 0;
    int64_t timestamp = 0;
  };
  result<std::optional<timestamp_offset>> offset_for_timestamp(int64_t timestamp);

  /// Removes every record at or after `offset` (whole batches; see segment), and the
  /// epochs starting at or after the new log end (also when `offset` >= the log end:
  /// an assigned epoch without records goes, as in Kafka). At or below the log start,
  /// the log restarts empty at `offset`.
  status truncate_to(int64_t offset);
  /// Kafka's truncateFullyAndStartAt: every segment and epoch goes, and the log
  /// continues empty at `offset` (a follower behind its leader's log start).
  status truncate_fully_and_start_at(int64_t offset);

  /// Removes the segments that retention selects from the log (their files renamed to
  /// *.deleted for the caller to unlink); returns them, oldest first.
  result<std::vector<deleted_segment>> apply_retention(int64_t now_ms);

  /// DeleteRecords: moves the log start forward to `offset` (at most the log end; a lower
  /// one changes nothing) and removes the segments wholly below it (renamed to *.deleted
  /// for the caller to unlink), oldest first. Reads below the new start fail with
  /// offset_out_of_range.
  result<std::vector<deleted_segment>> advance_log_start(int64_t offset);

  /// Compaction (cleanup.policy=compact; storage/clean_job.hpp): what the cleaner may clean
  /// now (storage/cleaning_plan.hpp); nothing for a log that is not compacted. The owner
  /// passes the partition's last stable offset; records at or above it are not cleaned.
  result<std::optional<cleanable_range>> cleanable(int64_t last_stable_offset, int64_t now_ms);
  /// The cleaner's next round when the log is due for one, else nothing.
  result<std::optional<clean_job>> prepare_clean(int64_t last_stable_offset, int64_t now_ms);
  /// After job.run(): puts the cleaned segments in the place of those the job read
  /// (storage/clean_swap.hpp) and moves the cleaner's checkpoint to job.map_end(), unless the
  /// log changed meanwhile (retention, truncation, DeleteRecords took a segment the job read).
  result<clean_outcome> complete_clean(clean_job& job);
  /// The cleaner's first dirty offset; -1 before the first clean.
  int64_t cleaner_offset() const noexcept { return cleaner_offset_; }

  /// Whether the flush policy wants a flush now.
  bool flush_due(int64_t now_ms) const noexcept;
  /// fdatasync()s everything not yet on disk and moves the recovery point to the end.
  status flush();
  /// The same in three steps: prepare (here), run the job anywhere, then complete.
  result<flush_job> prepare_flush();
  void complete_flush(const flush_job& job) noexcept;
  /// Flushes and seals the indexes so that the next open() after a clean shutdown
  /// reads nothing. The object must not be used afterwards.
  status close();

  int64_t log_start_offset() const noexcept;
  int64_t log_end_offset() const noexcept;
  int64_t recovery_point() const noexcept { return recovery_point_; }
  uint64_t size_bytes() const noexcept;
  size_t segment_count() const noexcept { return segments_.size(); }
  std::vector<int64_t> segment_base_offsets() const;
  const recovery_report& recovery() const noexcept { return report_; }
  const log_config& config() const noexcept { return cfg_; }
  /// Applies new settings (topic config changes); they take effect on the next roll.
  void set_config(const log_config& cfg) { cfg_ = cfg; }
  const std::string& dir() const noexcept { return dir_; }

private:
  partition_log(std::string dir, const log_config& cfg);
  status load(int64_t recovery_point, bool clean_shutdown, int64_t now_ms);
  status roll(int64_t now_ms);
  result<bool> should_roll(size_t append_bytes, const append_info& incoming, int64_t now_ms);
  status delete_segments_after(size_t index);
  status finish_epochs(const result<leader_epoch_cache>& stored);
  /// Who appends: a client (checked, offsets assigned), the transaction coordinator (a
  /// marker, checked by append_txn_marker), a follower (the leader's bytes as they are).
  enum class append_origin { client, coordinator, replication };
  result<append_info> append_batches(std::vector<char>& batches, int64_t now_ms, int32_t stamp_epoch,
                                     append_origin origin);
  bool note_appended(protocol::bytes_view batches, bool assign_batch_epochs);
  void note_batch(const protocol::batch_header& h, protocol::bytes_view batch, int64_t segment_base);
  status apply_timestamp_policy(char* batch, protocol::batch_header& h, int64_t now_ms);
  status save_epochs();
  status restart_at(int64_t offset);
  std::string epoch_file_path() const;
  std::string start_file_path() const;
  status load_start_offset();
  status save_start_offset();
  status load_cleaner_offset();
  status save_cleaner_offset();
  /// Whether the batches of the segment at `base` may leave offset gaps (a compacted log).
  bool gaps_allowed(int64_t base) const noexcept;
  result<std::vector<deleted_segment>> remove_segments_below_start();
  result<std::vector<deleted_segment>> retire_expired_segments(int64_t now_ms);
  result<deleted_segment> retire_first_segment(bool by_time, bool below_log_start);
  // -- partition_log_producers.cpp --
  result<std::optional<append_info>> check_producer(const protocol::batch_header& h, bool only_batch) const;
  status load_producers(std::vector<int64_t> snapshot_offsets, int64_t trusted_end, std::optional<int64_t> now_ms);
  status save_producer_snapshot(bool durable);
  void forget_snapshots_outside_log();
  size_t segment_index_for(int64_t offset) const noexcept;

  std::string dir_;
  log_config cfg_;
  std::vector<std::unique_ptr<segment>> segments_;
  int64_t recovery_point_ = 0;
  int64_t unflushed_records_ = 0;
  int64_t first_unflushed_ms_ = -1;
  bool dir_dirty_ = false;
  std::shared_ptr<log_dir_health> health_ = std::make_shared<log_dir_health>();
  recovery_report report_;
  /// The start DeleteRecords set; log_start_offset() is the larger of it and the first
  /// segment's base offset.
  int64_t moved_start_ = 0;
  bool start_file_unsynced_ = false;
  int64_t cleaner_offset_ = -1;
  bool cleaner_file_unsynced_ = false;
  leader_epoch_cache epochs_;
  producer_state producers_;
  aborted_txn_index txn_index_;
  /// Completed transactions whose marker may not be below the high watermark yet
  /// (Kafka's unreplicatedTxns), in marker order.
  std::vector<completed_txn> unreplicated_txns_;
  std::vector<int64_t> snapshots_; ///< offsets of the <offset>.snapshot files, ascending
  /// The epoch file against epochs_: current and durable, current but not fsynced, or
  /// not written (a failed write: prepare_flush() retries).
  enum class epoch_file_state { synced, unsynced, stale } epoch_file_ = epoch_file_state::synced;
};

} // namespace cafka::storage
