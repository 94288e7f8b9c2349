#include "storage/dir_lock.hpp"

#include <sys/file.h>

#include <cerrno>

#include "storage/errc.hpp"

namespace cafka::storage {

result<dir_lock> dir_lock::acquire(const std::string& dir) {
  dir_lock lock;
  lock.path_ = dir + "/.lock";
  auto f = file::open(lock.path_, file::mode::read_write_create);
  if (!f)
    return f.error();
  if (::flock(f->fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      return errc::log_dir_locked;
    return last_system_error();
  }
  lock.file_ = std::move(*f);
  return lock;
}

} // namespace cafka::storage
