// locate_group_coordinator: a group's coordinator is the live leader of its partition of
// __consumer_offsets, computed over the topic's partition count in the view.
#include "cluster/group_coordinator_location.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "cluster/offsets_partition.hpp"

using namespace cafka::cluster;

namespace {

broker_registration broker(int32_t id) {
  return {id, "127.0.0.1", static_cast<uint16_t>(9090 + id), static_cast<uint16_t>(9190 + id), ""};
}

// __consumer_offsets with `n` partitions, partition p led by broker p % 3.
cluster_view with_offsets_topic(int32_t n) {
  cluster_view v;
  v.set_brokers({broker(0), broker(1), broker(2)});
  topic_entry t;
  for (int32_t p = 0; p < n; ++p) {
    t.assignment.partitions.push_back({p % 3});
    t.partitions.push_back({partition_state{p % 3, 0, 1, {p % 3}}, 0});
  }
  v.set_topic("__consumer_offsets", t);
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_coordinator_location_suite)

BOOST_AUTO_TEST_CASE(without_the_offsets_topic_there_is_no_coordinator) {
  cluster_view v;
  v.set_brokers({broker(0)});
  auto where = locate_group_coordinator(v, "g");
  BOOST_TEST(!where.topic_exists());
  BOOST_TEST(!where.available());
  BOOST_TEST(where.coordinator == no_broker);
}

BOOST_AUTO_TEST_CASE(the_coordinator_leads_the_groups_partition) {
  auto v = with_offsets_topic(7);
  for (std::string group : {"a", "billing", "consumers-of-orders", ""}) {
    auto where = locate_group_coordinator(v, group);
    auto p = offsets_partition_for(group, 7);
    BOOST_TEST(where.partition == p);
    BOOST_TEST(where.coordinator == p % 3);
    BOOST_REQUIRE(where.available());
    BOOST_TEST(where.broker->kafka_port == 9090 + p % 3);
  }
}

BOOST_AUTO_TEST_CASE(a_dead_leader_leaves_the_group_without_coordinator) {
  auto v = with_offsets_topic(7);
  auto p = offsets_partition_for("billing", 7);
  std::vector<broker_registration> live;
  for (int32_t id = 0; id < 3; ++id)
    if (id != p % 3)
      live.push_back(broker(id));
  v.set_brokers(live);
  auto where = locate_group_coordinator(v, "billing");
  BOOST_TEST(where.topic_exists());
  BOOST_TEST(where.partition == p);
  BOOST_TEST(!where.available());
  BOOST_TEST(where.coordinator == no_broker);
}

BOOST_AUTO_TEST_SUITE_END()
