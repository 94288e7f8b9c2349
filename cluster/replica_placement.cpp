#include "cluster/replica_placement.hpp"

#include <algorithm>
#include <set>

#include "cluster/errc.hpp"

namespace cafka::cluster {
namespace {

int64_t floor_mod(int64_t a, int64_t n) {
  auto r = a % n;
  return r < 0 ? r + n : r;
}

/// The rack of `id`, or "" when it has none.
std::string rack_of(const std::map<int32_t, std::string>& racks, int32_t id) {
  auto i = racks.find(id);
  return i == racks.end() ? std::string{} : i->second;
}

/// AdminUtils.getRackAlternatedBrokerList: brokers (sorted) grouped by rack, racks sorted by
/// name, then one broker of each rack in turn.
std::vector<int32_t> rack_alternated(const std::vector<int32_t>& brokers,
                                     const std::map<int32_t, std::string>& racks) {
  std::map<std::string, std::vector<int32_t>> by_rack;
  for (auto id : brokers)
    by_rack[rack_of(racks, id)].push_back(id);
  std::vector<int32_t> out;
  out.reserve(brokers.size());
  for (std::size_t round = 0; out.size() < brokers.size(); ++round)
    for (auto& [rack, ids] : by_rack)
      if (round < ids.size())
        out.push_back(ids[round]);
  return out;
}

// Kafka bumps the shift each time the partition number passes a multiple of n; computing it
// from the number keeps added partitions on the pattern of the first ones.

std::vector<replica_list> place_rack_unaware(int32_t partitions, int64_t rf,
                                             const std::vector<int32_t>& brokers,
                                             const placement_options& options) {
  auto n = static_cast<int64_t>(brokers.size());
  auto start = floor_mod(options.start_index, n);
  int64_t partition = std::max<int64_t>(0, options.first_partition);
  std::vector<replica_list> out;
  out.reserve(static_cast<std::size_t>(partitions));
  for (int32_t i = 0; i < partitions; ++i, ++partition) {
    auto shift = options.replica_shift + partition / n;
    auto first = floor_mod(partition + start, n);
    replica_list replicas{brokers[static_cast<std::size_t>(first)]};
    for (int64_t j = 0; j < rf - 1; ++j) {
      auto distance = 1 + floor_mod(shift + j, n - 1);
      replicas.push_back(brokers[static_cast<std::size_t>((first + distance) % n)]);
    }
    out.push_back(std::move(replicas));
  }
  return out;
}

std::vector<replica_list> place_rack_aware(int32_t partitions, int64_t rf,
                                           const std::vector<int32_t>& brokers,
                                           const std::map<int32_t, std::string>& racks,
                                           const placement_options& options) {
  auto arranged = rack_alternated(brokers, racks);
  auto n = static_cast<int64_t>(arranged.size());
  std::set<std::string> all_racks;
  for (auto id : arranged)
    all_racks.insert(rack_of(racks, id));
  auto num_racks = static_cast<int64_t>(all_racks.size());
  auto start = floor_mod(options.start_index, n);
  int64_t partition = std::max<int64_t>(0, options.first_partition);
  std::vector<replica_list> out;
  out.reserve(static_cast<std::size_t>(partitions));
  for (int32_t i = 0; i < partitions; ++i, ++partition) {
    auto shift = options.replica_shift + partition / n;
    auto first = floor_mod(partition + start, n);
    auto leader = arranged[static_cast<std::size_t>(first)];
    replica_list replicas{leader};
    std::set<std::string> racks_used{rack_of(racks, leader)};
    std::set<int32_t> brokers_used{leader};
    int64_t k = 0;
    for (int64_t j = 0; j < rf - 1; ++j) {
      // Terminates within n - 1 probes: some unused broker sits on a rack without a replica
      // (or every rack has one), since fewer than rf <= n brokers are used.
      for (;; ++k) {
        auto distance = 1 + floor_mod(shift * num_racks + k, n - 1);
        auto broker = arranged[static_cast<std::size_t>((first + distance) % n)];
        auto rack = rack_of(racks, broker);
        bool rack_ok = racks_used.count(rack) == 0
                       || static_cast<int64_t>(racks_used.size()) == num_racks;
        bool broker_ok = brokers_used.count(broker) == 0
                         || static_cast<int64_t>(brokers_used.size()) == n;
        if (rack_ok && broker_ok) {
          replicas.push_back(broker);
          racks_used.insert(rack);
          brokers_used.insert(broker);
          ++k;
          break;
        }
      }
    }
    out.push_back(std::move(replicas));
  }
  return out;
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
  auto with_rack = std::count_if(live_brokers.begin(), live_brokers.end(), [&](int32_t id) {
    return !rack_of(options.racks, id).empty();
  });
  if (with_rack == 0)
    return place_rack_unaware(partitions, replication_factor, live_brokers, options);
  if (with_rack < n)
    return errc::inconsistent_racks;
  return place_rack_aware(partitions, replication_factor, live_brokers, options.racks, options);
}

} // namespace cafka::cluster
