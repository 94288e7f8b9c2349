// Kafka-style round-robin replica placement.
#include "cluster/replica_placement.hpp"

#include <map>

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
      placement_options opt{start, start * 3, 0};
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
  auto p = place_replicas(3, 1, {1, 2, 3}, {1, 0, 0});
  BOOST_TEST((*p == std::vector<replica_list>{{2}, {3}, {1}}));
}

BOOST_AUTO_TEST_CASE(adding_partitions_continues_the_pattern) {
  auto all = place_replicas(6, 2, {1, 2, 3});
  auto first = place_replicas(4, 2, {1, 2, 3});
  auto added = place_replicas(2, 2, {1, 2, 3}, {0, 0, 4});
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

BOOST_AUTO_TEST_SUITE_END()
