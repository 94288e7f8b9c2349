// Metadata of a clustered node from its cluster view, and the routing table's answer for a
// partition it does not serve — without an actor system.
#include <boost/test/unit_test.hpp>

#include "actors/routing_table.hpp"
#include "actors/view_metadata.hpp"

using namespace cafka;
using protocol::kafka_error;

namespace {

// Brokers 1..3; topic "t": p0 led by 1, p1 led by 2 (not live), p2 led by 3 (this broker).
cluster::cluster_view sample_view() {
  cluster::cluster_view v;
  v.set_brokers({{1, "h1", 9091, 9191, ""}, {3, "h3", 9093, 9193, ""}});
  v.set_controller(cluster::controller_info{1, 4});
  cluster::topic_entry t;
  t.assignment.partitions = {{1}, {2}, {3}};
  for (int32_t leader : {1, 2, 3})
    t.partitions.push_back(cluster::partition_entry{cluster::partition_state{leader, 0, 4, {leader}}, 0});
  v.set_topic("t", t);
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(view_metadata)

BOOST_AUTO_TEST_CASE(lists_live_brokers_and_leaders_and_flags_missing_leaders) {
  auto v = sample_view();
  std::map<topic_partition, partition_actor> served; // p2 not opened yet
  auto md = metadata_from_view(v, 3, served, {}, true);
  BOOST_TEST(md.controller_id == 1);
  BOOST_REQUIRE_EQUAL(md.brokers.size(), 2u);
  BOOST_TEST(md.brokers[1].host == "h3");
  BOOST_TEST(md.brokers[1].kafka_port == 9093);
  BOOST_TEST(md.brokers[1].caf_port == 9193);
  BOOST_REQUIRE_EQUAL(md.topics.size(), 1u);
  auto& ps = md.topics[0].partitions;
  BOOST_REQUIRE_EQUAL(ps.size(), 3u);
  BOOST_TEST(ps[0].error == 0);
  BOOST_TEST(ps[0].leader == 1);
  BOOST_TEST(ps[1].error == protocol::wire_code(kafka_error::leader_not_available)); // 2 is not live
  BOOST_TEST(ps[1].leader == -1);
  BOOST_TEST(ps[2].error == protocol::wire_code(kafka_error::leader_not_available)); // mine, not open
  auto unknown = metadata_from_view(v, 3, served, {"nope"}, false);
  BOOST_TEST(unknown.topics.at(0).error == protocol::wire_code(kafka_error::unknown_topic_or_partition));
}

BOOST_AUTO_TEST_CASE(a_partition_led_elsewhere_is_not_leader_or_follower) {
  auto v = sample_view();
  std::map<topic_partition, partition_actor> served{{topic_partition{"t", 2}, partition_actor{}}};
  auto elsewhere = partitions_elsewhere(v, served);
  BOOST_TEST(elsewhere.size() == 2u);
  routing_table routes;
  routes.publish(served, elsewhere);
  BOOST_TEST((routes.miss_error(topic_partition{"t", 0}) == kafka_error::not_leader_or_follower));
  BOOST_TEST((routes.miss_error(topic_partition{"t", 1}) == kafka_error::not_leader_or_follower));
  BOOST_TEST((routes.miss_error(topic_partition{"t", 7}) == kafka_error::unknown_topic_or_partition));
  routes.publish(served); // a single node knows nothing elsewhere
  BOOST_TEST((routes.miss_error(topic_partition{"t", 0}) == kafka_error::unknown_topic_or_partition));
}

BOOST_AUTO_TEST_SUITE_END()
