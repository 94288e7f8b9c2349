// Controlled shutdown's decisions: leaderships move to another live in-sync replica, the
// leaving broker leaves the ISRs, and what cannot move stays.
#include "cluster/controlled_shutdown.hpp"

#include <boost/test/unit_test.hpp>

#include "tests/cluster/view_builders.hpp"

using namespace cafka::cluster;

namespace {

cluster_view brokers(std::vector<int32_t> ids) { return test::live_brokers(ids); }

// One topic "t": partition p has replicas[p] and state states[p] (version 3, controller epoch 1).
void add(cluster_view& v, std::vector<replica_list> replicas, std::vector<partition_state> states) {
  test::add_topic(v, "t", std::move(replicas), states, 3);
}

cluster_view applied(cluster_view v, const std::vector<partition_state_write>& writes) {
  for (auto& w : writes)
    v.set_partition_state(w.topic, w.partition, {w.state, w.expected_version + 1});
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(controlled_shutdown)

BOOST_AUTO_TEST_CASE(leadership_moves_to_the_next_in_sync_replica_and_the_broker_leaves_the_isr) {
  auto v = brokers({1, 2, 3});
  add(v, {{1, 2, 3}, {3, 1, 2}}, {{1, 4, 1, {1, 2, 3}}, {3, 7, 1, {3, 1, 2}}});
  auto w = controlled_shutdown_writes(v, {1}, 2);
  BOOST_REQUIRE_EQUAL(w.size(), 2u);
  BOOST_TEST(w[0].partition == 0);
  BOOST_TEST(w[0].state.leader == 2);
  BOOST_TEST(w[0].state.leader_epoch == 5);
  BOOST_TEST(w[0].state.controller_epoch == 2);
  BOOST_TEST((w[0].state.isr == std::vector<int32_t>{2, 3}));
  BOOST_TEST(w[0].expected_version == 3);
  // Only followed there: out of the ISR, same leader and leader epoch.
  BOOST_TEST(w[1].state.leader == 3);
  BOOST_TEST(w[1].state.leader_epoch == 7);
  BOOST_TEST((w[1].state.isr == std::vector<int32_t>{3, 2}));
  BOOST_TEST(partitions_left_to_move(v, 1, 2) == 2);
  // Once written, nothing is left: the broker may stop.
  auto after = applied(v, w);
  BOOST_TEST(controlled_shutdown_writes(after, {1}, 2).empty());
  BOOST_TEST(partitions_left_to_move(after, 1, 2) == 0);
}

BOOST_AUTO_TEST_CASE(the_successor_is_live_in_sync_and_not_leaving_itself) {
  auto v = brokers({1, 3, 4}); // 2 is not live
  add(v, {{1, 2, 3, 4}}, {{1, 0, 1, {1, 2, 3, 4}}});
  auto w = controlled_shutdown_writes(v, {1, 3}, 1);
  BOOST_REQUIRE_EQUAL(w.size(), 1u);
  BOOST_TEST(w[0].state.leader == 4);
  BOOST_TEST((w[0].state.isr == std::vector<int32_t>{2, 4})); // liveness is on_brokers_changed's job
}

BOOST_AUTO_TEST_CASE(what_cannot_move_stays_and_is_not_counted) {
  auto v = brokers({1, 2, 3});
  // Replication factor 1; a replication factor 3 partition whose ISR is the leaver alone;
  // one whose only other in-sync replica is not live.
  add(v, {{1}, {1, 2, 3}, {1, 2}}, {{1, 0, 1, {1}}, {1, 0, 1, {1}}, {1, 0, 1, {1, 4}}});
  v.set_brokers({{1, "h", 1, 1, ""}, {2, "h", 1, 1, ""}});
  BOOST_TEST(controlled_shutdown_writes(v, {1}, 1).empty());
  BOOST_TEST(partitions_left_to_move(v, 1, 1) == 0);
}

BOOST_AUTO_TEST_CASE(partitions_of_a_newer_controller_or_without_a_state_are_left_alone) {
  auto v = brokers({1, 2});
  add(v, {{1, 2}, {1, 2}}, {{1, 0, 5, {1, 2}}, {1, 0, 1, {1, 2}}});
  v.set_partition_state("t", 1, {{1, 0, 1, {1, 2}}, no_state_version});
  BOOST_TEST(controlled_shutdown_writes(v, {1}, 4).empty());
  BOOST_TEST(controlled_shutdown_writes(v, {}, 4).empty());
}

BOOST_AUTO_TEST_SUITE_END()
