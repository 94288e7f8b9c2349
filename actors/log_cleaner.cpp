#include "actors/log_cleaner.hpp"

#include <optional>
#include <set>
#include <vector>

#include <caf/all.hpp>

#include "actors/clean_messages.hpp"
#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/routing_table.hpp"
#include "storage/clean_job.hpp"
#include "storage/offset_map.hpp"

namespace cafka {

namespace {

constexpr auto ask_timeout = std::chrono::seconds(60);

struct worker {
  caf::actor io;
  std::shared_ptr<storage::offset_map> map; ///< allocated at the first round
  bool busy = false;
};

struct cleaner_state {
  static inline const char* name = "cafka.log-cleaner";
  log_cleaner_config cfg;
  std::vector<worker> workers;
  std::set<storage::topic_partition> in_flight;
  bool scanning = false;
};

using self_ptr = log_cleaner_actor::stateful_pointer<cleaner_state>;

worker* free_worker(self_ptr self) {
  for (auto& w : self->state.workers)
    if (!w.busy)
      return &w;
  return nullptr;
}

void look_for_work(self_ptr self);

// The round of `tp` ended: its worker is free. After a round that cleaned something there
// may be more to do at once; otherwise the next look is the timer's (a round that keeps
// failing, or a log that keeps changing under the cleaner, must not spin).
void round_over(self_ptr self, worker* w, const storage::topic_partition& tp, bool cleaned) {
  w->busy = false;
  self->state.in_flight.erase(tp);
  if (cleaned)
    self->send(self, caf::tick_atom_v);
}

void clean_failed(self_ptr self, worker* w, const storage::topic_partition& tp, const char* step,
                  const caf::error& err) {
  log_line(log_level::warn, log_component::storage, "log cleaner: %s-%d: %s failed: %s", tp.topic.c_str(), tp.partition,
           step, describe(err).c_str());
  round_over(self, w, tp, false);
}

// Prepare at the partition, run on a worker, complete at the partition.
void clean(self_ptr self, worker* w, const clean_candidate& c, const partition_actor& partition) {
  auto& st = self->state;
  w->busy = true;
  st.in_flight.insert(c.tp);
  auto tp = c.tp;
  self->request(partition, ask_timeout, clean_prepare_atom::value, st.cfg.now_ms())
    .then(
      [=](clean_job_handle& handle) {
        if (!handle.job) // cleaned, truncated or reconfigured meanwhile
          return round_over(self, w, tp, false);
        auto& cfg = self->state.cfg;
        if (!w->map)
          w->map = std::make_shared<storage::offset_map>(cfg.dedupe_buffer_size / static_cast<size_t>(cfg.threads),
                                                         cfg.load_factor);
        io_job run{[job = handle.job, map = w->map] { return job->run(*map).error(); }};
        self->request(w->io, caf::infinite, std::move(run))
          .then(
            [=]() {
              self->request(partition, ask_timeout, clean_complete_atom::value, handle)
                .then(
                  [=](const clean_report& r) {
                    if (r.swapped)
                      log_line(log_level::info, log_component::storage,
                               "log cleaner: %s-%d cleaned up to offset %lld: %llu of %llu records kept, %llu bytes read, %llu written",
                               tp.topic.c_str(), tp.partition, static_cast<long long>(r.map_end),
                               static_cast<unsigned long long>(r.records_kept),
                               static_cast<unsigned long long>(r.records_read),
                               static_cast<unsigned long long>(r.bytes_read),
                               static_cast<unsigned long long>(r.bytes_written));
                    round_over(self, w, tp, r.swapped);
                  },
                  [=](caf::error& err) { clean_failed(self, w, tp, "swapping the cleaned segments in", err); });
            },
            [=](caf::error& err) { clean_failed(self, w, tp, "cleaning", err); });
      },
      [=](caf::error& err) { clean_failed(self, w, tp, "preparing a round", err); });
}

// Asks every local replica how dirty it is, then cleans the dirtiest that is due.
void look_for_work(self_ptr self) {
  auto& st = self->state;
  if (st.scanning || free_worker(self) == nullptr)
    return;
  auto replicas = st.cfg.routes->all_replicas(); // (internal topics are compacted too)
  if (replicas->empty())
    return;
  st.scanning = true;
  struct scan {
    size_t left = 0;
    std::optional<std::pair<clean_candidate, partition_actor>> best;
  };
  auto sc = std::make_shared<scan>();
  sc->left = replicas->size();
  auto answered = [self, sc] {
    if (--sc->left > 0)
      return;
    self->state.scanning = false;
    auto* w = free_worker(self);
    if (sc->best && w != nullptr)
      clean(self, w, sc->best->first, sc->best->second);
  };
  auto now = st.cfg.now_ms();
  for (auto& [tp, partition] : *replicas) {
    if (st.in_flight.count(tp) > 0) {
      answered();
      continue;
    }
    self->request(partition, ask_timeout, clean_status_atom::value, now)
      .then(
        [=, partition = partition](const clean_candidate& c) {
          if (c.due && (!sc->best || c.dirty_ratio > sc->best->first.dirty_ratio))
            sc->best.emplace(c, partition);
          answered();
        },
        [=](caf::error&) { answered(); }); // (a partition closing)
  }
}

log_cleaner_actor::behavior_type log_cleaner(self_ptr self, log_cleaner_config cfg) {
  auto& st = self->state;
  st.cfg = std::move(cfg);
  for (int i = 0; i < std::max(st.cfg.threads, 1); ++i)
    st.workers.push_back({spawn_io_worker(self->system(), st.cfg.detached), nullptr, false});
  for (auto& w : st.workers)
    self->link_to(w.io);
  self->delayed_send(self, st.cfg.backoff, caf::timeout_atom_v);
  return {
    [=](caf::tick_atom) { look_for_work(self); },
    [=](caf::timeout_atom) {
      look_for_work(self);
      self->delayed_send(self, self->state.cfg.backoff, caf::timeout_atom_v);
    },
  };
}

} // namespace

log_cleaner_actor spawn_log_cleaner(caf::actor_system& sys, log_cleaner_config cfg) {
  return sys.spawn(log_cleaner, std::move(cfg));
}

} // namespace cafka
