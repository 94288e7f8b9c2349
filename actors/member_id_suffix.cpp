#include "actors/member_id_suffix.hpp"

#include <cstdio>
#include <memory>
#include <mutex>
#include <random>

namespace cafka {

cluster::group_state::suffix_source make_member_id_suffixes() {
  std::random_device seed;
  return make_member_id_suffixes((static_cast<uint64_t>(seed()) << 32) ^ seed());
}

cluster::group_state::suffix_source make_member_id_suffixes(uint64_t seed) {
  auto gen = std::make_shared<std::mt19937_64>(seed);
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

std::function<uint64_t()> make_member_id_seeds(uint64_t node_seed) {
  if (node_seed == 0)
    return [] { return uint64_t{0}; };
  // Groups are spawned from whichever thread asks for them first: one lock per draw.
  struct shared_gen {
    std::mutex mtx;
    std::mt19937_64 gen;
  };
  auto g = std::make_shared<shared_gen>();
  g->gen.seed(node_seed);
  return [g] {
    std::lock_guard<std::mutex> guard{g->mtx};
    uint64_t s;
    do
      s = g->gen();
    while (s == 0); // 0 means "random"
    return s;
  };
}

} // namespace cafka
