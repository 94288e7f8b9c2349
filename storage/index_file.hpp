#pragma once
// A sparse index file of fixed-width entries (offset_entry or time_entry).
//
// Entries already written to the file are read through a read-only memory map, so a
// sealed segment's index costs page cache, not heap. Entries appended since the last
// persist() live in a small in-memory tail; persist() writes them and remaps (the
// fsync is the owner's, through duplicate_file()). A crash loses at most the
// tail, which recovery rebuilds from the log.
//
// Not thread-safe: one owner (the segment) calls everything.

#include <cstddef>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

template <class Entry>
class index_file {
public:
  index_file() = default;
  index_file(const index_file&) = delete;
  index_file& operator=(const index_file&) = delete;
  index_file(index_file&& other) noexcept;
  index_file& operator=(index_file&& other) noexcept;
  ~index_file();

  /// Opens (creating if missing) and maps the file. Fails with corrupt_index when
  /// the size is not a multiple of the entry size.
  static result<index_file> open(const std::string& path);

  size_t size() const noexcept { return mapped_count_ + tail_.size(); }
  bool empty() const noexcept { return size() == 0; }
  Entry at(size_t i) const noexcept;
  Entry back() const noexcept { return at(size() - 1); }

  void push_back(const Entry& e) { tail_.push_back(e); }

  /// The position of the last entry for which `before_or_at(entry)` holds, assuming
  /// the predicate is true for a prefix of the entries; size() when it holds for none.
  template <class Pred>
  size_t last_where(Pred before_or_at) const noexcept {
    size_t lo = 0, hi = size(); // invariant: pred true below lo, false from hi on
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (before_or_at(at(mid)))
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo == 0 ? size() : lo - 1;
  }

  /// Writes the in-memory tail to the file.
  status persist();
  /// Keeps the first `n` entries.
  status truncate(size_t n);
  /// A second descriptor of the file, for an fsync on another thread.
  result<file> duplicate_file() const { return file_.duplicate(); }
  /// Removes the file from disk (the object becomes empty).
  status remove();
  const std::string& path() const noexcept { return path_; }

private:
  status remap(size_t count);
  void unmap() noexcept;

  std::string path_;
  file file_;
  const char* map_ = nullptr;
  size_t mapped_count_ = 0;
  std::vector<Entry> tail_;
};

} // namespace cafka::storage
