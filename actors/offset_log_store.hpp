#pragma once
// The committed offsets of every group on this node, kept in the internal topic
// __consumer_offsets (records as cluster/offset_records.hpp) and in an offset_table built
// from it. One partition, __consumer_offsets-0, in the first log dir, for every group (Kafka
// spreads groups over offsets.topic.num.partitions partitions to spread coordinators; one
// node coordinates every group here, so one log is enough for now). The log is opened
// beside the topic registry's partitions, not in it: it is neither listed in Metadata nor
// served to clients, and no retention cleaner touches it.
//
// Shared by the group actors (each through persistent_group_offsets) and the expiry timer
// (offsets_expirer), so every call takes a mutex. A commit is appended to the log (a write
// to the page cache, as partition appends) and applied to the table before it is answered;
// fsync follows log.flush.* like other partitions, run by `run_blocking` (the node's I/O
// worker) so no scheduler thread waits for the disk.
//
// Rewrite: the table says how much of the log is superseded, but partition_log cannot yet
// replace its segments with a snapshot, so the log only grows (one record per committed
// partition and commit). Left for later: once superseded_fraction() > 0.5, append
// snapshot_batches() to a fresh log and swap it in.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "actors/group_offset_store.hpp"
#include "cluster/offset_table.hpp"
#include "protocol/result.hpp"
#include "storage/log_config.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

class offset_log_store : public std::enable_shared_from_this<offset_log_store> {
public:
  /// Runs a blocking job (an fsync) off the scheduler threads; the job finishes later.
  using blocking_runner = std::function<void(std::function<std::error_code()> job)>;

  /// The partition of __consumer_offsets this store keeps.
  static storage::topic_partition partition() { return {"__consumer_offsets", 0}; }

  /// Opens (creating) __consumer_offsets-0 in `dir` and replays it into the table. The
  /// log never expires by time or size (`cfg`'s retention is switched off).
  static result<std::shared_ptr<offset_log_store>> open(const storage::log_directory& dir,
                                                        storage::log_config cfg, int64_t now_ms,
                                                        blocking_runner run_blocking);

  /// Appends `offsets` of `group` as one batch, then applies them: none, or the error that
  /// kept all of them from being stored.
  protocol::kafka_error commit(const std::string& group, const std::vector<group_offset>& offsets,
                               int64_t now_ms);
  /// The committed offsets of `group` among those `query` names (see group_offset_store).
  std::vector<group_offset> fetch(const std::string& group, const group_offset_query& query) const;

  /// The groups with committed offsets.
  std::vector<std::string> groups() const;
  /// Appends and applies tombstones for the offsets that expired at `now_ms`
  /// (offset_table::expired); returns how many expired.
  result<size_t> expire(int64_t now_ms, int64_t retention_ms, const cluster::group_expiry_probe& probe);

  /// Records in the log and live entries (for logs and tests).
  size_t log_records() const;
  size_t size() const;

  /// The log (for the node's shutdown checkpoint; only read after close()).
  std::shared_ptr<storage::partition_log> log() const { return log_; }

  /// Flushes and closes the log (blocking: at shutdown, from the main thread).
  status close();

private:
  offset_log_store(std::unique_ptr<storage::partition_log> log, blocking_runner run_blocking)
      : log_(std::move(log)), run_blocking_(std::move(run_blocking)) {}
  status replay();
  using flush_start = std::function<std::error_code()>;
  // Appends `updates` and applies them; the mutex is held. `flush` gets the fsync to hand to
  // run_blocking once the mutex is released (the job takes it to complete).
  status append_locked(const std::vector<cluster::offset_update>& updates, int64_t now_ms, flush_start& flush);
  flush_start prepare_flush_locked(int64_t now_ms);
  void start_flush(flush_start flush);

  mutable std::mutex mutex_;
  std::shared_ptr<storage::partition_log> log_;
  cluster::offset_table table_;
  blocking_runner run_blocking_;
  bool flush_in_flight_ = false;
  bool closed_ = false;
};

} // namespace cafka
