#include "storage/offset_map.hpp"

#include <algorithm>
#include <cstring>

namespace cafka::storage {
namespace {

uint64_t rotl(uint64_t x, int r) noexcept { return (x << r) | (x >> (64 - r)); }

uint64_t fmix(uint64_t k) noexcept {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

uint64_t load_le(const char* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, sizeof v); // x86-64 and aarch64 Linux are little-endian
  return v;
}

} // namespace

// Austin Appleby's MurmurHash3_x64_128 (public domain), seed 0.
key_hash hash_key(std::string_view key) noexcept {
  const char* data = key.data();
  const size_t len = key.size();
  const size_t blocks = len / 16;
  uint64_t h1 = 0, h2 = 0;
  const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = load_le(data + i * 16), k2 = load_le(data + i * 16 + 8);
    k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
    h1 = rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
    k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
    h2 = rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
  }
  const auto* tail = reinterpret_cast<const unsigned char*>(data + blocks * 16);
  uint64_t k1 = 0, k2 = 0;
  switch (len & 15) {
    case 15: k2 ^= uint64_t{tail[14]} << 48; [[fallthrough]];
    case 14: k2 ^= uint64_t{tail[13]} << 40; [[fallthrough]];
    case 13: k2 ^= uint64_t{tail[12]} << 32; [[fallthrough]];
    case 12: k2 ^= uint64_t{tail[11]} << 24; [[fallthrough]];
    case 11: k2 ^= uint64_t{tail[10]} << 16; [[fallthrough]];
    case 10: k2 ^= uint64_t{tail[9]} << 8; [[fallthrough]];
    case 9: k2 ^= uint64_t{tail[8]}; k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2; [[fallthrough]];
    case 8: k1 ^= uint64_t{tail[7]} << 56; [[fallthrough]];
    case 7: k1 ^= uint64_t{tail[6]} << 48; [[fallthrough]];
    case 6: k1 ^= uint64_t{tail[5]} << 40; [[fallthrough]];
    case 5: k1 ^= uint64_t{tail[4]} << 32; [[fallthrough]];
    case 4: k1 ^= uint64_t{tail[3]} << 24; [[fallthrough]];
    case 3: k1 ^= uint64_t{tail[2]} << 16; [[fallthrough]];
    case 2: k1 ^= uint64_t{tail[1]} << 8; [[fallthrough]];
    case 1: k1 ^= uint64_t{tail[0]}; k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1; break;
    default: break;
  }
  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

offset_map::offset_map(size_t memory_bytes, double load_factor)
  : slots_(std::max<size_t>(1, memory_bytes / sizeof(slot))) {
  capacity_ = std::clamp<size_t>(static_cast<size_t>(static_cast<double>(slots_.size()) * load_factor), 1,
                                 slots_.size());
}

// The slot holding `h`, else the first empty slot on its probe path; slots() when every slot
// holds another key.
size_t offset_map::find(const key_hash& h) const noexcept {
  auto n = slots_.size();
  auto i = static_cast<size_t>(h.low % n);
  for (size_t probes = 0; probes < n; ++probes, i = i + 1 == n ? 0 : i + 1) {
    auto& s = slots_[i];
    if (s.offset < 0 || s.hash == h)
      return i;
  }
  return n;
}

bool offset_map::put(std::string_view key, int64_t offset) noexcept {
  auto h = hash_key(key);
  auto i = find(h);
  if (i < slots_.size() && slots_[i].offset >= 0) {
    slots_[i].offset = offset;
    return true;
  }
  if (full() || i == slots_.size())
    return false;
  slots_[i] = slot{h, offset};
  ++size_;
  return true;
}

int64_t offset_map::get(std::string_view key) const noexcept {
  auto i = find(hash_key(key));
  return i < slots_.size() ? slots_[i].offset : -1;
}

void offset_map::clear() noexcept {
  std::fill(slots_.begin(), slots_.end(), slot{});
  size_ = 0;
}

} // namespace cafka::storage
