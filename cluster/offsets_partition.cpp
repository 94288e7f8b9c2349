#include "cluster/offsets_partition.hpp"

#include <limits>

namespace cafka::cluster {
namespace {

constexpr uint32_t replacement_character = 0xFFFD;

/// The code point starting at s[i], advancing i past it. An invalid sequence yields U+FFFD
/// and consumes only its maximal invalid prefix (Unicode's recommended practice): the byte
/// that broke it starts the next sequence.
uint32_t next_code_point(std::string_view s, size_t& i) noexcept {
  auto b0 = static_cast<unsigned char>(s[i++]);
  if (b0 < 0x80)
    return b0;
  int continuation_bytes = 0;
  uint32_t cp = 0;
  // The range of the second byte excludes overlong forms, surrogates and values > U+10FFFF.
  unsigned char low = 0x80, high = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    continuation_bytes = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    continuation_bytes = 2;
    cp = b0 & 0x0F;
    low = b0 == 0xE0 ? 0xA0 : 0x80;
    high = b0 == 0xED ? 0x9F : 0xBF;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    continuation_bytes = 3;
    cp = b0 & 0x07;
    low = b0 == 0xF0 ? 0x90 : 0x80;
    high = b0 == 0xF4 ? 0x8F : 0xBF;
  } else {
    return replacement_character;
  }
  for (int k = 0; k < continuation_bytes; ++k) {
    if (i >= s.size())
      return replacement_character;
    auto b = static_cast<unsigned char>(s[i]);
    if (b < low || b > high)
      return replacement_character;
    cp = (cp << 6) | (b & 0x3F);
    ++i;
    low = 0x80;
    high = 0xBF;
  }
  return cp;
}

} // namespace

int32_t java_string_hash_code(std::string_view utf8) noexcept {
  // Unsigned arithmetic wraps exactly like Java's int overflow.
  uint32_t h = 0;
  auto add_unit = [&h](uint32_t unit) { h = 31 * h + unit; };
  for (size_t i = 0; i < utf8.size();) {
    auto cp = next_code_point(utf8, i);
    if (cp < 0x10000) {
      add_unit(cp);
    } else {
      cp -= 0x10000;
      add_unit(0xD800 + (cp >> 10));
      add_unit(0xDC00 + (cp & 0x3FF));
    }
  }
  return static_cast<int32_t>(h);
}

int32_t kafka_abs(int32_t n) noexcept {
  if (n == std::numeric_limits<int32_t>::min())
    return 0;
  return n < 0 ? -n : n;
}

int32_t offsets_partition_for(std::string_view group, int32_t partitions) noexcept {
  return kafka_abs(java_string_hash_code(group)) % partitions;
}

} // namespace cafka::cluster
