// group_registry's answer to "who coordinates this group" in cluster mode, without an actor
// system: served here, being taken over here (COORDINATOR_LOAD_IN_PROGRESS to clients), or
// elsewhere (NOT_COORDINATOR).
#include "actors/group_registry.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>
#include <vector>

namespace {

using cafka::group_registry;
using coordination = group_registry::coordination;

// Every group in partition 0 of __consumer_offsets, led by broker `leader`.
std::unique_ptr<group_registry> cluster_registry(int32_t leader) {
  auto r = std::make_unique<group_registry>([](const std::string&) { return cafka::group_actor{}; });
  r->coordinate_by_partition(
    [leader](const std::string&) {
      cafka::cluster::group_coordinator_location where;
      where.partition = 0;
      where.coordinator = leader;
      return where;
    },
    [] { return std::vector<std::string>{}; });
  return r;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_registries)

BOOST_AUTO_TEST_CASE(a_single_node_coordinates_every_group) {
  group_registry r{[](const std::string&) { return cafka::group_actor{}; }};
  BOOST_TEST((r.coordination_of("g", 1) == coordination::here));
}

BOOST_AUTO_TEST_CASE(the_leader_of_the_offsets_partition_loads_then_coordinates) {
  auto r = cluster_registry(1);
  BOOST_TEST((r->coordination_of("g", 1) == coordination::loading)); // not served yet
  BOOST_TEST((r->coordination_of("g", 2) == coordination::elsewhere));
  r->serve_partition(0);
  BOOST_TEST((r->coordination_of("g", 1) == coordination::here));
  r->release_partition(0);
  BOOST_TEST((r->coordination_of("g", 1) == coordination::loading));
}

BOOST_AUTO_TEST_CASE(without_the_offsets_topic_nobody_coordinates) {
  group_registry r{[](const std::string&) { return cafka::group_actor{}; }};
  r.coordinate_by_partition([](const std::string&) { return cafka::cluster::group_coordinator_location{}; },
                            [] { return std::vector<std::string>{}; });
  BOOST_TEST((r.coordination_of("g", 1) == coordination::elsewhere));
}

BOOST_AUTO_TEST_SUITE_END()
