#include "actors/partition_actor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "storage/file.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

// Flushes on a timer only make sense for a finite flush.ms; longer waits than this are
// checked on appends alone.
constexpr int64_t max_flush_tick_ms = 24LL * 60 * 60 * 1000;

struct parked_fetch {
  caf::actor_clock::time_point deadline;
  fetch_request request;
  caf::typed_response_promise<fetch_result> promise;
};

struct watch_entry {
  fetch_watch watch;
  int64_t deadline_ms = 0;
};

struct partition_state {
  static inline const char* name = "cafka.partition";
  std::shared_ptr<storage::partition_log> log;
  partition_context ctx;
  std::vector<parked_fetch> parked;
  std::vector<watch_entry> watches;
  /// The one pending deadline timer (a timer per parked fetch would cost a wake-up of
  /// CAF's clock thread per fetch); time_point{} when none is pending.
  caf::actor_clock::time_point timer_at{};
  uint64_t timer_id = 0;
  bool flush_in_flight = false;
};

using self_ptr = partition_actor::stateful_pointer<partition_state>;

// Reads for a fetch; an empty result at the log end.
caf::expected<fetch_result> read_for(partition_state& st, const fetch_request& req) {
  auto& log = *st.log;
  auto bytes = log.read(req.offset, static_cast<size_t>(std::max(req.max_bytes, 0)));
  if (!bytes)
    return to_caf_error(bytes.error());
  return fetch_result{log.log_end_offset(), log.log_start_offset(), std::move(*bytes)};
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

// Makes sure a timer fires by `deadline`: one timer for all parked fetches, re-armed
// only for an earlier deadline (with a fixed max_wait_ms, deadlines only grow).
void arm_deadline_timer(self_ptr self, caf::actor_clock::time_point deadline) {
  auto& st = self->state;
  if (st.timer_at != caf::actor_clock::time_point{} && st.timer_at <= deadline)
    return;
  st.timer_at = deadline;
  auto delay = std::max(deadline - self->clock().now(), caf::actor_clock::duration_type{0});
  self->delayed_send(self, delay, caf::timeout_atom_v, ++st.timer_id);
}

// Hands the fsync of everything appended so far to the I/O worker.
void start_flush(self_ptr self) {
  auto& st = self->state;
  if (st.flush_in_flight)
    return;
  auto prepared = st.log->prepare_flush();
  if (!prepared) {
    log_line("partition %s-%d: flush failed: %s", st.ctx.tp.topic.c_str(), st.ctx.tp.partition,
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
        log_line("partition %s-%d: fsync failed: %s", self->state.ctx.tp.topic.c_str(),
                 self->state.ctx.tp.partition, describe(err).c_str());
      });
}

void arm_flush_tick(self_ptr self) {
  auto ms = self->state.log->config().flush_interval_ms;
  if (ms < max_flush_tick_ms)
    self->delayed_send(self, std::chrono::milliseconds(std::max<int64_t>(ms, 1)), caf::tick_atom_v);
}

partition_actor::behavior_type partition(self_ptr self, std::shared_ptr<storage::partition_log> log,
                                         partition_context ctx) {
  self->state.log = std::move(log);
  self->state.ctx = std::move(ctx);
  arm_flush_tick(self);
  return {
    [=](produce_atom, produce_request& req) -> caf::result<produce_result> {
      auto& st = self->state;
      if (req.acks != 0 && req.acks != 1 && req.acks != -1)
        return caf::make_error(kafka_error::invalid_required_acks);
      auto now = st.ctx.now_ms();
      auto info = st.log->append(req.records, now);
      if (!info)
        return to_caf_error(info.error());
      if (!st.parked.empty())
        answer_parked(self, parked_due::with_data);
      if (!st.watches.empty())
        fire_watches(self, now);
      if (st.log->flush_due(now))
        start_flush(self);
      return produce_result{info->first_offset, -1, st.log->log_start_offset()};
    },
    [=](fetch_atom, fetch_request& req) -> caf::result<fetch_result> {
      auto& st = self->state;
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
      auto r = read_for(st, w.request);
      if (!r)
        return r.error();
      if (w.request.max_wait_ms > 0 && r->records.size() < static_cast<size_t>(std::max(w.request.min_bytes, 1)))
        add_watch(st, std::move(w), st.ctx.now_ms());
      return std::move(*r);
    },
    [=](list_offsets_atom, int64_t timestamp) -> caf::result<offset_answer> {
      auto& log = *self->state.log;
      if (timestamp == earliest_timestamp)
        return offset_answer{log.log_start_offset(), -1};
      if (timestamp == latest_timestamp)
        return offset_answer{log.log_end_offset(), -1};
      auto found = log.offset_for_timestamp(timestamp);
      if (!found)
        return to_caf_error(found.error());
      if (!*found)
        return offset_answer{-1, -1};
      return offset_answer{(*found)->offset, (*found)->timestamp};
    },
    [=](caf::get_atom) {
      auto& log = *self->state.log;
      return partition_status{self->state.ctx.tp,
                              log.log_start_offset(),
                              log.log_end_offset(),
                              log.log_end_offset(),
                              static_cast<int64_t>(log.size_bytes()),
                              static_cast<int32_t>(log.segment_count()),
                              log.recovery_point()};
    },
    [=](retention_atom, int64_t now) -> caf::result<retention_report> {
      auto& st = self->state;
      auto deleted = st.log->apply_retention(now);
      if (!deleted)
        return to_caf_error(deleted.error());
      retention_report report{st.ctx.tp, {}, 0, st.log->log_start_offset()};
      std::vector<std::string> files;
      for (auto& d : *deleted) {
        report.deleted_segments.push_back(d.base_offset);
        report.deleted_bytes += static_cast<int64_t>(d.size);
        files.insert(files.end(), d.files.begin(), d.files.end());
      }
      if (!files.empty())
        caf::anon_send(st.ctx.io_worker, io_job{[files] { return storage::delete_files(files).error(); }});
      return report;
    },
    [=](caf::timeout_atom, uint64_t id) {
      auto& st = self->state;
      if (id != st.timer_id)
        return; // superseded by an earlier deadline's timer
      st.timer_at = {};
      auto next = answer_parked(self, parked_due::expired);
      if (!st.parked.empty())
        arm_deadline_timer(self, next);
    },
    [=](caf::tick_atom) {
      if (self->state.log->flush_due(self->state.ctx.now_ms()))
        start_flush(self);
      arm_flush_tick(self);
    },
    [=](caf::close_atom) {
      answer_parked(self, parked_due::all);
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
