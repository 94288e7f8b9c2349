#include "actors/member_id_suffix.hpp"

#include <cstdio>
#include <memory>
#include <random>

namespace cafka {

cluster::group_state::suffix_source make_member_id_suffixes() {
  std::random_device seed;
  auto gen = std::make_shared<std::mt19937_64>((static_cast<uint64_t>(seed()) << 32) ^ seed());
  return [gen] {
    auto hi = (*gen)();
    auto lo = (*gen)();
    hi = (hi & ~0xf000ULL) | 0x4000ULL;                       // version 4
    lo = (lo & ~(0xc0ULL << 56)) | (0x80ULL << 56);           // RFC 4122 variant
    char text[37];
    std::snprintf(text, sizeof text, "%08llx-%04llx-%04llx-%04llx-%012llx",
                  static_cast<unsigned long long>(hi >> 32),
                  static_cast<unsigned long long>((hi >> 16) & 0xffff),
                  static_cast<unsigned long long>(hi & 0xffff),
                  static_cast<unsigned long long>(lo >> 48),
                  static_cast<unsigned long long>(lo & 0xffffffffffffULL));
    return std::string(text);
  };
}

} // namespace cafka
