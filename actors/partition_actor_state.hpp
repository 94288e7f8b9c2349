#pragma once
// The state of a partition actor, shared by its three files: partition_actor.cpp (client
// requests, fetch parking, flushes, retention), partition_leader.cpp (roles, followers'
// fetches, high watermark, ISR changes, acks=all) and partition_follower.cpp (replicated
// appends and truncation). Internal to actors/.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "actors/partition_actor.hpp"
#include "cluster/replica_progress.hpp"

namespace cafka {

struct parked_fetch {
  caf::actor_clock::time_point deadline;
  fetch_request request;
  caf::typed_response_promise<fetch_result> promise;
};

struct watch_entry {
  fetch_watch watch;
  int64_t deadline_ms = 0;
};

/// An acks=all produce waiting for the high watermark to pass required_offset.
struct waiting_produce {
  caf::actor_clock::time_point deadline;
  int64_t required_offset = 0; ///< last offset + 1
  produce_result result;
  caf::typed_response_promise<produce_result> promise;
};

/// A DeleteRecords waiting for the followers' log starts to reach its offset.
struct waiting_delete {
  caf::actor_clock::time_point deadline;
  int64_t offset = 0;
  caf::typed_response_promise<int64_t> promise;
};

/// A follower's empty fetch waiting for the next append (one per follower).
struct replica_watch {
  int32_t replica = -1;
  caf::actor watcher;
  uint64_t key = 0;
  int64_t offset = 0; ///< fires once the log end passes it
};

struct partition_actor_state {
  static inline const char* name = "cafka.partition";
  std::shared_ptr<storage::partition_log> log;
  partition_context ctx;
  std::vector<parked_fetch> parked;
  std::vector<watch_entry> watches;
  /// The one pending deadline timer (a timer per parked request would cost a wake-up of
  /// CAF's clock thread each); time_point{} when none is pending.
  caf::actor_clock::time_point timer_at{};
  uint64_t timer_id = 0;
  bool flush_in_flight = false;

  // -- replication --
  replica_role role; ///< as last applied; role.leader == ctx.broker_id: leading
  int64_t high_watermark = 0;
  /// Leader: each other replica's progress, and the ISR the high watermark and acks=all
  /// count on (the recorded one, plus a member being added while that write is out).
  std::vector<cluster::replica_progress> followers;
  std::vector<int32_t> maximal_isr;
  bool isr_write_in_flight = false;
  int32_t isr_written_from = -1; ///< state version the write in flight was decided from
  uint64_t isr_timer_generation = 0;
  std::vector<waiting_produce> waiting;
  std::vector<waiting_delete> waiting_deletes;
  std::vector<replica_watch> replica_watches;
};

using partition_self = partition_actor::stateful_pointer<partition_actor_state>;

inline bool leading(const partition_actor_state& st) { return st.role.leader == st.ctx.broker_id; }

/// Answers the waits whose deadline passed with the error `timed_out(wait)` gives and keeps
/// the others; the earliest deadline left (max() when none). For acks=all produces and
/// DeleteRecords, whose waits have a deadline and a promise.
template <class Wait, class TimedOut>
caf::actor_clock::time_point expire_due(std::vector<Wait>& waits, caf::actor_clock::time_point now,
                                        TimedOut timed_out) {
  auto next = caf::actor_clock::time_point::max();
  auto keep = waits.begin();
  for (auto& w : waits) {
    if (w.deadline <= now) {
      w.promise.deliver(timed_out(w));
      continue;
    }
    next = std::min(next, w.deadline);
    *keep++ = std::move(w);
  }
  waits.erase(keep, waits.end());
  return next;
}

// -- partition_actor.cpp --

/// Answers the parked fetches and fires the watches that now have data below the high
/// watermark (after it moved).
void serve_waiting_fetches(partition_self self);
/// Makes sure the deadline timer fires by `deadline`.
void arm_deadline_timer(partition_self self, caf::actor_clock::time_point deadline);
/// Answers every parked fetch and drops every watch with `err` (the replica stopped leading).
void fail_waiting_fetches(partition_self self, const caf::error& err);
/// Hands an fsync to the I/O worker if the flush policy wants one now.
void flush_if_due(partition_self self);

/// Hands the files of removed segments to the I/O worker to unlink.
void unlink_segments(const partition_actor_state& st, const std::vector<storage::deleted_segment>& removed);
/// The same for a list of files (after file.delete.delay.ms).
void unlink_files(const partition_actor_state& st, std::vector<std::string> files);

/// The error to answer for a failed append; logs once, at the write that failed, that the
/// log dir went offline (storage/log_dir_health.hpp).
caf::error append_failed(const partition_actor_state& st, std::error_code ec);

// -- partition_cleaning.cpp (the log cleaner's requests, actors/log_cleaner.hpp) --

clean_candidate clean_status(partition_self self, int64_t now_ms);
caf::result<clean_job_handle> prepare_clean(partition_self self, int64_t now_ms);
caf::result<clean_report> complete_clean(partition_self self, clean_job_handle& handle);

// -- partition_leader.cpp --

/// Applies a role from the node (leader or follower, new epoch or new ISR).
void apply_role(partition_self self, replica_role role);
/// Recomputes the high watermark; on a move, completes acks=all produces and fetches.
void advance_high_watermark(partition_self self);
/// acks=all produces whose deadline passed answer request_timed_out; the earliest left.
caf::actor_clock::time_point expire_waiting_produces(partition_self self);
/// After an append: fires followers' watches; `all`: every one, whatever its offset (the
/// log start moved, which followers learn from the answer).
void fire_replica_watches(partition_self self, bool all = false);
caf::result<replica_fetch_partition_result> serve_replica_fetch(partition_self self, int32_t replica,
                                                                const replica_fetch_partition& req,
                                                                caf::actor watcher, uint64_t key);
epoch_end_answer serve_epoch_end(partition_self self, int32_t current_epoch, int32_t epoch);
/// The ISR check timer fired.
void check_isr(partition_self self, uint64_t generation);
/// An ISR write finished.
void isr_written(partition_self self, bool ok, std::vector<int32_t> isr);
/// acks=all: answers now or parks the produce until the high watermark reaches it.
caf::result<produce_result> await_replication(partition_self self, int64_t required_offset, produce_result result,
                                              int32_t timeout_ms);

// -- partition_delete_records.cpp --

caf::result<int64_t> delete_records(partition_self self, int64_t offset, int32_t timeout_ms);
/// After a follower's fetch reported its log start: answers the deletions it completes.
void complete_waiting_deletes(partition_self self);
/// Deletions whose deadline passed answer request_timed_out; the earliest deadline left.
caf::actor_clock::time_point expire_waiting_deletes(partition_self self);
/// The replica stopped leading: every waiting deletion answers not_leader_or_follower.
void fail_waiting_deletes(partition_self self);
/// Follower: moves the log start up to the leader's (never past its own log end).
caf::error follow_log_start(partition_self self, int64_t leader_log_start);

// -- partition_follower.cpp --

replica_position position_of(const partition_actor_state& st);
caf::result<replica_position> append_replicated(partition_self self, int32_t leader_epoch, int64_t fetch_offset,
                                                std::vector<char>& records, int64_t leader_hw,
                                                int64_t leader_log_start);
caf::result<truncation_done> truncate_by_epoch(partition_self self, const epoch_end_answer& answer);
caf::result<replica_position> restart_out_of_range(partition_self self, int64_t leader_log_start,
                                                   int64_t leader_log_end);

} // namespace cafka
