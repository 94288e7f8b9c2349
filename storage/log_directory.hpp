#pragma once
// One log.dirs entry: the lock, the partition folders, the recovery-point checkpoint
// and the clean-shutdown marker.
//
//   <root>/.lock                              held while open (dir_lock)
//   <root>/recovery-point-offset-checkpoint   flushed offset per partition
//   <root>/.cafka-clean-shutdown              present only between close() and the next open()
//   <root>/<topic>-<partition>/               one partition_log each
//
// Not thread-safe: one owner.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "storage/checkpoint_file.hpp"
#include "storage/dir_lock.hpp"
#include "storage/log_config.hpp"
#include "storage/partition_log.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::storage {

class log_directory {
public:
  /// Creates `root` if needed and locks it (log_dir_locked if another process has it).
  static result<std::unique_ptr<log_directory>> open(const std::string& root);
  ~log_directory();

  /// Partition folders found under the root.
  result<std::vector<topic_partition>> partitions_on_disk() const;
  /// Opens (creating if needed) a partition's log, recovering it as partition_log says.
  result<partition_log*> open_log(const topic_partition& tp, const log_config& cfg, int64_t now_ms);
  partition_log* find(const topic_partition& tp) const;
  /// Closes a partition's log and deletes its folder.
  status delete_log(const topic_partition& tp);

  /// Writes the recovery points of every open log (atomically).
  status write_checkpoint();
  /// Flushes and closes every log, writes the checkpoint and the clean-shutdown marker.
  status close();

  const std::string& root() const noexcept { return root_; }
  bool previous_shutdown_was_clean() const noexcept { return clean_; }

private:
  log_directory() = default;

  std::string root_;
  dir_lock lock_;
  bool clean_ = false;
  offset_checkpoint recovery_points_;
  std::map<topic_partition, std::unique_ptr<partition_log>> logs_;
};

} // namespace cafka::storage
