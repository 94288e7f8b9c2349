#pragma once
// One log.dirs entry: the lock, the partition folders, the recovery-point and high
// watermark checkpoints and the clean-shutdown marker.
//
//   <root>/.lock                              held while open (dir_lock)
//   <root>/recovery-point-offset-checkpoint   flushed offset per partition
//   <root>/replication-offset-checkpoint      high watermark per partition (Kafka's name)
//   <root>/.cafka-clean-shutdown              present only between a clean close and the next open
//   <root>/<topic>-<partition>/               one partition_log each
//
// The logs it opens belong to the caller (a partition actor each); the owner of the
// directory collects their recovery points and writes them back. Not thread-safe.

#include <memory>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "storage/checkpoint_file.hpp"
#include "storage/dir_lock.hpp"
#include "storage/log_dir_health.hpp"
#include "storage/log_config.hpp"
#include "storage/partition_log.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::storage {

class log_directory {
public:
  /// Creates `root` if needed and locks it (log_dir_locked if another process has it).
  /// Removes the clean-shutdown marker: from now on a crash is an unclean shutdown.
  static result<std::unique_ptr<log_directory>> open(const std::string& root);

  /// Partition folders found under the root.
  result<std::vector<topic_partition>> partitions_on_disk() const;
  /// Opens (creating if needed) a partition's log with the recovery point of the
  /// checkpoint, recovering it as partition_log::open() describes. The log shares this
  /// directory's health (log_dir_health.hpp).
  result<std::unique_ptr<partition_log>> open_log(const topic_partition& tp, const log_config& cfg,
                                                  int64_t now_ms) const;
  /// The folder of a partition (to delete it once its log is closed).
  std::string partition_path(const topic_partition& tp) const;

  /// Writes the recovery points of the logs (atomically, with fsync: blocking).
  status write_checkpoint(const offset_checkpoint& recovery_points) const;
  /// Writes the high watermarks of the logs (atomically, with fsync: blocking).
  status write_high_watermarks(const offset_checkpoint& hw) const;
  /// The high watermarks last written; a missing file is empty, a damaged one
  /// corrupt_checkpoint (the caller may start from the log start: the HW only lags).
  result<offset_checkpoint> read_high_watermarks() const;

  /// After every log was closed: writes their final recovery points and the marker
  /// that lets the next open() trust them without a scan. The marker is left out when
  /// a partition on disk is missing from `recovery_points` after an unclean start,
  /// since that log was never recovered.
  status mark_clean_shutdown(const offset_checkpoint& recovery_points) const;

  const std::string& root() const noexcept { return root_; }
  /// Whether this directory still takes writes; shared with the logs it opened.
  const log_dir_health& health() const noexcept { return *health_; }
  bool previous_shutdown_was_clean() const noexcept { return clean_; }

private:
  log_directory() = default;

  std::string root_;
  dir_lock lock_;
  bool clean_ = false;
  std::shared_ptr<log_dir_health> health_ = std::make_shared<log_dir_health>();
  offset_checkpoint recovery_points_; ///< as read at open()
};

} // namespace cafka::storage
