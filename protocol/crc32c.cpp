#include "protocol/crc32c.hpp"

#include <array>

#include "protocol/endian.hpp"

#if defined(__x86_64__)
#include <nmmintrin.h>
#define CAFKA_CRC32C_X86 1
#endif

// Both implementations work on the "raw" CRC register, which is linear over GF(2): the
// public functions invert it on entry and exit (CRC-32C's pre- and post-conditioning),
// so crc32c(b, n2, crc32c(a, n1)) == crc32c(a ++ b).

namespace cafka::protocol {
namespace {

constexpr uint32_t castagnoli_reflected = 0x82F63B78;

// -- portable: slicing-by-8 ------------------------------------------------------------

// slice[k][b] is the raw CRC of byte b followed by k zero bytes. Looking up eight bytes
// in eight tables and XOR-ing the results advances the register by eight bytes at once.
struct slice_tables {
  uint32_t slice[8][256];
};

constexpr slice_tables make_slice_tables() {
  slice_tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t r = b;
    for (int bit = 0; bit < 8; ++bit) r = (r >> 1) ^ (castagnoli_reflected & (0u - (r & 1)));
    t.slice[0][b] = r;
  }
  for (int k = 1; k < 8; ++k)
    for (int b = 0; b < 256; ++b) {
      uint32_t prev = t.slice[k - 1][b];
      t.slice[k][b] = (prev >> 8) ^ t.slice[0][prev & 0xff];
    }
  return t;
}

constexpr slice_tables slices = make_slice_tables();

uint32_t portable_raw(uint32_t r, const unsigned char* p, size_t n) noexcept {
  const auto& t = slices.slice;
  for (; n >= 8; p += 8, n -= 8) {
    uint32_t lo = r ^ load_le<uint32_t>(p);
    uint32_t hi = load_le<uint32_t>(p + 4);
    r = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
        t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
  }
  for (; n > 0; ++p, --n) r = (r >> 8) ^ t[0][(r ^ *p) & 0xff];
  return r;
}

// -- hardware: SSE4.2 crc32 with three interleaved lanes ------------------------------

#if CAFKA_CRC32C_X86

// The crc32 instruction has a latency of 3 cycles but a throughput of 1 per cycle, so a
// single dependency chain runs at a third of the possible speed. We therefore split a
// stretch of 3*L bytes into three lanes, run three independent registers side by side
// and merge them afterwards, using that a raw CRC is linear:
//
//   raw(r, A ++ B) = shift_|B|(raw(r, A)) ^ raw(0, B)
//
// where shift_n(x) is the register after feeding n zero bytes starting from x. shift_n
// is a linear map on 32 bits, so it is four 256-entry tables, one per byte of x.
constexpr size_t long_lane = 2048;  // 6 KiB per round: most of a 16 KiB batch
constexpr size_t short_lane = 128;  // 384 B per round: keeps the 1-lane tail short

struct shift_table {
  uint32_t by_byte[4][256];
};

constexpr shift_table make_shift_table(size_t zero_bytes) {
  // Image of each of the 32 basis vectors, then all 256 combinations per input byte.
  uint32_t basis[32] = {};
  for (int bit = 0; bit < 32; ++bit) {
    uint32_t r = uint32_t{1} << bit;
    for (size_t i = 0; i < zero_bytes; ++i) r = (r >> 8) ^ slices.slice[0][r & 0xff];
    basis[bit] = r;
  }
  shift_table t{};
  for (int j = 0; j < 4; ++j)
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t v = 0;
      for (int bit = 0; bit < 8; ++bit)
        if (b & (1u << bit)) v ^= basis[8 * j + bit];
      t.by_byte[j][b] = v;
    }
  return t;
}

constexpr shift_table shift_long = make_shift_table(long_lane);
constexpr shift_table shift_short = make_shift_table(short_lane);

inline uint32_t shift(const shift_table& t, uint32_t x) noexcept {
  return t.by_byte[0][x & 0xff] ^ t.by_byte[1][(x >> 8) & 0xff] ^
         t.by_byte[2][(x >> 16) & 0xff] ^ t.by_byte[3][x >> 24];
}

// Runs whole rounds of three lanes of `lane` bytes each while at least 3*lane bytes are
// left; advances p and n past what it consumed.
template <size_t lane>
__attribute__((target("sse4.2"), always_inline)) inline uint64_t
three_lanes(uint64_t r, const unsigned char*& p, size_t& n, const shift_table& t) noexcept {
  while (n >= 3 * lane) {
    uint64_t r1 = 0, r2 = 0;
    for (const unsigned char* end = p + lane; p < end; p += 8) {
      r = _mm_crc32_u64(r, load_le<uint64_t>(p));
      r1 = _mm_crc32_u64(r1, load_le<uint64_t>(p + lane));
      r2 = _mm_crc32_u64(r2, load_le<uint64_t>(p + 2 * lane));
    }
    r = shift(t, static_cast<uint32_t>(r)) ^ r1;
    r = shift(t, static_cast<uint32_t>(r)) ^ r2;
    p += 2 * lane;
    n -= 3 * lane;
  }
  return r;
}

__attribute__((target("sse4.2"))) uint32_t hardware_raw(uint32_t crc, const unsigned char* p,
                                                        size_t n) noexcept {
  uint64_t r = crc;
  // Align to 8 so the 64-bit loads of the lanes never straddle a cache line.
  for (; n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0; ++p, --n)
    r = _mm_crc32_u8(static_cast<uint32_t>(r), *p);
  r = three_lanes<long_lane>(r, p, n, shift_long);
  r = three_lanes<short_lane>(r, p, n, shift_short);
  for (; n >= 8; p += 8, n -= 8) r = _mm_crc32_u64(r, load_le<uint64_t>(p));
  for (; n > 0; ++p, --n) r = _mm_crc32_u8(static_cast<uint32_t>(r), *p);
  return static_cast<uint32_t>(r);
}

#endif // CAFKA_CRC32C_X86

using crc_fn = uint32_t (*)(const void*, size_t, uint32_t) noexcept;

} // namespace

uint32_t crc32c_portable(const void* data, size_t n, uint32_t crc) noexcept {
  return ~portable_raw(~crc, static_cast<const unsigned char*>(data), n);
}

uint32_t crc32c_hardware(const void* data, size_t n, uint32_t crc) noexcept {
#if CAFKA_CRC32C_X86
  return ~hardware_raw(~crc, static_cast<const unsigned char*>(data), n);
#else
  return crc32c_portable(data, n, crc); // no hardware path on this architecture
#endif
}

bool crc32c_hardware_available() noexcept {
#if CAFKA_CRC32C_X86
  static const bool available = [] {
    __builtin_cpu_init(); // needed if we run before the constructors that call it
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return available;
#else
  return false;
#endif
}

uint32_t crc32c(const void* data, size_t n, uint32_t crc) noexcept {
  // Decided once; afterwards one guarded load and an indirect call per buffer.
  static const crc_fn impl = crc32c_hardware_available() ? crc32c_hardware : crc32c_portable;
  return impl(data, n, crc);
}

} // namespace cafka::protocol
