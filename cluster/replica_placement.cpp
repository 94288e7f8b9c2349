#include "cluster/replica_placement.hpp"

#include <algorithm>

#include "cluster/errc.hpp"

namespace cafka::cluster {
namespace {

int64_t floor_mod(int64_t a, int64_t n) {
  auto r = a % n;
  return r < 0 ? r + n : r;
}

} // namespace

result<std::vector<replica_list>> place_replicas(int32_t partitions, int32_t replication_factor,
                                                 std::vector<int32_t> live_brokers,
                                                 const placement_options& options) {
  std::sort(live_brokers.begin(), live_brokers.end());
  live_brokers.erase(std::unique(live_brokers.begin(), live_brokers.end()), live_brokers.end());
  if (partitions < 1)
    return errc::invalid_partitions;
  auto n = static_cast<int64_t>(live_brokers.size());
  if (replication_factor < 1 || replication_factor > n)
    return errc::invalid_replication_factor;
  auto start = floor_mod(options.start_index, n);
  int64_t partition = std::max<int64_t>(0, options.first_partition);
  std::vector<replica_list> out;
  out.reserve(static_cast<std::size_t>(partitions));
  for (int32_t i = 0; i < partitions; ++i, ++partition) {
    // Kafka bumps the shift each time the partition number passes a multiple of n; computing
    // it from the number keeps added partitions on the pattern of the first ones.
    auto shift = options.replica_shift + partition / n;
    auto first = floor_mod(partition + start, n);
    replica_list replicas{live_brokers[static_cast<std::size_t>(first)]};
    for (int64_t j = 0; j < replication_factor - 1; ++j) {
      auto distance = 1 + floor_mod(shift + j, n - 1);
      replicas.push_back(live_brokers[static_cast<std::size_t>((first + distance) % n)]);
    }
    out.push_back(std::move(replicas));
  }
  return out;
}

} // namespace cafka::cluster
