#include "protocol/xxhash32.hpp"

#include "protocol/endian.hpp"

// Written from the algorithm description of the xxHash specification: four
// accumulators over 16-byte stripes, then 4-byte words, then single bytes, then a final
// avalanche. All arithmetic is modulo 2^32; input words are little-endian.

namespace cafka::protocol {
namespace {

constexpr uint32_t prime1 = 0x9E3779B1u;
constexpr uint32_t prime2 = 0x85EBCA77u;
constexpr uint32_t prime3 = 0xC2B2AE3Du;
constexpr uint32_t prime4 = 0x27D4EB2Fu;
constexpr uint32_t prime5 = 0x165667B1u;

constexpr uint32_t rotl(uint32_t x, int r) noexcept { return (x << r) | (x >> (32 - r)); }

constexpr uint32_t round(uint32_t acc, uint32_t lane) noexcept {
  return rotl(acc + lane * prime2, 13) * prime1;
}

} // namespace

uint32_t xxh32(const void* data, size_t n, uint32_t seed) noexcept {
  auto p = static_cast<const unsigned char*>(data);
  const unsigned char* end = p + n;
  uint32_t acc;
  if (n >= 16) {
    uint32_t v1 = seed + prime1 + prime2, v2 = seed + prime2, v3 = seed, v4 = seed - prime1;
    for (; end - p >= 16; p += 16) {
      v1 = round(v1, load_le<uint32_t>(p));
      v2 = round(v2, load_le<uint32_t>(p + 4));
      v3 = round(v3, load_le<uint32_t>(p + 8));
      v4 = round(v4, load_le<uint32_t>(p + 12));
    }
    acc = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
  } else {
    acc = seed + prime5;
  }
  acc += static_cast<uint32_t>(n);
  for (; end - p >= 4; p += 4) acc = rotl(acc + load_le<uint32_t>(p) * prime3, 17) * prime4;
  for (; p < end; ++p) acc = rotl(acc + *p * prime5, 11) * prime1;
  acc ^= acc >> 15;
  acc *= prime2;
  acc ^= acc >> 13;
  acc *= prime3;
  acc ^= acc >> 16;
  return acc;
}

} // namespace cafka::protocol
