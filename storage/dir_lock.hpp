#pragma once
// An exclusive lock on a log.dirs entry: flock() on <dir>/.lock, held for the life of
// the object. A second process (or a second open in this one) gets log_dir_locked.
// The kernel drops the lock when the process dies, so a crash never leaves it stale.

#include <string>

#include "protocol/result.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

class dir_lock {
public:
  static result<dir_lock> acquire(const std::string& dir);
  const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
  file file_;
};

} // namespace cafka::storage
