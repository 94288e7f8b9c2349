#pragma once
// Kafka clients need the responses of a connection in the order of its requests, while
// the partition work behind them finishes in any order. Each request reserves a slot;
// a completed slot is written only when every earlier one is out. A slot completed
// without bytes (Produce with acks=0) is skipped silently.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace cafka {

class response_order {
public:
  using frame = std::vector<char>;

  /// The slot for the next request.
  uint64_t reserve() noexcept { return next_slot_++; }

  /// Completes `slot` and calls write(frame&) for every frame that is now next in line.
  template <class Write>
  void complete(uint64_t slot, std::optional<frame> response, Write&& write) {
    done_.emplace(slot, std::move(response));
    for (auto it = done_.begin(); it != done_.end() && it->first == next_to_send_;
         it = done_.erase(it)) {
      if (it->second)
        write(*it->second);
      ++next_to_send_;
    }
  }

  /// Whether `slot` is the next to be written: its response may go straight out.
  bool is_next(uint64_t slot) const noexcept { return slot == next_to_send_; }

  /// Requests reserved and not yet written (or skipped).
  uint64_t in_flight() const noexcept { return next_slot_ - next_to_send_; }

private:
  uint64_t next_slot_ = 0;
  uint64_t next_to_send_ = 0;
  std::map<uint64_t, std::optional<frame>> done_;
};

} // namespace cafka
