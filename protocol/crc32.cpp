#include "protocol/crc32.hpp"

namespace cafka::protocol {
namespace {

constexpr uint32_t ieee_reflected = 0xEDB88320;

struct byte_table {
  uint32_t entry[256];
};

constexpr byte_table make_table() {
  byte_table t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t r = b;
    for (int bit = 0; bit < 8; ++bit) r = (r >> 1) ^ (ieee_reflected & (0u - (r & 1)));
    t.entry[b] = r;
  }
  return t;
}

constexpr byte_table table = make_table();

} // namespace

uint32_t crc32(const void* data, size_t n, uint32_t crc) noexcept {
  auto p = static_cast<const unsigned char*>(data);
  uint32_t r = ~crc; // pre- and post-inversion, as in zlib
  for (; n > 0; ++p, --n) r = (r >> 8) ^ table.entry[(r ^ *p) & 0xff];
  return ~r;
}

} // namespace cafka::protocol
