#pragma once
// The cleaner's key -> latest offset map (Kafka's SkimpyOffsetMap): a fixed block of memory
// cut into slots of a 128-bit key hash (MurmurHash3 x64-128) and an offset, with linear
// probing. Keys themselves are not kept, so memory does not grow with key sizes; two keys
// with the same 128-bit hash count as one (Kafka accepts the same of MD5).
//
// The map is full at `load_factor` of its slots (Kafka's log.cleaner.io.buffer.load.factor):
// put() of a new key is then refused, and the cleaner cleans the part of the log it mapped
// so far (several passes over a log with more keys than fit).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cafka::storage {

struct key_hash {
  uint64_t low = 0;
  uint64_t high = 0;
  friend bool operator==(const key_hash& a, const key_hash& b) { return a.low == b.low && a.high == b.high; }
};

/// MurmurHash3 x64-128 of `key`, seed 0.
key_hash hash_key(std::string_view key) noexcept;

class offset_map {
public:
  /// As many slots as fit in `memory_bytes` (at least one).
  explicit offset_map(size_t memory_bytes, double load_factor = 0.9);

  size_t slots() const noexcept { return slots_.size(); }
  /// Keys held.
  size_t size() const noexcept { return size_; }
  /// Keys it holds before it is full.
  size_t capacity() const noexcept { return capacity_; }
  bool full() const noexcept { return size_ >= capacity_; }
  /// The memory the slots take (what log.cleaner.dedupe.buffer.size bounds).
  size_t memory_bytes() const noexcept { return slots_.size() * sizeof(slot); }

  /// Records `offset` as the latest offset of `key`. False, and nothing changes, when the
  /// key is new and the map is full.
  bool put(std::string_view key, int64_t offset) noexcept;
  /// The offset recorded for `key`, or -1.
  int64_t get(std::string_view key) const noexcept;
  void clear() noexcept;

private:
  struct slot {
    key_hash hash;
    int64_t offset = -1; ///< -1: empty
  };
  size_t find(const key_hash& h) const noexcept;

  std::vector<slot> slots_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

} // namespace cafka::storage
