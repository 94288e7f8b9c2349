// The partition actor's side of compaction: how dirty its log is, a round for the log
// cleaner (actors/log_cleaner.hpp), and the swap of its result. Every replica cleans its own
// log; records at or above the last stable offset (under the high watermark) are left alone.
#include "actors/partition_actor_state.hpp"

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "storage/clean_job.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

int64_t last_stable_offset(partition_actor_state& st) {
  return st.log->last_stable_offset(st.high_watermark);
}

} // namespace

clean_candidate clean_status(partition_self self, int64_t now_ms) {
  auto& st = self->state;
  clean_candidate c{st.ctx.tp, 0, false};
  auto found = st.log->cleanable(last_stable_offset(st), now_ms);
  if (!found) {
    log_line(log_level::warn, log_component::storage, "partition %s-%d: cannot tell how dirty its log is: %s",
             st.ctx.tp.topic.c_str(), st.ctx.tp.partition, found.error().message().c_str());
    return c;
  }
  if (*found) {
    c.dirty_ratio = (*found)->dirty_ratio();
    c.due = (*found)->due(st.log->config().min_cleanable_dirty_ratio);
  }
  return c;
}

caf::result<clean_job_handle> prepare_clean(partition_self self, int64_t now_ms) {
  auto& st = self->state;
  auto job = st.log->prepare_clean(last_stable_offset(st), now_ms);
  if (!job)
    return to_caf_error(job.error());
  if (!*job)
    return clean_job_handle{};
  return clean_job_handle{std::make_shared<storage::clean_job>(std::move(**job))};
}

caf::result<clean_report> complete_clean(partition_self self, clean_job_handle& handle) {
  auto& st = self->state;
  auto& job = *handle.job;
  auto done = st.log->complete_clean(job);
  if (!done)
    return to_caf_error(done.error());
  unlink_files(st, std::move(done->deleted_files));
  auto& stats = job.stats();
  return clean_report{st.ctx.tp,          done->swapped,       job.first_dirty(),   job.map_end(),
                      stats.bytes_read,   stats.bytes_written, stats.records_read,  stats.records_kept};
}

} // namespace cafka
