#pragma once
// Whether a log.dirs entry still takes writes. A write or fsync that failed in it (ENOSPC,
// EIO, EFBIG, ...) takes the whole directory offline, as Kafka does: every log in it refuses
// appends from then on (errc::log_dir_offline, KAFKA_STORAGE_ERROR on the wire) and keeps
// serving reads of what it holds, until the broker restarts (whose recovery cuts any
// torn tail). The other log dirs keep working. Shared by the directory's logs; thread-safe.

#include <atomic>
#include <mutex>
#include <system_error>

namespace cafka::storage {

class log_dir_health {
public:
  bool offline() const noexcept { return offline_.load(std::memory_order_acquire); }

  /// Takes the directory offline; the first failure is the one kept as the reason.
  void take_offline(std::error_code why) {
    std::lock_guard<std::mutex> guard{mtx_};
    if (offline_.load(std::memory_order_relaxed))
      return;
    reason_ = why;
    offline_.store(true, std::memory_order_release);
  }

  /// The failure that took it offline (empty while online).
  std::error_code reason() const {
    std::lock_guard<std::mutex> guard{mtx_};
    return reason_;
  }

private:
  std::atomic<bool> offline_{false};
  mutable std::mutex mtx_;
  std::error_code reason_;
};

} // namespace cafka::storage
