// Kafka-style replica placement: AdminUtils.scala assignReplicasToBrokersRackUnaware and
// assignReplicasToBrokersRackAware (cluster/replica_placement.hpp).
#include "cluster/replica_placement.hpp"

#include <map>
#include <set>
#include <string>

#include <boost/test/unit_test.hpp>

#include "cluster/errc.hpp"

using namespace cafka::cluster;

namespace {

struct tally {
  std::map<int32_t, int> leaders;
  std::map<int32_t, int> replicas;
};

tally count(const std::vector<replica_list>& placement) {
  tally t;
  for (auto& r : placement) {
    ++t.leaders[r.front()];
    for (auto id : r)
      ++t.replicas[id];
  }
  return t;
}

std::map<int32_t, std::string> six_on_three_racks() {
  return {{1, "a"}, {2, "a"}, {3, "b"}, {4, "b"}, {5, "c"}, {6, "c"}};
}

placement_options with_racks(std::map<int32_t, std::string> racks, int32_t start = 0,
                             int32_t shift = 0, int32_t first = 0) {
  placement_options o{start, shift, first, {}};
  o.racks = std::move(racks);
  return o;
}

bool distinct(replica_list r) {
  std::sort(r.begin(), r.end());
  return std::adjacent_find(r.begin(), r.end()) == r.end();
}

} // namespace

BOOST_AUTO_TEST_SUITE(replica_placement)

BOOST_AUTO_TEST_CASE(six_partitions_rf3_over_three_brokers) {
  auto p = place_replicas(6, 3, {1, 2, 3});
  BOOST_REQUIRE(p.has_value());
  BOOST_TEST((*p == std::vector<replica_list>{
                      {1, 2, 3}, {2, 3, 1}, {3, 1, 2}, {1, 3, 2}, {2, 1, 3}, {3, 2, 1}}));
  auto t = count(*p);
  for (int32_t b : {1, 2, 3}) {
    BOOST_TEST(t.leaders[b] == 2);
    BOOST_TEST(t.replicas[b] == 6);
  }
}

BOOST_AUTO_TEST_CASE(brokers_are_sorted_and_deduplicated) {
  BOOST_TEST((*place_replicas(6, 3, {3, 1, 2, 1}) == *place_replicas(6, 3, {1, 2, 3})));
}

BOOST_AUTO_TEST_CASE(spreads_evenly_for_many_shapes) {
  std::vector<int32_t> brokers{10, 20, 30, 40, 50};
  for (int32_t rf = 1; rf <= 5; ++rf) {
    for (int32_t start = -2; start < 7; ++start) {
      placement_options opt{start, start * 3, 0, {}};
      auto p = place_replicas(20, rf, brokers, opt);
      BOOST_REQUIRE(p.has_value());
      BOOST_TEST(p->size() == 20u);
      auto t = count(*p);
      for (auto b : brokers) {
        BOOST_TEST(t.leaders[b] == 4);
        BOOST_TEST(t.replicas[b] == 4 * rf);
      }
      for (auto& r : *p) {
        BOOST_TEST(r.size() == std::size_t(rf));
        BOOST_TEST(distinct(r));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(start_index_rotates_the_leaders) {
  auto p = place_replicas(3, 1, {1, 2, 3}, {1, 0, 0, {}});
  BOOST_TEST((*p == std::vector<replica_list>{{2}, {3}, {1}}));
}

BOOST_AUTO_TEST_CASE(adding_partitions_continues_the_pattern) {
  auto all = place_replicas(6, 2, {1, 2, 3});
  auto first = place_replicas(4, 2, {1, 2, 3});
  auto added = place_replicas(2, 2, {1, 2, 3}, {0, 0, 4, {}});
  BOOST_REQUIRE(added.has_value());
  auto joined = *first;
  joined.insert(joined.end(), added->begin(), added->end());
  BOOST_TEST((joined == *all));
}

BOOST_AUTO_TEST_CASE(errors) {
  BOOST_TEST(place_replicas(3, 4, {1, 2, 3}).error() == errc::invalid_replication_factor);
  BOOST_TEST(place_replicas(3, 2, {1, 1}).error() == errc::invalid_replication_factor);
  BOOST_TEST(place_replicas(3, 1, {}).error() == errc::invalid_replication_factor);
  BOOST_TEST(place_replicas(3, 0, {1, 2}).error() == errc::invalid_replication_factor);
  BOOST_TEST(place_replicas(3, -1, {1, 2}).error() == errc::invalid_replication_factor);
  BOOST_TEST(place_replicas(0, 1, {1, 2}).error() == errc::invalid_partitions);
  BOOST_TEST(place_replicas(-5, 1, {1, 2}).error() == errc::invalid_partitions);
}

BOOST_AUTO_TEST_CASE(single_broker) {
  BOOST_TEST((*place_replicas(2, 1, {7}) == std::vector<replica_list>{{7}, {7}}));
}

BOOST_AUTO_TEST_CASE(rack_aware_six_brokers_three_racks) {
  auto racks = six_on_three_racks();
  for (int32_t start = 0; start < 6; ++start) {
    for (int32_t shift = 0; shift < 3; ++shift) {
      auto p = place_replicas(12, 3, {1, 2, 3, 4, 5, 6}, with_racks(racks, start, shift));
      BOOST_REQUIRE(p.has_value());
      auto t = count(*p);
      for (int32_t b = 1; b <= 6; ++b) {
        BOOST_TEST(t.leaders[b] == 2);
        BOOST_TEST(t.replicas[b] == 6);
      }
      for (auto& r : *p) {
        BOOST_REQUIRE(r.size() == 3u);
        std::set<std::string> on{racks[r[0]], racks[r[1]], racks[r[2]]};
        BOOST_TEST(on.size() == 3u); // one replica per rack
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(rack_aware_matches_kafkas_documented_example) {
  // AdminUtils.scala's doc comment: 0 -> rack1, 1 -> rack3, 2 -> rack3, 3 -> rack2, 4 -> rack2,
  // 5 -> rack1 arranges as 0, 3, 1, 5, 4, 2; partition 6 shifts the followers.
  std::map<int32_t, std::string> racks{{0, "rack1"}, {1, "rack3"}, {2, "rack3"},
                                       {3, "rack2"}, {4, "rack2"}, {5, "rack1"}};
  auto p = place_replicas(7, 3, {0, 1, 2, 3, 4, 5}, with_racks(racks));
  BOOST_REQUIRE(p.has_value());
  BOOST_TEST((*p == std::vector<replica_list>{
                      {0, 3, 1}, {3, 1, 5}, {1, 5, 4}, {5, 4, 2}, {4, 2, 0}, {2, 0, 3}, {0, 4, 2}}));
}

BOOST_AUTO_TEST_CASE(rack_aware_more_replicas_than_racks) {
  // RF 3 over 2 racks: every rack has a replica, no broker twice.
  std::map<int32_t, std::string> racks{{1, "x"}, {2, "x"}, {3, "y"}, {4, "y"}};
  auto p = place_replicas(8, 3, {1, 2, 3, 4}, with_racks(racks));
  BOOST_REQUIRE(p.has_value());
  auto t = count(*p);
  for (int32_t b = 1; b <= 4; ++b)
    BOOST_TEST(t.leaders[b] == 2);
  for (auto& r : *p) {
    BOOST_TEST(distinct(r));
    std::set<std::string> on;
    for (auto id : r)
      on.insert(racks[id]);
    BOOST_TEST(on.size() == 2u);
  }
}

BOOST_AUTO_TEST_CASE(rack_aware_uneven_racks_and_adding_partitions) {
  std::map<int32_t, std::string> racks{{1, "a"}, {2, "a"}, {3, "a"}, {4, "b"}, {5, "c"}};
  auto all = place_replicas(10, 2, {1, 2, 3, 4, 5}, with_racks(racks));
  BOOST_REQUIRE(all.has_value());
  for (auto& r : *all)
    BOOST_TEST(racks[r[0]] != racks[r[1]]);
  auto first = place_replicas(7, 2, {1, 2, 3, 4, 5}, with_racks(racks));
  auto added = place_replicas(3, 2, {1, 2, 3, 4, 5}, with_racks(racks, 0, 0, 7));
  BOOST_REQUIRE(added.has_value());
  auto joined = *first;
  joined.insert(joined.end(), added->begin(), added->end());
  BOOST_TEST((joined == *all));
}

BOOST_AUTO_TEST_CASE(mixed_racks_are_refused) {
  auto racks = six_on_three_racks();
  racks.erase(6);
  auto p = place_replicas(6, 3, {1, 2, 3, 4, 5, 6}, with_racks(racks));
  BOOST_TEST(p.error() == errc::inconsistent_racks);
  BOOST_TEST(p.error().message()
             == "not all brokers have rack information for replica rack aware assignment");
  racks[6] = ""; // an empty rack is no rack
  BOOST_TEST(place_replicas(6, 3, {1, 2, 3, 4, 5, 6}, with_racks(racks)).error()
             == errc::inconsistent_racks);
  // Argument errors come first, as in Kafka.
  BOOST_TEST(place_replicas(0, 3, {1, 2, 3, 4, 5, 6}, with_racks(racks)).error()
             == errc::invalid_partitions);
  BOOST_TEST(place_replicas(6, 7, {1, 2, 3, 4, 5, 6}, with_racks(racks)).error()
             == errc::invalid_replication_factor);
}

BOOST_AUTO_TEST_CASE(no_rack_on_any_live_broker_is_rack_unaware) {
  // Racks of brokers that are not live, and empty racks, do not count.
  std::map<int32_t, std::string> racks{{1, ""}, {9, "a"}};
  BOOST_TEST((*place_replicas(6, 3, {1, 2, 3}, with_racks(racks)) == *place_replicas(6, 3, {1, 2, 3})));
  // Only the live brokers need racks.
  auto p = place_replicas(6, 3, {1, 3, 5}, with_racks(six_on_three_racks()));
  BOOST_REQUIRE(p.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
