#pragma once
// Cluster mode: the committed offsets of the groups this broker coordinates, kept in the
// replicated __consumer_offsets partitions (docs/replication.md, "__consumer_offsets").
//
// The partitions are ordinary replicas: the node actor runs a partition actor for each one
// this broker holds (leader or follower; followers fetch them with the replica fetchers and
// append byte for byte). This store holds no log: it keeps one offset_table per partition
// this broker leads, and appends through that partition's actor.
//
// - Becoming leader of partition K (node_offsets.cpp): begin_load(K) gives a new generation
//   and an empty table; the node actor reads the local replica from its log start to its
//   log end (offsets_load_atom) into load(); finish_load(K) then makes K served: commits
//   go to its leader actor, and the node's group registry spawns K's groups.
// - A commit of a group of a served partition is encoded (cluster/offset_records.hpp) and
//   produced to the leader actor with acks=all (Kafka's offsets.commit.required.acks=-1)
//   and a timeout of `commit_timeout_ms` (offsets.commit.timeout.ms, 5000 in Kafka). Only
//   once the in-sync replicas have it is it applied to the table and answered; a failure
//   answers the error Kafka maps it to (cluster/offsets_replication.hpp). A commit of a
//   group whose partition is not served here answers NOT_COORDINATOR.
// - TxnOffsetCommit: the offsets go to the leader as a transactional batch (produce_request
//   from_coordinator, acks=all) and stay pending in the table; the transaction coordinator's
//   marker for the partition (write_txn_marker, written by the leader actor with acks=all)
//   then applies or drops them. A load replays both from the log.
// - Losing leadership (or the replica): drop(K) empties the table and bumps the
//   generation, so commits in flight from the old term are not applied to a later one
//   (they may be in the log: the next leader loads them, as in Kafka).
//
// Superseded records go by compaction: the topic is created with cleanup.policy=compact and
// every replica's log cleaner compacts its own copy (actors/log_cleaner.hpp), as in Kafka.
// Retention does not touch them (they are not on the routes the retention cleaner walks).
//
// Shared by the group actors, the expirer and the node actor: one mutex. Commits spawn a
// short-lived actor that waits for the partition actor's answer.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "actors/offsets_store.hpp"
#include "actors/partition_actor.hpp"
#include "cluster/offset_table.hpp"

namespace cafka {

class replicated_offsets final : public offsets_store, public std::enable_shared_from_this<replicated_offsets> {
public:
  /// The __consumer_offsets partition of a group by the node's latest view; -1 while the
  /// topic does not exist.
  using partition_function = std::function<int32_t(const std::string& group)>;

  replicated_offsets(caf::actor_system& sys, partition_function partition_of, int32_t commit_timeout_ms,
                     size_t max_batch_bytes)
      : sys_(sys), partition_of_(std::move(partition_of)), commit_timeout_ms_(commit_timeout_ms),
        max_batch_bytes_(max_batch_bytes) {}

  /// This broker leads partition `p` now: its table starts empty; returns the generation
  /// that load() and finish_load() must name.
  uint64_t begin_load(int32_t p);
  /// Applies the batches read from the local replica of `p` (in log order), unless the
  /// generation is over; returns the offset after them. Malformed batches fail.
  result<int64_t> load(int32_t p, uint64_t generation, const std::vector<char>& batches);
  /// The load is complete: commits of `p`'s groups go to `leader` from now on. False if
  /// the generation is over (leadership was lost meanwhile).
  bool finish_load(int32_t p, uint64_t generation, partition_actor leader);
  /// Whether the load of `p` at `generation` is still wanted: not finished, and no later
  /// begin_load, drop or close.
  bool still_loading(int32_t p, uint64_t generation) const;
  /// This broker no longer leads `p`: its table is dropped.
  void drop(int32_t p);
  /// Whether `p` is served (loaded and led here).
  bool serves(int32_t p) const;
  /// No more commits (the node stops).
  void close();

  void commit(const std::string& group, std::vector<group_offset> offsets, int64_t now_ms,
              commit_done done) override;
  void remove(const std::string& group, const std::vector<storage::topic_partition>& partitions, int64_t now_ms,
              commit_done done) override;
  void commit_txn(const std::string& group, int64_t producer_id, int16_t producer_epoch,
                  std::vector<group_offset> offsets, int64_t now_ms, commit_done done) override;
  void write_txn_marker(int32_t partition, int64_t producer_id, int16_t producer_epoch, bool commit,
                        int32_t coordinator_epoch, int64_t now_ms, commit_done done) override;
  std::vector<group_offset> fetch(const std::string& group, const group_offset_query& query) const override;
  int32_t partition_of(const std::string& group) const override { return partition_of_ ? partition_of_(group) : -1; }
  std::vector<std::string> groups() const override;
  result<size_t> expire(int64_t now_ms, int64_t retention_ms, const cluster::group_expiry_probe& probe) override;

  /// Live entries over the served partitions (for logs and tests).
  size_t size() const;

private:
  struct partition_state {
    cluster::offset_table table;
    std::optional<partition_actor> leader; ///< set once loaded
    uint64_t generation = 0;
  };

  // Produces `updates` of `group` to its partition's leader (see append).
  void store(const std::string& group, std::vector<cluster::offset_update> updates, int64_t now_ms,
             commit_done done);
  // Produces `updates` to partition `p`'s leader and applies them to the table on success
  // (if the generation still holds), then calls done.
  void append(int32_t p, uint64_t generation, partition_actor leader, std::vector<cluster::offset_update> updates,
              int64_t now_ms, commit_done done);
  using error_mapping = std::function<protocol::kafka_error(const caf::error&)>;
  // Sends `msg` to partition `p`'s leader from a short-lived actor; once the in-sync replicas
  // have it, `apply` runs on the table if the generation still holds; then `done` (a failure
  // answers `error_of` of it). `what` names it in the log.
  template <class... Msg>
  void write_to_leader(int32_t p, uint64_t generation, partition_actor leader, const char* what,
                       std::function<void(cluster::offset_table&)> apply, error_mapping error_of, commit_done done,
                       Msg... msg);
  // The leader of served partition `p` and its generation.
  std::optional<std::pair<partition_actor, uint64_t>> served_leader(int32_t p) const;
  // Calls `f` with `p`'s table if the generation still holds.
  void with_table(int32_t p, uint64_t generation, const std::function<void(cluster::offset_table&)>& f);

  caf::actor_system& sys_;
  partition_function partition_of_;
  int32_t commit_timeout_ms_;
  size_t max_batch_bytes_;

  mutable std::mutex mutex_;
  std::map<int32_t, partition_state> partitions_;
  uint64_t next_generation_ = 0;
  bool closed_ = false;
};

} // namespace cafka
