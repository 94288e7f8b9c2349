#pragma once
// A thin RAII owner of a POSIX file descriptor with the few calls the log needs.
// Every call is a plain blocking system call: the actor layer decides on which
// thread it runs. Errors come back as std::system_category codes.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::storage {

class file {
public:
  enum class mode { read_only, read_write_create };

  file() = default;
  file(const file&) = delete;
  file& operator=(const file&) = delete;
  file(file&& other) noexcept;
  file& operator=(file&& other) noexcept;
  ~file();

  static result<file> open(const std::string& path, mode m);

  bool is_open() const noexcept { return fd_ >= 0; }
  int fd() const noexcept { return fd_; }

  /// Writes all `n` bytes at the end of the file (the file is opened with O_APPEND).
  status append(const void* data, size_t n);
  /// Writes all `n` bytes at `position`.
  status write_at(const void* data, size_t n, uint64_t position);
  /// Reads up to `n` bytes at `position`; returns how many were read (less at EOF).
  result<size_t> read_at(void* out, size_t n, uint64_t position) const;
  result<uint64_t> size() const;
  status truncate(uint64_t size);
  /// fdatasync(): data and the size reach the device.
  status sync();
  void close() noexcept;
  /// A second descriptor for the same open file (for fsync on another thread).
  result<file> duplicate() const;

private:
  explicit file(int fd) : fd_(fd) {}
  int fd_ = -1;
};

/// fsync() of a directory, so that created, renamed or deleted entries are durable.
status sync_directory(const std::string& path);

/// Writes `contents` to `path` atomically: a temporary file, fsync, rename, fsync of the folder.
status write_file_atomically(const std::string& path, const std::string& contents);

/// The same without either fsync: a killed process leaves the old or the new file, but a
/// power loss may leave the old one, or on some file systems an empty one, until the
/// caller fdatasync()s `path` and fsyncs its folder.
status replace_file(const std::string& path, const std::string& contents);

/// Unlinks every path (missing files are fine); the first other failure is returned
/// after trying all.
status delete_files(const std::vector<std::string>& paths);

/// Reads a whole (small) file.
result<std::string> read_whole_file(const std::string& path);
/// The same, but a missing file reads as nothing (for checkpoint files).
result<std::optional<std::string>> read_file_if_present(const std::string& path);

} // namespace cafka::storage
