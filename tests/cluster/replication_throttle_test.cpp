// Replication quotas (cluster/replication_throttle.hpp): which partitions a broker throttles
// on each side, and that only out-of-sync replicas are held back, only while over the rate.
#include <boost/test/unit_test.hpp>

#include "cluster/replication_throttle.hpp"

using namespace cafka::cluster;

namespace {

cluster_view view_with(const std::map<std::string, std::string>& configs) {
  cluster_view v;
  topic_entry t;
  t.assignment.partitions = {{1, 2}, {2, 3}, {3, 1}};
  t.partitions.resize(3);
  t.partitions[0].state.isr = {1, 2};
  t.partitions[1].state.isr = {2};
  t.partitions[2].state.isr = {3, 1};
  t.config.entries = configs;
  v.set_topic("t", t);
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(replication_throttle_suite)

BOOST_AUTO_TEST_CASE(a_broker_throttles_the_partitions_listed_with_its_id) {
  BOOST_TEST((throttled_partitions("0:1,1:2, 2:1", 1, 3) == std::set<int32_t>{0, 2}));
  BOOST_TEST((throttled_partitions("*", 7, 3) == std::set<int32_t>{0, 1, 2}));
  BOOST_TEST((throttled_partitions("5:1,x:1,0", 1, 3).empty())); // out of range or malformed
  auto plan = plan_throttles(view_with({{"leader.replication.throttled.replicas", "0:2,1:2"},
                                        {"follower.replication.throttled.replicas", "1:3"}}),
                             2, 100, 200);
  BOOST_TEST(plan.leader_rate == 100);
  BOOST_TEST((plan.leader_throttled == std::set<topic_partition>{{"t", 0}, {"t", 1}}));
  BOOST_TEST(plan.follower_throttled.empty());
  BOOST_TEST((plan.isr.at({"t", 1}) == std::vector<int32_t>{2}));
}

BOOST_AUTO_TEST_CASE(only_out_of_sync_replicas_are_held_back_and_only_over_the_rate) {
  replication_throttle throttle{11, 1000};
  auto plan = plan_throttles(view_with({{"leader.replication.throttled.replicas", "*"},
                                        {"follower.replication.throttled.replicas", "*"}}),
                             2, 1000, 1000);
  throttle.replace(plan);
  topic_partition p1{"t", 1};
  int64_t now = 1'000'000;
  BOOST_TEST(!throttle.leader_holds_back(p1, 3, now)); // nothing sent yet
  throttle.record_leader(p1, 3, 50'000, now);          // 50 kB over >= 10 s: 5 kB/s > 1 kB/s
  BOOST_TEST(throttle.leader_holds_back(p1, 3, now));
  BOOST_TEST(!throttle.leader_holds_back(p1, 2, now));          // in the ISR
  BOOST_TEST(!throttle.leader_holds_back({"u", 0}, 3, now));    // not throttled
  BOOST_TEST(!throttle.leader_holds_back(p1, 3, now + 30'000)); // the samples expired
  // In-sync replicas' bytes do not count; the follower side has its own rate.
  throttle.record_follower(p1, 2, 50'000, now);
  BOOST_TEST(!throttle.follower_holds_back(p1, 3, now));
  throttle.record_follower(p1, 3, 50'000, now);
  BOOST_TEST(throttle.follower_holds_back(p1, 3, now));
  // Unlimited rates never hold back.
  plan.leader_rate = plan.follower_rate = unthrottled;
  throttle.replace(plan);
  BOOST_TEST(!throttle.leader_holds_back(p1, 3, now));
}

BOOST_AUTO_TEST_CASE(a_reassignment_throttles_the_current_replicas_as_leaders_and_the_new_ones_as_followers) {
  auto lists = throttle_lists({{0, {1, 2}, {2, 3}}, {1, {3, 1}, {3, 1}}, {2, {1}, {4, 1}}});
  BOOST_TEST(lists.leader == "0:1,0:2,2:1");
  BOOST_TEST(lists.follower == "0:3,2:4");
}

BOOST_AUTO_TEST_SUITE_END()
