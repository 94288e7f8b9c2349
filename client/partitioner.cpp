#include "client/partitioner.hpp"

#include <cstring>

namespace cafka::client {

int32_t murmur2(std::string_view data) noexcept {
  // Java's int arithmetic wraps; uint32_t has the same bits without C++'s signed
  // overflow. `>>>` (unsigned shift) is a plain shift on uint32_t.
  constexpr uint32_t seed = 0x9747b28c;
  constexpr uint32_t m = 0x5bd1e995;
  constexpr int r = 24;
  auto length = static_cast<uint32_t>(data.size());
  uint32_t h = seed ^ length;
  auto bytes = reinterpret_cast<const unsigned char*>(data.data());
  uint32_t quads = length / 4;
  for (uint32_t i = 0; i < quads; ++i) {
    auto b = bytes + 4 * i;
    uint32_t k = uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  auto tail = bytes + 4 * quads;
  switch (length % 4) {
    case 3: h ^= uint32_t{tail[2]} << 16; [[fallthrough]];
    case 2: h ^= uint32_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      h ^= uint32_t{tail[0]};
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  int32_t out;
  std::memcpy(&out, &h, sizeof out);
  return out;
}

int32_t partition_for_key(std::string_view key, int32_t partitions) noexcept {
  return to_positive(murmur2(key)) % partitions;
}

sticky_partitioner::sticky_partitioner(uint64_t seed) : rng_(seed) {
}

int32_t sticky_partitioner::pick(int32_t partitions, int32_t avoid) {
  if (partitions <= 1)
    return 0;
  if (avoid < 0 || avoid >= partitions)
    return std::uniform_int_distribution<int32_t>{0, partitions - 1}(rng_);
  // Uniform over the other partitions.
  auto p = std::uniform_int_distribution<int32_t>{0, partitions - 2}(rng_);
  return p >= avoid ? p + 1 : p;
}

int32_t sticky_partitioner::partition(const std::string& topic, int32_t partitions) {
  auto it = current_.find(topic);
  if (it == current_.end() || it->second.partitions != partitions)
    it = current_.insert_or_assign(topic, choice{pick(partitions, -1), partitions}).first;
  return it->second.partition;
}

void sticky_partitioner::on_new_batch(const std::string& topic, int32_t previous, int32_t partitions) {
  auto it = current_.find(topic);
  if (it == current_.end() || it->second.partition != previous || it->second.partitions != partitions)
    return;
  it->second.partition = pick(partitions, previous);
}

} // namespace cafka::client
