#pragma once
// A single node's committed offsets of every group, kept in the internal topic
// __consumer_offsets (records as cluster/offset_records.hpp) and in one offset_table per
// partition built from it. (In a cluster the partitions are replicated partition actors and
// actors/replicated_offsets.hpp keeps the tables; this store is not used there.)
//
// Partitions: offsets.topic.num.partitions (N) logs __consumer_offsets-0..N-1 in the first
// log dir; a group's records go to offsets_partition_for(group, N) (Kafka's partitionFor),
// its "home" partition, so that the node leading that partition can coordinate the group
// once there is a cluster. A partition's folder is created on its first commit; opening
// reads only the folders that exist, so N = 50 small logs cost nothing until used. The
// logs are opened beside the topic registry's partitions, not in it: they are neither
// listed in Metadata nor served to clients, and no retention cleaner touches them.
//
// A different N than the one the folders were written with (documented choice): every
// __consumer_offsets-K folder on disk is read, K >= N included. A group found in a
// partition other than its home for the current N is moved at open: its entries are
// appended to the home partition (unless the home holds a newer commit of the same key,
// by commit timestamp), then tombstoned where they were. A crash between the two steps
// leaves both copies, and the next open repeats the move with the same outcome. Emptied
// folders K >= N stay on disk (read at every open, a few bytes).
//
// Shared by the group actors (each through persistent_group_offsets), the expiry timer
// (offsets_expirer) and the I/O worker's clean job, so every call takes one mutex. A
// commit is appended to the log (a write to the page cache, as partition appends) and
// applied to the table before it is answered; fsync follows log.flush.* like other
// partitions, run by `run_blocking` (the node's I/O worker) so no scheduler thread waits
// for the disk. Creating a partition's folder on its first commit happens under the mutex
// (a mkdir and three empty files, once per partition).
//
// Transactions: TxnOffsetCommit appends a transactional batch (commit_txn) that stays pending
// in the table until the coordinator's marker (write_txn_marker) applies or drops it.
//
// Compaction: the logs are compacted as a topic with cleanup.policy=compact is (Kafka's
// __consumer_offsets is one): after a commit or an expiry, a partition whose log is due
// (storage/cleaning_plan.hpp: the sealed segments' dirty share above `cfg`'s
// min.cleanable.dirty.ratio) gets a cleaner round (storage/clean_job.hpp): prepared under the
// mutex, run by `run_blocking` without it (commits go on to the active segment meanwhile,
// and records of open transactions, at or above the last stable offset, are not touched),
// then swapped in under the mutex (storage/clean_swap.hpp: a crash at any step leaves the log
// as before or as after, which the next open repairs); the replaced files are unlinked on
// the I/O worker. A round's key map is `clean_buffer_bytes`.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "actors/group_offset_store.hpp"
#include "actors/offsets_store.hpp"
#include "cluster/offset_table.hpp"
#include "protocol/result.hpp"
#include "storage/log_config.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

/// How the store spreads and compacts its partitions.
struct offset_store_options {
  /// offsets.topic.num.partitions (>= 1).
  int32_t partitions = 1;
  /// The memory of a clean round's key map (storage/offset_map.hpp).
  size_t clean_buffer_bytes = size_t{4} << 20;
};

class offset_log_store final : public offsets_store, public std::enable_shared_from_this<offset_log_store> {
public:
  /// Runs a blocking job (an fsync, a clean) off the scheduler threads; the job finishes
  /// later. Without one, fsyncs are skipped and cleans run inline.
  using blocking_runner = std::function<void(std::function<std::error_code()> job)>;
  using log_map = std::map<storage::topic_partition, std::shared_ptr<storage::partition_log>>;

  /// __consumer_offsets-`p`.
  static storage::topic_partition partition(int32_t p = 0) { return {"__consumer_offsets", p}; }

  /// Opens every __consumer_offsets-K folder of `dir` (repairing an interrupted clean),
  /// replays them into the tables and moves groups to their home partition (see the top).
  /// `dir` must outlive the store. The logs are compacted and never expire by time or size
  /// (`cfg`'s cleanup policy is set to compact).
  static result<std::shared_ptr<offset_log_store>> open(const storage::log_directory& dir,
                                                        storage::log_config cfg, int64_t now_ms,
                                                        blocking_runner run_blocking,
                                                        offset_store_options options = {});

  /// The partition of __consumer_offsets that holds `group`'s offsets.
  int32_t partition_for(const std::string& group) const;
  int32_t partition_of(const std::string& group) const override { return partition_for(group); }

  /// Appends `offsets` of `group` to its partition as one batch, then applies them: none,
  /// or the error that kept all of them from being stored.
  protocol::kafka_error commit(const std::string& group, const std::vector<group_offset>& offsets,
                               int64_t now_ms);
  /// The same, answered at once (offsets_store).
  void commit(const std::string& group, std::vector<group_offset> offsets, int64_t now_ms,
              commit_done done) override {
    done(commit(group, offsets, now_ms));
  }
  void remove(const std::string& group, const std::vector<storage::topic_partition>& partitions, int64_t now_ms,
              commit_done done) override;
  void commit_txn(const std::string& group, int64_t producer_id, int16_t producer_epoch,
                  std::vector<group_offset> offsets, int64_t now_ms, commit_done done) override;
  void write_txn_marker(int32_t partition, int64_t producer_id, int16_t producer_epoch, bool commit,
                        int32_t coordinator_epoch, int64_t now_ms, commit_done done) override;
  /// The committed offsets of `group` among those `query` names (see group_offset_store).
  std::vector<group_offset> fetch(const std::string& group, const group_offset_query& query) const override;

  /// The groups with committed offsets, sorted.
  std::vector<std::string> groups() const override;
  /// Appends and applies tombstones for the offsets that expired at `now_ms`
  /// (offset_table::expired); returns how many expired.
  result<size_t> expire(int64_t now_ms, int64_t retention_ms, const cluster::group_expiry_probe& probe) override;

  /// Records in the logs and live entries, over every partition (for logs and tests).
  size_t log_records() const;
  size_t size() const;
  /// Clean rounds swapped in since open (for logs and tests).
  size_t cleans() const;

  /// The open log of partition `p`, or nullptr if it has none yet.
  std::shared_ptr<storage::partition_log> log(int32_t p = 0) const;
  /// Every open log (for the node's shutdown checkpoint; read after close()).
  log_map logs() const;

  /// Flushes and closes the logs (blocking: at shutdown, from the main thread).
  status close();

private:
  using blocking_job = std::function<std::error_code()>;

  struct partition_state {
    std::shared_ptr<storage::partition_log> log; ///< nullptr until the first commit
    cluster::offset_table table;
    bool flush_in_flight = false;
    bool clean_in_flight = false;
  };

  offset_log_store(const storage::log_directory& dir, const storage::log_config& cfg, blocking_runner run_blocking,
                   offset_store_options options)
      : dir_(dir), cfg_(cfg), run_blocking_(std::move(run_blocking)), options_(options) {}

  // Appends `updates` of `group` to its partition as one batch, then applies them.
  protocol::kafka_error store(const std::string& group, const std::vector<cluster::offset_update>& updates,
                              int64_t now_ms);
  status load(int64_t now_ms);
  status replay(int32_t p);
  status move_strays(int64_t now_ms, std::vector<blocking_job>& jobs);
  // Appends `updates` to partition `p` (creating its log) and applies them; the mutex is
  // held. Adds the fsync to hand to run_blocking, once the mutex is released, to `jobs`.
  status append_locked(int32_t p, const std::vector<cluster::offset_update>& updates, int64_t now_ms,
                       std::vector<blocking_job>& jobs);
  // Partition `p`'s log, created on its first use; the mutex is held.
  status open_log_locked(int32_t p, int64_t now_ms);
  // The steps TxnOffsetCommit and a marker share: under the mutex, unless the store is closed,
  // `append` on partition `p` (its log created first if
  // `create_log`; without a log nothing is appended); then its flush, and `done`.
  void append_for_txn(int32_t p, int64_t now_ms, bool create_log, const std::function<status(partition_state&)>& append,
                      commit_done done);
  blocking_job prepare_flush_locked(int32_t p, int64_t now_ms);
  void start(std::vector<blocking_job> jobs);

  status append_to(storage::partition_log& log, const std::vector<cluster::offset_update>& updates, int64_t now_ms);
  // A clean round of partition `p` if its log is due (offset_log_cleaning.cpp); the mutex is held.
  blocking_job prepare_clean_locked(int32_t p, int64_t now_ms);

  const storage::log_directory& dir_;
  storage::log_config cfg_;
  blocking_runner run_blocking_;
  offset_store_options options_;

  mutable std::mutex mutex_;
  std::map<int32_t, partition_state> partitions_;
  size_t cleans_ = 0;
  bool closed_ = false;
};

} // namespace cafka
