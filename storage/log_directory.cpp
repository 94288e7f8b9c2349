#include "storage/log_directory.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "storage/errc.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

namespace fs = std::filesystem;

namespace {
constexpr const char* checkpoint_name = "recovery-point-offset-checkpoint";
constexpr const char* clean_marker_name = ".cafka-clean-shutdown";
} // namespace

log_directory::~log_directory() = default;

result<std::unique_ptr<log_directory>> log_directory::open(const std::string& root) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec)
    return ec;
  std::unique_ptr<log_directory> d{new log_directory};
  d->root_ = root;
  auto lock = dir_lock::acquire(root);
  if (!lock)
    return lock.error();
  d->lock_ = std::move(*lock);
  auto points = read_checkpoint_file(root + '/' + checkpoint_name);
  // A damaged checkpoint only costs a longer recovery: treat it as absent.
  d->recovery_points_ = points ? *points : offset_checkpoint{};
  auto marker = root + '/' + clean_marker_name;
  d->clean_ = points && ::access(marker.c_str(), F_OK) == 0;
  // From here on a crash is an unclean shutdown.
  if (::unlink(marker.c_str()) == 0) {
    if (auto st = sync_directory(root); !st)
      return st.error();
  }
  return d;
}

result<std::vector<topic_partition>> log_directory::partitions_on_disk() const {
  std::vector<topic_partition> out;
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(root_, ec)) {
    if (!entry.is_directory())
      continue;
    if (auto tp = parse_partition_dir_name(entry.path().filename().string()))
      out.push_back(*tp);
  }
  if (ec)
    return ec;
  return out;
}

result<partition_log*> log_directory::open_log(const topic_partition& tp, const log_config& cfg,
                                               int64_t now_ms) {
  if (auto* existing = find(tp))
    return existing;
  auto it = recovery_points_.find(tp);
  int64_t point = it == recovery_points_.end() ? 0 : it->second;
  // A partition missing from the checkpoint is recovered in full, even after a clean close.
  bool clean = clean_ && it != recovery_points_.end();
  auto log = partition_log::open(root_ + '/' + partition_dir_name(tp), cfg, point, clean, now_ms);
  if (!log)
    return log.error();
  auto* raw = log->get();
  logs_.emplace(tp, std::move(*log));
  return raw;
}

partition_log* log_directory::find(const topic_partition& tp) const {
  auto it = logs_.find(tp);
  return it == logs_.end() ? nullptr : it->second.get();
}

status log_directory::delete_log(const topic_partition& tp) {
  logs_.erase(tp);
  recovery_points_.erase(tp);
  std::error_code ec;
  fs::remove_all(root_ + '/' + partition_dir_name(tp), ec);
  if (ec)
    return ec;
  return write_checkpoint();
}

status log_directory::write_checkpoint() {
  for (auto& [tp, log] : logs_)
    recovery_points_[tp] = log->recovery_point();
  return write_checkpoint_file(root_ + '/' + checkpoint_name, recovery_points_);
}

status log_directory::close() {
  // After an unclean start, a log nobody opened was never recovered: it must not be
  // trusted blindly next time, so the marker is only written when every log was closed.
  bool all_closed_here = clean_;
  if (!all_closed_here) {
    auto on_disk = partitions_on_disk();
    if (!on_disk)
      return on_disk.error();
    all_closed_here = std::all_of(on_disk->begin(), on_disk->end(),
                                  [this](const topic_partition& tp) { return find(tp) != nullptr; });
  }
  for (auto& [tp, log] : logs_)
    if (auto st = log->close(); !st)
      return st;
  if (auto st = write_checkpoint(); !st)
    return st;
  logs_.clear();
  if (!all_closed_here)
    return {};
  return write_file_atomically(root_ + '/' + clean_marker_name, "");
}

} // namespace cafka::storage
