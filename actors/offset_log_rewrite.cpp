// The rewrite of a __consumer_offsets partition from its table's snapshot: when it starts,
// the job the I/O worker runs, and how a failed one is abandoned. The steps and why no
// commit is lost are at the top of offset_log_store.hpp; the folder swap is
// storage/log_swap.hpp.
#include <filesystem>
#include <utility>

#include "actors/log_line.hpp"
#include "actors/offset_log_store.hpp"
#include "cluster/offset_records.hpp"
#include "storage/log_swap.hpp"

namespace cafka {

namespace {

// Rounds that move pending commits to the new log without the mutex before the last,
// locked one: commits keep arriving, so this only makes the locked part short.
constexpr int catch_up_rounds = 4;

} // namespace

offset_log_store::blocking_job offset_log_store::prepare_rewrite_locked(int32_t p, int64_t now_ms) {
  auto& ps = partitions_[p];
  if (closed_ || ps.rewrite_in_flight || !ps.log || ps.table.has_pending()) // (the snapshot has no pending ones)
    return {};
  if (ps.log->size_bytes() < options_.rewrite_min_bytes
      || ps.table.superseded_fraction() <= options_.rewrite_superseded_fraction)
    return {};
  auto max_batch = static_cast<size_t>(ps.log->config().max_message_bytes);
  auto snapshot = std::make_shared<std::vector<char>>(ps.table.snapshot_batches(now_ms, max_batch));
  auto base_offset = ps.log->log_end_offset();
  ps.rewrite_in_flight = true;
  ps.pending.clear();
  std::weak_ptr<offset_log_store> weak = weak_from_this();
  auto path = dir_.partition_path(partition(p));
  return [weak, p, path, snapshot, base_offset, now_ms]() -> std::error_code {
    auto self = weak.lock();
    if (!self)
      return {};
    auto st = self->run_rewrite(p, path, *snapshot, base_offset, now_ms);
    return st.error();
  };
}

status offset_log_store::run_rewrite(int32_t p, const std::string& path, const std::vector<char>& snapshot,
                                     int64_t base_offset, int64_t now_ms) {
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_) // the store closed while the job waited: leave the folders alone
      return abandon_rewrite_locked(p);
  }
  // 2. The new log beside the old one, without the mutex: commits go on meanwhile.
  auto fresh = storage::create_log_at(storage::cleaned_path(path), cfg_, base_offset, now_ms);
  if (!fresh)
    return abandon_rewrite(p, path, fresh.error());
  auto& log = **fresh;
  if (!snapshot.empty()) {
    auto bytes = snapshot;
    if (auto appended = log.append(bytes, now_ms); !appended)
      return abandon_rewrite(p, path, appended.error());
  }
  if (auto st = log.flush(); !st)
    return abandon_rewrite(p, path, st.error());
  for (int round = 0; round < catch_up_rounds; ++round) {
    std::vector<cluster::offset_update> moved;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      if (closed_)
        return abandon_rewrite(p, path, std::make_error_code(std::errc::operation_canceled));
      moved.swap(partitions_[p].pending);
    }
    if (moved.empty())
      break;
    if (auto st = append_to(log, moved, now_ms); !st)
      return abandon_rewrite(p, path, st.error());
    if (auto st = log.flush(); !st)
      return abandon_rewrite(p, path, st.error());
  }
  // 3. The swap, under the mutex so that no commit falls between the logs.
  std::shared_ptr<storage::partition_log> old;
  {
    std::unique_lock<std::mutex> guard{mutex_};
    auto& ps = partitions_[p];
    std::error_code failed = closed_ ? std::make_error_code(std::errc::operation_canceled) : std::error_code{};
    if (!failed)
      failed = append_to(log, ps.pending, now_ms).error();
    auto end = log.log_end_offset();
    if (!failed)
      failed = log.close().error();
    if (!failed)
      failed = storage::swap_in(path).error();
    if (failed) {
      guard.unlock();
      return abandon_rewrite(p, path, failed);
    }
    auto reopened = storage::partition_log::open(path, cfg_, end, true, now_ms);
    old = std::move(ps.log);
    if (reopened) {
      ps.log = std::move(*reopened);
    } else {
      // The new log is in place on disk; the next commit to this partition opens it again
      // (or fails), never the old log, whose folder is about to go.
      log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: reopening the rewritten log failed: %s", p,
               reopened.error().message().c_str());
    }
    ps.table.log_rewritten();
    ps.rewrite_in_flight = false;
    ps.pending.clear();
    ++rewrites_;
  }
  old.reset(); // its files are unlinked with the folder; nothing of it is flushed
  if (auto st = storage::finish_swap(path); !st) {
    log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: removing the replaced log failed: %s", p, st.error().message().c_str());
    return st;
  }
  log_line(log_level::info, log_component::groups, "__consumer_offsets-%d: rewritten from offset %lld", p, static_cast<long long>(base_offset));
  return {};
}

std::error_code offset_log_store::abandon_rewrite_locked(int32_t p) {
  auto& ps = partitions_[p];
  ps.rewrite_in_flight = false;
  ps.pending.clear();
  return std::make_error_code(std::errc::operation_canceled);
}

std::error_code offset_log_store::abandon_rewrite(int32_t p, const std::string& path, std::error_code why) {
  {
    std::lock_guard<std::mutex> guard{mutex_};
    abandon_rewrite_locked(p);
  }
  // Only while the old log is in place: if undoing a half-done swap failed, the copy is
  // what repair_interrupted_swap puts back at the next open.
  std::error_code ec;
  if (std::filesystem::exists(path, ec))
    std::filesystem::remove_all(storage::cleaned_path(path), ec);
  if (why != std::errc::operation_canceled)
    log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: rewrite abandoned (the old log is kept): %s", p, why.message().c_str());
  return why;
}

} // namespace cafka
