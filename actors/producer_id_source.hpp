#pragma once
// Producer ids for InitProducerId: unique within a node's lifetime and across restarts
// (they start from the clock, a thousand per millisecond of uptime before they could
// catch up with a later start).

#include <atomic>
#include <cstdint>

namespace cafka {

class producer_id_source {
public:
  explicit producer_id_source(int64_t now_ms) : next_(now_ms * 1000) {}
  int64_t next() noexcept { return next_.fetch_add(1, std::memory_order_relaxed); }

private:
  std::atomic<int64_t> next_;
};

} // namespace cafka
