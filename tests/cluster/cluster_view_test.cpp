// cluster_view: the broker's metadata cache, its Metadata queries and leadership diffs.
#include "cluster/cluster_view.hpp"

#include <boost/test/unit_test.hpp>

#include <ostream>

using namespace cafka::cluster;

namespace cafka::cluster {
std::ostream& operator<<(std::ostream& os, const partition_leadership& l) {
  return os << l.topic << '-' << l.partition << '@' << l.leader_epoch;
}
} // namespace cafka::cluster

namespace {

broker_registration broker(int32_t id) {
  return {id, "127.0.0.1", static_cast<uint16_t>(9090 + id), static_cast<uint16_t>(9190 + id), ""};
}

partition_entry led_by(int32_t leader, int32_t epoch, std::vector<int32_t> isr) {
  return {partition_state{leader, epoch, 1, std::move(isr)}, 0};
}

// "orders": 3 partitions, replication factor 1, partition p on broker p (leader epoch 0).
cluster_view three_brokers() {
  cluster_view v;
  v.set_brokers({broker(2), broker(0), broker(1)});
  v.set_controller(controller_info{0, 1});
  topic_entry t;
  t.assignment.partitions = {{0}, {1}, {2}};
  t.partitions = {led_by(0, 0, {0}), led_by(1, 0, {1}), led_by(2, 0, {2})};
  v.set_topic("orders", t);
  return v;
}

using leaderships = std::vector<partition_leadership>;

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_view_suite)

BOOST_AUTO_TEST_CASE(brokers_are_listed_sorted_and_replaced_as_a_set) {
  auto v = three_brokers();
  auto bs = v.brokers();
  BOOST_REQUIRE(bs.size() == 3u);
  BOOST_TEST(bs[0].id == 0);
  BOOST_TEST(bs[2].id == 2);
  BOOST_TEST(bs[1].kafka_port == 9091);
  v.set_brokers({broker(5), broker(1)});
  BOOST_TEST(v.broker_ids() == (std::vector<int32_t>{1, 5}), boost::test_tools::per_element());
  BOOST_TEST(!v.is_live(0));
  BOOST_TEST(v.broker(5)->caf_port == 9195);
  BOOST_TEST(!v.broker(0));
  v.set_brokers({broker(no_broker)});
  BOOST_TEST(!v.is_live(no_broker));
}

BOOST_AUTO_TEST_CASE(controller_changes_and_can_be_absent) {
  auto v = three_brokers();
  BOOST_TEST(v.controller()->broker_id == 0);
  v.set_controller(controller_info{2, 7});
  BOOST_TEST(v.controller()->epoch == 7);
  v.set_controller(std::nullopt);
  BOOST_TEST(!v.controller());
}

BOOST_AUTO_TEST_CASE(metadata_reports_a_leader_only_while_it_is_live) {
  auto v = three_brokers();
  BOOST_TEST(v.live_leader("orders", 1) == 1);
  v.set_brokers({broker(0), broker(2)}); // broker 1 died; the controller has not acted yet
  BOOST_TEST(v.live_leader("orders", 1) == no_broker);
  auto parts = v.describe_topic("orders");
  BOOST_REQUIRE(parts);
  BOOST_REQUIRE(parts->size() == 3u);
  BOOST_TEST((*parts)[1].leader == no_broker);
  BOOST_TEST((*parts)[1].replicas == (replica_list{1}), boost::test_tools::per_element());
  BOOST_TEST((*parts)[2].leader == 2);
  BOOST_TEST(v.live_leader("orders", 3) == no_broker);
  BOOST_TEST(v.live_leader("orders", -1) == no_broker);
  BOOST_TEST(v.live_leader("nope", 0) == no_broker);
  BOOST_TEST(!v.describe_topic("nope"));
}

BOOST_AUTO_TEST_CASE(topics_are_added_replaced_and_removed) {
  auto v = three_brokers();
  topic_entry t;
  t.assignment.partitions = {{1}, {2}};
  v.set_topic("audit", t); // states not read yet: filled with absent ones
  BOOST_TEST(v.topic_names() == (std::vector<std::string>{"audit", "orders"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(v.topic("audit")->partitions.size() == 2u);
  BOOST_TEST(v.topic("audit")->partitions[1].state_version == no_state_version);
  BOOST_TEST(v.live_leader("audit", 0) == no_broker);
  t.assignment.partitions = {{1}};
  t.partitions = {led_by(1, 0, {1}), led_by(2, 0, {2})}; // the extra entry is dropped
  v.set_topic("audit", t);
  BOOST_TEST(v.topic("audit")->partitions.size() == 1u);
  BOOST_TEST(v.remove_topic("audit"));
  BOOST_TEST(!v.remove_topic("audit"));
  BOOST_TEST(!v.topic("audit"));
}

BOOST_AUTO_TEST_CASE(a_partition_state_is_replaced_in_place) {
  auto v = three_brokers();
  BOOST_TEST(v.set_partition_state("orders", 0, led_by(1, 1, {1, 0})));
  BOOST_TEST(v.live_leader("orders", 0) == 1);
  BOOST_TEST(v.topic("orders")->partitions[0].state.leader_epoch == 1);
  BOOST_TEST(!v.set_partition_state("orders", 3, led_by(1, 1, {1})));
  BOOST_TEST(!v.set_partition_state("orders", -1, led_by(1, 1, {1})));
  BOOST_TEST(!v.set_partition_state("nope", 0, led_by(1, 1, {1})));
}

BOOST_AUTO_TEST_CASE(partitions_led_by_follows_the_recorded_leader) {
  auto v = three_brokers();
  v.set_partition_state("orders", 2, led_by(1, 4, {1, 2}));
  BOOST_TEST(v.partitions_led_by(1) == (leaderships{{"orders", 1, 0}, {"orders", 2, 4}}),
             boost::test_tools::per_element());
  v.set_brokers({}); // even with no live broker (say, ZooKeeper is away) the record counts
  BOOST_TEST(v.partitions_led_by(1).size() == 2u);
  v.set_partition_state("orders", 0, led_by(no_broker, 1, {0}));
  BOOST_TEST(v.partitions_led_by(no_broker).empty());
}

BOOST_AUTO_TEST_CASE(leadership_changes_say_what_to_open_and_close) {
  auto before = three_brokers();
  auto after = before;
  after.set_partition_state("orders", 0, led_by(1, 1, {1}));         // 1 takes over 0
  after.set_partition_state("orders", 1, led_by(no_broker, 1, {1})); // 1 loses 1 (offline)
  auto change = leadership_changes(before, after, 1);
  BOOST_TEST(change.start == (leaderships{{"orders", 0, 1}}), boost::test_tools::per_element());
  BOOST_TEST(change.stop == (leaderships{{"orders", 1, 0}}), boost::test_tools::per_element());
  auto for_2 = leadership_changes(before, after, 2);
  BOOST_TEST(for_2.start.empty());
  BOOST_TEST(for_2.stop.empty());
}

BOOST_AUTO_TEST_CASE(a_new_epoch_of_my_own_partition_is_a_start_only) {
  auto before = three_brokers();
  auto after = before;
  after.set_partition_state("orders", 1, led_by(1, 2, {1})); // back after being offline
  auto change = leadership_changes(before, after, 1);
  BOOST_TEST(change.start == (leaderships{{"orders", 1, 2}}), boost::test_tools::per_element());
  BOOST_TEST(change.stop.empty());
  BOOST_TEST(leadership_changes(before, before, 1).start.empty());
}

BOOST_AUTO_TEST_CASE(new_and_removed_topics_start_and_stop_everything_they_hold) {
  cluster_view empty;
  auto full = three_brokers();
  auto up = leadership_changes(empty, full, 0);
  BOOST_TEST(up.start == (leaderships{{"orders", 0, 0}}), boost::test_tools::per_element());
  auto down = leadership_changes(full, empty, 2);
  BOOST_TEST(down.stop == (leaderships{{"orders", 2, 0}}), boost::test_tools::per_element());
  BOOST_TEST(down.start.empty());
}

BOOST_AUTO_TEST_SUITE_END()
