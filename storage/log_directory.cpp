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
constexpr const char* high_watermark_name = "replication-offset-checkpoint";
} // namespace

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
  std::sort(out.begin(), out.end());
  return out;
}

std::string log_directory::partition_path(const topic_partition& tp) const {
  return root_ + '/' + partition_dir_name(tp);
}

result<std::unique_ptr<partition_log>> log_directory::open_log(const topic_partition& tp,
                                                               const log_config& cfg,
                                                               int64_t now_ms) const {
  auto it = recovery_points_.find(tp);
  int64_t point = it == recovery_points_.end() ? 0 : it->second;
  // A partition missing from the checkpoint is recovered in full, even after a clean close.
  bool clean = clean_ && it != recovery_points_.end();
  auto log = partition_log::open(partition_path(tp), cfg, point, clean, now_ms);
  if (log)
    (*log)->set_dir_health(health_);
  return log;
}

status log_directory::write_checkpoint(const offset_checkpoint& recovery_points) const {
  return write_checkpoint_file(root_ + '/' + checkpoint_name, recovery_points);
}

status log_directory::write_high_watermarks(const offset_checkpoint& hw) const {
  return write_checkpoint_file(root_ + '/' + high_watermark_name, hw);
}

result<offset_checkpoint> log_directory::read_high_watermarks() const {
  return read_checkpoint_file(root_ + '/' + high_watermark_name);
}

status log_directory::mark_clean_shutdown(const offset_checkpoint& recovery_points) const {
  if (auto st = write_checkpoint(recovery_points); !st)
    return st;
  if (!clean_) {
    auto on_disk = partitions_on_disk();
    if (!on_disk)
      return on_disk.error();
    for (auto& tp : *on_disk)
      if (recovery_points.count(tp) == 0)
        return {};
  }
  return write_file_atomically(root_ + '/' + clean_marker_name, "");
}

} // namespace cafka::storage
