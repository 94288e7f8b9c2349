#include "actors/partition_actor.hpp"
#include "actors/partition_actor_state.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "cluster/isr_changes.hpp"
#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

// Flushes on a timer only make sense for a finite flush.ms; longer waits than this are
// checked on appends alone.
constexpr int64_t max_flush_tick_ms = 24LL * 60 * 60 * 1000;

using self_ptr = partition_self;
using partition_state = partition_actor_state;

// Reads for a consumer's fetch: below the high watermark only; an empty result from there
// to the log end (out of range is judged against the log end, as Kafka does: after a
// failover the new leader's high watermark may lag the old one's for a moment).
caf::expected<fetch_result> read_for(partition_state& st, const fetch_request& req) {
  auto& log = *st.log;
  auto lso = log.last_stable_offset(st.high_watermark);
  auto bytes = log.read(req.offset, static_cast<size_t>(std::max(req.max_bytes, 0)),
                        req.read_committed ? lso : st.high_watermark);
  if (!bytes)
    return to_caf_error(bytes.error());
  fetch_result r{st.high_watermark, log.log_start_offset(), std::move(*bytes), lso, {}};
  // Kafka's LocalLog.read: the aborted transactions up to the offset after the data read.
  if (req.read_committed && !r.records.empty())
    r.aborted = log.aborted_transactions(req.offset, protocol::next_offset_after(protocol::bytes_view(r.records.data(), r.records.size())));
  return r;
}

caf::error not_leader(const partition_state& st) {
  return caf::make_error(kafka_error::not_leader_or_follower,
                         "broker " + std::to_string(st.ctx.broker_id) + " does not lead " + st.ctx.tp.topic + "-"
                           + std::to_string(st.ctx.tp.partition));
}

// Why a client request may not be served here: not the leader, or (when the client names
// the leader epoch it knows) an older or newer epoch than the leader's, as Kafka answers.
caf::error refuse_client(const partition_state& st, int32_t current_leader_epoch) {
  if (!leading(st))
    return not_leader(st);
  if (current_leader_epoch < 0 || current_leader_epoch == st.role.leader_epoch)
    return {};
  auto code = current_leader_epoch < st.role.leader_epoch ? kafka_error::fenced_leader_epoch
                                                          : kafka_error::unknown_leader_epoch;
  return caf::make_error(code, "the leader epoch is " + std::to_string(st.role.leader_epoch) + ", not "
                                 + std::to_string(current_leader_epoch));
}

// read_committed (isolation level 1) answers as if the last stable offset were the high
// watermark, as Kafka's fetchOffsetForTimestamp bounds lookups by its lastFetchableOffset.
caf::result<offset_answer> list_offsets(partition_state& st, int64_t timestamp, int32_t current_leader_epoch,
                                        bool read_committed = false) {
  if (auto err = refuse_client(st, current_leader_epoch))
    return err;
  auto& log = *st.log;
  std::optional<storage::record_at> found;
  if (timestamp != earliest_timestamp && timestamp != latest_timestamp) {
    auto r = log.offset_for_timestamp(timestamp);
    if (!r)
      return to_caf_error(r.error());
    if (*r)
      found = storage::record_at{(*r)->offset, (*r)->timestamp};
  }
  auto fetchable = read_committed ? log.last_stable_offset(st.high_watermark) : st.high_watermark;
  storage::offsets_at_leader leader{log.log_start_offset(), log.log_end_offset(), fetchable,
                                    st.role.leader_epoch, &log.epoch_cache()};
  auto listed = storage::list_offset(leader, timestamp, found);
  if (!listed)
    return caf::make_error(kafka_error::offset_not_available,
                           "the high watermark (" + std::to_string(st.high_watermark)
                             + ") is below the start of leader epoch " + std::to_string(st.role.leader_epoch)
                             + ": retry once the followers have caught up");
  return offset_answer{listed->offset, listed->timestamp, listed->leader_epoch};
}

// Which parked fetches answer_parked() answers: those that now have min_bytes (after an
// append), those whose max_wait_ms ended (the deadline timer), or every one (close).
enum class parked_due { with_data, expired, all };

// Answers the parked fetches that are due; returns the earliest deadline of those left.
caf::actor_clock::time_point answer_parked(self_ptr self, parked_due which) {
  auto& st = self->state;
  auto now = self->clock().now();
  auto next = caf::actor_clock::time_point::max();
  auto keep = st.parked.begin();
  for (auto& p : st.parked) {
    bool due = which == parked_due::all || (which == parked_due::expired && p.deadline <= now);
    if (!due && which == parked_due::expired) { // nothing was appended: no need to read
      next = std::min(next, p.deadline);
      *keep++ = std::move(p);
      continue;
    }
    auto r = read_for(st, p.request);
    if (!r) {
      p.promise.deliver(r.error());
      continue;
    }
    if (due || r->records.size() >= static_cast<size_t>(std::max(p.request.min_bytes, 1))) {
      p.promise.deliver(std::move(*r));
      continue;
    }
    next = std::min(next, p.deadline);
    *keep++ = std::move(p);
  }
  st.parked.erase(keep, st.parked.end());
  return next;
}

// Sends the data a watch waited for to its watcher, for every watch that now has
// min_bytes; drops lapsed ones.
void fire_watches(self_ptr self, int64_t now) {
  auto& st = self->state;
  auto keep = st.watches.begin();
  for (auto& w : st.watches) {
    if (w.deadline_ms < now)
      continue;
    auto r = read_for(st, w.watch.request);
    if (!r || r->records.size() >= static_cast<size_t>(std::max(w.watch.request.min_bytes, 1))) {
      if (r)
        caf::anon_send(w.watch.watcher, fetch_atom_v, w.watch.watcher_key, st.ctx.tp, std::move(*r));
      continue;
    }
    *keep++ = std::move(w);
  }
  st.watches.erase(keep, st.watches.end());
}

// Keeps `w` as its watcher's only watch here, dropping lapsed ones on the way.
void add_watch(partition_state& st, fetch_watch&& w, int64_t now) {
  auto deadline = now + w.request.max_wait_ms + fetch_watch_grace_ms;
  auto key = w.watcher_key;
  auto addr = w.watcher.address();
  st.watches.erase(std::remove_if(st.watches.begin(), st.watches.end(),
                                  [&](const watch_entry& e) {
                                    return e.deadline_ms < now
                                           || (e.watch.watcher_key == key && e.watch.watcher.address() == addr);
                                  }),
                   st.watches.end());
  st.watches.push_back({std::move(w), deadline});
}


} // namespace

void serve_waiting_fetches(partition_self self) {
  auto& st = self->state;
  if (!st.parked.empty())
    answer_parked(self, parked_due::with_data);
  if (!st.watches.empty())
    fire_watches(self, st.ctx.now_ms());
}

void fail_waiting_fetches(partition_self self, const caf::error& err) {
  auto& st = self->state;
  for (auto& p : st.parked)
    p.promise.deliver(err);
  st.parked.clear();
  st.watches.clear();
}

// Makes sure a timer fires by `deadline`: one timer for all parked fetches and acks=all
// produces, re-armed only for an earlier deadline (with a fixed wait, deadlines only grow).
void arm_deadline_timer(partition_self self, caf::actor_clock::time_point deadline) {
  auto& st = self->state;
  if (st.timer_at != caf::actor_clock::time_point{} && st.timer_at <= deadline)
    return;
  st.timer_at = deadline;
  auto delay = std::max(deadline - self->clock().now(), caf::actor_clock::duration_type{0});
  self->delayed_send(self, delay, caf::timeout_atom_v, ++st.timer_id);
}

namespace {

// Hands the fsync of everything appended so far to the I/O worker.
void start_flush(self_ptr self) {
  auto& st = self->state;
  if (st.flush_in_flight)
    return;
  auto prepared = st.log->prepare_flush();
  if (!prepared) {
    log_line(log_level::warn, log_component::storage, "partition %s-%d: flush failed: %s", st.ctx.tp.topic.c_str(), st.ctx.tp.partition,
             prepared.error().message().c_str());
    return;
  }
  auto job = std::make_shared<storage::flush_job>(std::move(*prepared));
  st.flush_in_flight = true;
  io_job work{[job] { return job->run().error(); }};
  self->request(st.ctx.io_worker, caf::infinite, std::move(work))
    .then(
      [=]() {
        self->state.flush_in_flight = false;
        self->state.log->complete_flush(*job);
        if (self->state.log->flush_due(self->state.ctx.now_ms()))
          start_flush(self);
      },
      [=](caf::error& err) {
        self->state.flush_in_flight = false;
        log_line(log_level::warn, log_component::storage, "partition %s-%d: fsync failed: %s%s", self->state.ctx.tp.topic.c_str(),
                 self->state.ctx.tp.partition, describe(err).c_str(),
                 self->state.log->dir_health().offline() ? "; its log dir is offline (writes refused until a restart)"
                                                         : "");
      });
}


// acks=all (and the coordinator's markers) need min.insync.replicas in the ISR before appending.
caf::error below_min_insync(const partition_state& st) {
  if (cluster::enough_replicas_for_acks_all(st.maximal_isr.size(), st.role.min_insync_replicas,
                                            st.role.replicas.size()))
    return {};
  return caf::make_error(kafka_error::not_enough_replicas,
                         std::to_string(st.maximal_isr.size()) + " in-sync replica(s), min.insync.replicas is "
                           + std::to_string(st.role.min_insync_replicas));
}

// What follows a leader's append: followers' watches fire, the high watermark moves (and
// with it acks=all produces and fetches), a due flush starts.
void after_leader_append(self_ptr self, int64_t now) {
  fire_replica_watches(self);
  advance_high_watermark(self);
  if (self->state.log->flush_due(now))
    start_flush(self);
}

} // namespace

void unlink_segments(const partition_actor_state& st, const std::vector<storage::deleted_segment>& removed) {
  std::vector<std::string> files;
  for (auto& d : removed)
    files.insert(files.end(), d.files.begin(), d.files.end());
  unlink_files(st, std::move(files));
}

void unlink_files(const partition_actor_state& st, std::vector<std::string> files) {
  if (files.empty())
    return;
  io_job unlink{[files] { return storage::delete_files(files).error(); }};
  // file.delete.delay.ms: readers that located a batch in these files just before may still
  // read them. Files left by a stop in between are removed when the log opens again.
  auto delay = st.log->config().file_delete_delay_ms;
  if (delay > 0)
    caf::delayed_anon_send(st.ctx.io_worker, std::chrono::milliseconds(delay), std::move(unlink));
  else
    caf::anon_send(st.ctx.io_worker, std::move(unlink));
}

caf::error append_failed(const partition_actor_state& st, std::error_code ec) {
  // Later appends are refused with log_dir_offline: only the write that failed is logged.
  if (ec != storage::errc::log_dir_offline && st.log->dir_health().offline())
    log_line(log_level::warn, log_component::storage, "partition %s-%d: write failed (%s): its log dir is offline; the partitions there refuse writes "
             "(KAFKA_STORAGE_ERROR) and keep serving reads until a restart",
             st.ctx.tp.topic.c_str(), st.ctx.tp.partition, ec.message().c_str());
  return to_caf_error(ec);
}

void flush_if_due(partition_self self) {
  if (self->state.log->flush_due(self->state.ctx.now_ms()))
    start_flush(self);
}

namespace {

void arm_flush_tick(self_ptr self) {
  auto ms = self->state.log->config().flush_interval_ms;
  if (ms < max_flush_tick_ms)
    self->delayed_send(self, std::chrono::milliseconds(std::max<int64_t>(ms, 1)), caf::tick_atom_v);
}

partition_actor::behavior_type partition(self_ptr self, std::shared_ptr<storage::partition_log> log,
                                         partition_context ctx) {
  self->state.log = std::move(log);
  self->state.ctx = std::move(ctx);
  auto& st = self->state;
  if (st.ctx.role.replicas.empty()) { // the only replica (a single node)
    auto me = st.ctx.broker_id;
    st.ctx.role = replica_role{me, 0, {me}, {me}, -1, 0, {me}, 1};
  }
  auto start = st.log->log_start_offset();
  auto end = st.log->log_end_offset();
  auto hw = st.ctx.high_watermark;
  if (hw < 0)
    hw = st.ctx.role.replicas.size() == 1 ? end : start;
  st.high_watermark = std::clamp(hw, start, end);
  apply_role(self, st.ctx.role);
  arm_flush_tick(self);
  return {
    [=](produce_atom, produce_request& req) -> caf::result<produce_result> {
      auto& st = self->state;
      if (req.acks != 0 && req.acks != 1 && req.acks != -1)
        return caf::make_error(kafka_error::invalid_required_acks);
      if (!leading(st))
        return not_leader(st);
      if (req.acks == -1)
        if (auto err = below_min_insync(st))
          return err;
      auto now = st.ctx.now_ms();
      auto info = req.from_coordinator ? st.log->append_as_coordinator(req.records, now, st.role.leader_epoch)
                                       : st.log->append(req.records, now, st.role.leader_epoch);
      if (!info)
        return append_failed(st, info.error());
      after_leader_append(self, now);
      produce_result result{info->first_offset, info->log_append_time, st.log->log_start_offset(), static_cast<int64_t>(info->records)};
      if (req.acks == -1)
        return await_replication(self, info->last_offset + 1, result, req.timeout_ms);
      return result;
    },
    [=](describe_producers_atom) -> caf::result<std::vector<producer_description>> {
      auto& st = self->state;
      if (!leading(st))
        return not_leader(st);
      std::vector<producer_description> out;
      for (auto& [id, e] : st.log->producers().entries()) {
        auto last_seq = e.batches.empty() ? -1 : e.batches.back().last_seq;
        out.push_back({id, e.epoch, last_seq, e.last_timestamp, e.coordinator_epoch, e.txn_first_offset});
      }
      return out;
    },
    [=](txn_marker_atom, txn_marker_request& req) -> caf::result<produce_result> {
      auto& st = self->state;
      if (!leading(st))
        return not_leader(st);
      if (auto err = below_min_insync(st))
        return err;
      auto now = st.ctx.now_ms();
      protocol::txn_marker marker{req.commit ? protocol::control_type::commit : protocol::control_type::abort,
                                  req.coordinator_epoch};
      auto info = st.log->append_txn_marker(req.producer_id, req.producer_epoch, marker, now, st.role.leader_epoch);
      if (!info)
        return append_failed(st, info.error());
      after_leader_append(self, now); // (the last stable offset moves only with the high watermark)
      produce_result result{info->first_offset, -1, st.log->log_start_offset(), 0};
      return await_replication(self, info->last_offset + 1, result, req.timeout_ms);
    },
    [=](fetch_atom, fetch_request& req) -> caf::result<fetch_result> {
      auto& st = self->state;
      if (auto err = refuse_client(st, req.current_leader_epoch))
        return err;
      auto r = read_for(st, req);
      if (!r)
        return r.error();
      if (req.max_wait_ms <= 0 || r->records.size() >= static_cast<size_t>(std::max(req.min_bytes, 1)))
        return std::move(*r);
      auto promise = self->make_response_promise<fetch_result>();
      auto deadline = self->clock().now() + std::chrono::milliseconds(req.max_wait_ms);
      st.parked.push_back({deadline, req, promise});
      arm_deadline_timer(self, deadline);
      return promise;
    },
    [=](fetch_atom, fetch_watch& w) -> caf::result<fetch_result> {
      auto& st = self->state;
      if (auto err = refuse_client(st, w.request.current_leader_epoch))
        return err;
      auto r = read_for(st, w.request);
      if (!r)
        return r.error();
      if (w.request.max_wait_ms > 0 && r->records.size() < static_cast<size_t>(std::max(w.request.min_bytes, 1)))
        add_watch(st, std::move(w), st.ctx.now_ms());
      return std::move(*r);
    },
    [=](list_offsets_atom, int64_t timestamp) { return list_offsets(self->state, timestamp, -1); },
    [=](list_offsets_atom, int64_t timestamp, int32_t current_leader_epoch, bool read_committed) {
      return list_offsets(self->state, timestamp, current_leader_epoch, read_committed);
    },
    [=](caf::get_atom) {
      auto& st = self->state;
      auto& log = *st.log;
      return partition_status{st.ctx.tp,
                              log.log_start_offset(),
                              log.log_end_offset(),
                              st.high_watermark,
                              static_cast<int64_t>(log.size_bytes()),
                              static_cast<int32_t>(log.segment_count()),
                              log.recovery_point()};
    },
    [=](offsets_load_atom, int64_t offset, int32_t max_bytes) -> caf::result<fetch_result> {
      auto& log = *self->state.log;
      auto bytes = log.read(offset, static_cast<size_t>(std::max(max_bytes, 0)));
      if (!bytes)
        return to_caf_error(bytes.error());
      return fetch_result{self->state.high_watermark, log.log_start_offset(), std::move(*bytes)};
    },
    [=](replica_fetch_atom, int32_t replica, replica_fetch_partition& req, caf::actor& watcher, uint64_t key) {
      return serve_replica_fetch(self, replica, req, std::move(watcher), key);
    },
    [=](epoch_end_atom, int32_t current_epoch, int32_t epoch) { return serve_epoch_end(self, current_epoch, epoch); },
    [=](replica_fetch_atom) { return position_of(self->state); },
    [=](replica_append_atom, int32_t leader_epoch, int64_t fetch_offset, std::vector<char>& records,
        int64_t leader_hw, int64_t leader_log_start) {
      return append_replicated(self, leader_epoch, fetch_offset, records, leader_hw, leader_log_start);
    },
    [=](truncate_atom, epoch_end_answer& answer) { return truncate_by_epoch(self, answer); },
    [=](truncate_atom, int64_t leader_log_start, int64_t leader_log_end) {
      return restart_out_of_range(self, leader_log_start, leader_log_end);
    },
    [=](role_atom, replica_role& role) { apply_role(self, std::move(role)); },
    [=](log_config_atom, storage::log_config& cfg) { self->state.log->set_config(cfg); },
    [=](isr_atom, uint64_t generation) { check_isr(self, generation); },
    [=](isr_atom, bool ok, std::vector<int32_t>& isr) { isr_written(self, ok, std::move(isr)); },
    [=](delete_records_atom, int64_t offset, int32_t timeout_ms) { return delete_records(self, offset, timeout_ms); },
    [=](clean_status_atom, int64_t now) { return clean_status(self, now); },
    [=](clean_prepare_atom, int64_t now) { return prepare_clean(self, now); },
    [=](clean_complete_atom, clean_job_handle& handle) { return complete_clean(self, handle); },
    [=](retention_atom, int64_t now) -> caf::result<retention_report> {
      auto& st = self->state;
      auto deleted = st.log->apply_retention(now);
      if (!deleted)
        return to_caf_error(deleted.error());
      retention_report report{st.ctx.tp, {}, 0, st.log->log_start_offset()};
      for (auto& d : *deleted) {
        report.deleted_segments.push_back(d.base_offset);
        report.deleted_bytes += static_cast<int64_t>(d.size);
      }
      unlink_segments(st, *deleted);
      return report;
    },
    [=](caf::timeout_atom, uint64_t id) {
      auto& st = self->state;
      if (id != st.timer_id)
        return; // superseded by an earlier deadline's timer
      st.timer_at = {};
      auto next = std::min({answer_parked(self, parked_due::expired), expire_waiting_produces(self),
                            expire_waiting_deletes(self)});
      if (next != caf::actor_clock::time_point::max())
        arm_deadline_timer(self, next);
    },
    [=](caf::tick_atom) {
      if (self->state.log->flush_due(self->state.ctx.now_ms()))
        start_flush(self);
      arm_flush_tick(self);
    },
    [=](caf::close_atom) {
      answer_parked(self, parked_due::all);
      apply_role(self, replica_role{-1, self->state.role.leader_epoch, self->state.role.replicas}); // answers acks=all waits
      auto end = self->state.log->log_end_offset();
      self->quit();
      return end;
    },
  };
}

} // namespace

partition_actor spawn_partition(caf::actor_system& sys, std::shared_ptr<storage::partition_log> log,
                                partition_context ctx) {
  return sys.spawn(partition, std::move(log), std::move(ctx));
}

} // namespace cafka
