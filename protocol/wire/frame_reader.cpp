#include "protocol/wire/frame_reader.hpp"

#include "protocol/endian.hpp"

namespace cafka::wire {

frame_reader::next_result frame_reader::next() {
  next_result r;
  auto left = buffer_.size() - consumed_;
  if (left < 4)
    return r;
  auto size = static_cast<int64_t>(protocol::load_be<int32_t>(buffer_.data() + consumed_));
  r.size = size;
  if (size < 0 || static_cast<uint64_t>(size) > max_frame_bytes_) {
    r.state = status::too_large;
    return r;
  }
  if (left - 4 < static_cast<size_t>(size))
    return r;
  r.state = status::frame;
  r.frame = bytes_view{buffer_.data() + consumed_ + 4, static_cast<size_t>(size)};
  consumed_ += 4 + static_cast<size_t>(size);
  return r;
}

void frame_reader::compact() {
  if (consumed_ == 0)
    return;
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(consumed_));
  consumed_ = 0;
  // A large request leaves a large buffer behind; an idle connection should not keep it.
  if (buffer_.empty() && buffer_.capacity() > (1u << 20))
    std::vector<char>{}.swap(buffer_);
}

} // namespace cafka::wire
