#pragma once
// Splits a TCP byte stream into Kafka frames: size:i32 followed by exactly `size` bytes.
//
// Bytes are appended as they arrive; next() hands out complete frames as views into the
// buffer (valid until the next append() or compact()). A frame whose size is negative
// or above the limit (socket.request.max.bytes) is refused before any of it is
// buffered beyond what already arrived: the caller closes the connection.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "protocol/batch_header.hpp" // bytes_view

namespace cafka::wire {

using protocol::bytes_view;

class frame_reader {
public:
  enum class status { frame, need_more, too_large };

  struct next_result {
    status state = status::need_more;
    bytes_view frame; ///< the frame's bytes without the size prefix (state == frame)
    int64_t size = 0; ///< the announced size (state == frame or too_large)
  };

  explicit frame_reader(size_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

  void append(bytes_view data) { buffer_.insert(buffer_.end(), data.begin(), data.end()); }

  /// The next complete frame, or need_more, or too_large (the stream is then unusable).
  next_result next();

  /// Drops the frames already handed out (their views become invalid).
  void compact();

  /// Bytes received and not yet handed out as frames.
  size_t buffered() const noexcept { return buffer_.size() - consumed_; }

private:
  size_t max_frame_bytes_;
  std::vector<char> buffer_;
  size_t consumed_ = 0;
};

} // namespace cafka::wire
