#include "storage/index_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <utility>

#include "storage/errc.hpp"
#include "storage/index_entries.hpp"

namespace cafka::storage {

template <class Entry>
index_file<Entry>::index_file(index_file&& other) noexcept
  : path_(std::move(other.path_)),
    file_(std::move(other.file_)),
    map_(std::exchange(other.map_, nullptr)),
    mapped_count_(std::exchange(other.mapped_count_, 0)),
    tail_(std::move(other.tail_)) {}

template <class Entry>
index_file<Entry>& index_file<Entry>::operator=(index_file&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    file_ = std::move(other.file_);
    map_ = std::exchange(other.map_, nullptr);
    mapped_count_ = std::exchange(other.mapped_count_, 0);
    tail_ = std::move(other.tail_);
  }
  return *this;
}

template <class Entry>
index_file<Entry>::~index_file() {
  unmap();
}

template <class Entry>
result<index_file<Entry>> index_file<Entry>::open(const std::string& path) {
  auto f = file::open(path, file::mode::read_write_create);
  if (!f)
    return f.error();
  auto bytes = f->size();
  if (!bytes)
    return bytes.error();
  if (*bytes % Entry::disk_size != 0)
    return errc::corrupt_index;
  index_file idx;
  idx.path_ = path;
  idx.file_ = std::move(*f);
  if (auto st = idx.remap(*bytes / Entry::disk_size); !st)
    return st.error();
  return idx;
}

template <class Entry>
Entry index_file<Entry>::at(size_t i) const noexcept {
  if (i < mapped_count_)
    return Entry::decode(map_ + i * Entry::disk_size);
  return tail_[i - mapped_count_];
}

template <class Entry>
status index_file<Entry>::persist() {
  if (!tail_.empty()) {
    std::vector<char> buf(tail_.size() * Entry::disk_size);
    for (size_t i = 0; i < tail_.size(); ++i)
      tail_[i].encode(buf.data() + i * Entry::disk_size);
    if (auto st = file_.write_at(buf.data(), buf.size(), mapped_count_ * Entry::disk_size); !st)
      return st;
    auto count = mapped_count_ + tail_.size();
    tail_.clear();
    if (auto st = remap(count); !st)
      return st;
  }
  return {};
}

template <class Entry>
status index_file<Entry>::truncate(size_t n) {
  if (n >= mapped_count_) {
    tail_.resize(std::min(tail_.size(), n - mapped_count_));
    return {};
  }
  tail_.clear();
  if (auto st = file_.truncate(n * Entry::disk_size); !st)
    return st;
  return remap(n);
}

template <class Entry>
status index_file<Entry>::remove() {
  unmap();
  tail_.clear();
  file_.close();
  if (!path_.empty() && ::unlink(path_.c_str()) != 0)
    return last_system_error();
  return {};
}

template <class Entry>
status index_file<Entry>::remap(size_t count) {
  unmap();
  if (count == 0)
    return {};
  auto bytes = count * Entry::disk_size;
  void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, file_.fd(), 0);
  if (p == MAP_FAILED)
    return last_system_error();
  map_ = static_cast<const char*>(p);
  mapped_count_ = count;
  return {};
}

template <class Entry>
void index_file<Entry>::unmap() noexcept {
  if (map_ != nullptr)
    ::munmap(const_cast<char*>(map_), mapped_count_ * Entry::disk_size);
  map_ = nullptr;
  mapped_count_ = 0;
}

template class index_file<offset_entry>;
template class index_file<time_entry>;

} // namespace cafka::storage
