// Compaction of the __consumer_offsets partitions of a single node: a round of the storage
// cleaner (storage/clean_job.hpp) prepared under the mutex, run by the I/O worker without
// it, and swapped in under it again (offset_log_store.hpp, at the top).
#include "actors/log_line.hpp"
#include "actors/offset_log_store.hpp"
#include "storage/clean_job.hpp"
#include "storage/file.hpp"
#include "storage/offset_map.hpp"

namespace cafka {

offset_log_store::blocking_job offset_log_store::prepare_clean_locked(int32_t p, int64_t now_ms) {
  auto& ps = partitions_[p];
  if (closed_ || ps.clean_in_flight || !ps.log)
    return {};
  auto& log = *ps.log;
  auto prepared = log.prepare_clean(log.last_stable_offset(log.log_end_offset()), now_ms);
  if (!prepared) {
    log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: preparing a clean failed: %s", p,
             prepared.error().message().c_str());
    return {};
  }
  if (!*prepared)
    return {};
  auto job = std::make_shared<storage::clean_job>(std::move(**prepared));
  ps.clean_in_flight = true;
  std::weak_ptr<offset_log_store> weak = weak_from_this();
  std::weak_ptr<storage::partition_log> cleaned = ps.log;
  auto map_bytes = options_.clean_buffer_bytes;
  return [weak, cleaned, job, p, map_bytes]() -> std::error_code {
    storage::offset_map map(map_bytes);
    auto ran = job->run(map); // without the mutex: commits go on to the active segment
    auto self = weak.lock();
    if (!self)
      return {};
    std::vector<std::string> unlink;
    std::error_code failed = ran.error();
    {
      std::lock_guard<std::mutex> guard{self->mutex_};
      auto& ps = self->partitions_[p];
      ps.clean_in_flight = false;
      if (!failed && !self->closed_ && ps.log && ps.log == cleaned.lock()) { // (else cleaned/ waits for the next round)
        auto done = ps.log->complete_clean(*job);
        if (!done)
          failed = done.error();
        else if (done->swapped) {
          unlink = std::move(done->deleted_files);
          ++self->cleans_;
        }
      }
    }
    if (failed) {
      log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: clean failed: %s", p, failed.message().c_str());
      return failed;
    }
    // The store reads its logs under the mutex only: nothing reads the replaced files now.
    return storage::delete_files(unlink).error();
  };
}

} // namespace cafka
