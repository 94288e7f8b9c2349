#pragma once
// On-disk entries of the two sparse indexes of a segment, in little-endian byte order.
//
//   .index      8 bytes: relative_offset i32 (batch base offset - segment base), position u32
//   .timeindex 12 bytes: timestamp i64, relative_offset i32 (offset of the record holding
//                         the largest timestamp seen so far)
//
// Both are sorted by every field: offsets and positions grow, and a time index entry is
// only added when its timestamp exceeds the previous entry's.

#include <cstdint>
#include <cstring>

namespace cafka::storage {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "index files are stored little-endian by memcpy");

struct offset_entry {
  static constexpr size_t disk_size = 8;
  int32_t relative_offset = 0;
  uint32_t position = 0;

  void encode(char* out) const noexcept {
    std::memcpy(out, &relative_offset, 4);
    std::memcpy(out + 4, &position, 4);
  }
  static offset_entry decode(const char* in) noexcept {
    offset_entry e;
    std::memcpy(&e.relative_offset, in, 4);
    std::memcpy(&e.position, in + 4, 4);
    return e;
  }
};

struct time_entry {
  static constexpr size_t disk_size = 12;
  int64_t timestamp = 0;
  int32_t relative_offset = 0;

  void encode(char* out) const noexcept {
    std::memcpy(out, &timestamp, 8);
    std::memcpy(out + 8, &relative_offset, 4);
  }
  static time_entry decode(const char* in) noexcept {
    time_entry e;
    std::memcpy(&e.timestamp, in, 8);
    std::memcpy(&e.relative_offset, in + 8, 4);
    return e;
  }
};

} // namespace cafka::storage
