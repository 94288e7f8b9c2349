#include "storage/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "storage/errc.hpp"

namespace cafka::storage {

file::file(file&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

file& file::operator=(file&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

file::~file() { close(); }

result<file> file::open(const std::string& path, mode m) {
  int flags = O_CLOEXEC;
  flags |= m == mode::read_only ? O_RDONLY : (O_RDWR | O_CREAT | O_APPEND);
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0)
    return last_system_error();
  return file{fd};
}

status file::append(const void* data, size_t n) {
  auto p = static_cast<const char*>(data);
  while (n > 0) {
    auto k = ::write(fd_, p, n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return last_system_error();
    }
    p += k;
    n -= static_cast<size_t>(k);
  }
  return {};
}

status file::write_at(const void* data, size_t n, uint64_t position) {
  auto p = static_cast<const char*>(data);
  while (n > 0) {
    auto k = ::pwrite(fd_, p, n, static_cast<off_t>(position));
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return last_system_error();
    }
    p += k;
    n -= static_cast<size_t>(k);
    position += static_cast<uint64_t>(k);
  }
  return {};
}

result<size_t> file::read_at(void* out, size_t n, uint64_t position) const {
  auto p = static_cast<char*>(out);
  size_t done = 0;
  while (done < n) {
    auto k = ::pread(fd_, p + done, n - done, static_cast<off_t>(position + done));
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return last_system_error();
    }
    if (k == 0)
      break;
    done += static_cast<size_t>(k);
  }
  return done;
}

result<uint64_t> file::size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0)
    return last_system_error();
  return static_cast<uint64_t>(st.st_size);
}

status file::truncate(uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0)
    return last_system_error();
  return {};
}

status file::sync() {
  if (::fdatasync(fd_) != 0)
    return last_system_error();
  return {};
}

void file::close() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

result<file> file::duplicate() const {
  int fd = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0)
    return last_system_error();
  return file{fd};
}

status sync_directory(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return last_system_error();
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0)
    return last_system_error();
  return {};
}

namespace {

status write_then_rename(const std::string& path, const std::string& contents, bool durable) {
  auto tmp = path + ".tmp";
  {
    ::unlink(tmp.c_str());
    auto f = file::open(tmp, file::mode::read_write_create);
    if (!f)
      return f.error();
    if (auto st = f->append(contents.data(), contents.size()); !st)
      return st;
    if (durable) {
      if (auto st = f->sync(); !st)
        return st;
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return last_system_error();
  if (!durable)
    return {};
  auto slash = path.find_last_of('/');
  return sync_directory(slash == std::string::npos ? "." : path.substr(0, slash));
}

} // namespace

status write_file_atomically(const std::string& path, const std::string& contents) {
  return write_then_rename(path, contents, true);
}

status replace_file(const std::string& path, const std::string& contents) {
  return write_then_rename(path, contents, false);
}

status delete_files(const std::vector<std::string>& paths) {
  status first;
  for (auto& p : paths)
    if (::unlink(p.c_str()) != 0 && errno != ENOENT && first)
      first = last_system_error();
  return first;
}

result<std::string> read_whole_file(const std::string& path) {
  auto f = file::open(path, file::mode::read_only);
  if (!f)
    return f.error();
  auto n = f->size();
  if (!n)
    return n.error();
  std::string out(*n, '\0');
  auto got = f->read_at(out.data(), out.size(), 0);
  if (!got)
    return got.error();
  out.resize(*got);
  return out;
}

result<std::optional<std::string>> read_file_if_present(const std::string& path) {
  auto text = read_whole_file(path);
  if (!text) {
    if (text.error() == std::error_code(ENOENT, std::system_category()))
      return std::optional<std::string>{};
    return text.error();
  }
  return std::optional<std::string>{std::move(*text)};
}

} // namespace cafka::storage
