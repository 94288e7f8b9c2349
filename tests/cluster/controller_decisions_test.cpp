// The controller's decisions: placing new topics, re-electing leaders when brokers come and
// go, and fencing writes of deposed controllers.
#include "cluster/controller_decisions.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <ostream>

#include "cluster/errc.hpp"
#include "tests/cluster/view_builders.hpp"

using namespace cafka;
using namespace cafka::cluster;

namespace cafka::cluster {
std::ostream& operator<<(std::ostream& os, const partition_state_write& w) {
  os << w.topic << '-' << w.partition << " leader=" << w.state.leader << " epoch="
     << w.state.leader_epoch << " ctl=" << w.state.controller_epoch << " isr=";
  for (auto id : w.state.isr)
    os << id << ',';
  return os << " v" << w.expected_version;
}
} // namespace cafka::cluster

namespace {

cluster_view with_brokers(std::vector<int32_t> ids) { return test::live_brokers(ids); }

// Adds a topic as the controller at `epoch` would have published it (state version 0).
void add_topic(cluster_view& v, const std::string& name, const new_topic& t) {
  topic_entry e;
  e.assignment = t.assignment;
  for (auto& st : t.partition_states)
    e.partitions.push_back({st, 0});
  v.set_topic(name, e);
}

new_topic placed(const cluster_view& v, int32_t partitions, int32_t rf, int32_t epoch = 1) {
  auto t = place_new_topic(v, "t", partitions, rf, epoch);
  BOOST_REQUIRE_MESSAGE(t, t.error().message());
  return *t;
}

// The view after applying the writes (as the loader would read them back).
cluster_view applied(cluster_view v, const std::vector<partition_state_write>& writes) {
  for (auto& w : writes)
    v.set_partition_state(w.topic, w.partition, {w.state, w.expected_version + 1});
  return v;
}

using writes = std::vector<partition_state_write>;

} // namespace

BOOST_AUTO_TEST_SUITE(controller_decisions)

BOOST_AUTO_TEST_CASE(a_new_topic_is_spread_evenly_and_led_by_preferred_replicas) {
  auto v = with_brokers({0, 1, 2});
  auto t = placed(v, 6, 2, 3);
  BOOST_REQUIRE(t.assignment.partitions.size() == 6u);
  BOOST_REQUIRE(t.partition_states.size() == 6u);
  std::map<int32_t, int> leaders;
  for (size_t p = 0; p < 6; ++p) {
    auto& r = t.assignment.partitions[p];
    auto& st = t.partition_states[p];
    BOOST_TEST(r.size() == 2u);
    BOOST_TEST(st.leader == r.front());
    BOOST_TEST(st.isr == r, boost::test_tools::per_element());
    BOOST_TEST(st.leader_epoch == 0);
    BOOST_TEST(st.controller_epoch == 3);
    ++leaders[st.leader];
  }
  BOOST_TEST(leaders == (std::map<int32_t, int>{{0, 2}, {1, 2}, {2, 2}}));
}

BOOST_AUTO_TEST_CASE(bad_topic_requests_are_clear_errors) {
  auto v = with_brokers({0, 1});
  BOOST_TEST((place_new_topic(v, "t", 3, 3, 1).error() == errc::invalid_replication_factor));
  BOOST_TEST((place_new_topic(v, "t", 3, 0, 1).error() == errc::invalid_replication_factor));
  BOOST_TEST((place_new_topic(v, "t", 0, 1, 1).error() == errc::invalid_partitions));
  BOOST_TEST((place_new_topic(with_brokers({}), "t", 1, 1, 1).error()
              == errc::invalid_replication_factor));
  add_topic(v, "t", placed(v, 1, 1));
  BOOST_TEST((place_new_topic(v, "t", 1, 1, 1).error() == errc::node_exists));
}

BOOST_AUTO_TEST_CASE(nothing_changes_nothing_is_written) {
  auto v = with_brokers({0, 1, 2});
  add_topic(v, "t", placed(v, 6, 3));
  BOOST_TEST(on_brokers_changed(v, {0, 1, 2}, 1).empty());
  BOOST_TEST(on_brokers_changed(v, {0, 1, 2, 3}, 1).empty()); // a new broker leads nothing yet
}

BOOST_AUTO_TEST_CASE(a_dead_leader_is_replaced_from_the_live_isr) {
  auto v = with_brokers({0, 1, 2});
  add_topic(v, "t", placed(v, 3, 3));
  // Partition p is led by broker p; its followers follow in placement order.
  auto w = on_brokers_changed(v, {1, 2}, 2);
  // Partition 0 gets a new leader; partitions 1 and 2 only drop 0 from their ISR.
  BOOST_REQUIRE(w.size() == 3u);
  BOOST_TEST(w[0].partition == 0);
  BOOST_TEST(w[0].state.leader != 0);
  BOOST_TEST(w[0].state.leader != no_broker);
  BOOST_TEST(w[0].state.leader_epoch == 1);
  BOOST_TEST(w[0].state.controller_epoch == 2);
  BOOST_TEST(w[0].expected_version == 0);
  for (auto& x : w)
    BOOST_TEST(std::count(x.state.isr.begin(), x.state.isr.end(), 0) == 0);
  BOOST_TEST(w[1].state.leader == 1);
  BOOST_TEST(w[1].state.leader_epoch == 0); // ISR-only change
  BOOST_TEST(w[2].state.leader == 2);
  // Applied, the same broker set asks for nothing more.
  BOOST_TEST(on_brokers_changed(applied(v, w), {1, 2}, 2).empty());
}

BOOST_AUTO_TEST_CASE(replication_factor_one_goes_offline_and_comes_back) {
  auto v = with_brokers({0, 1, 2});
  add_topic(v, "t", placed(v, 6, 1));
  auto down = on_brokers_changed(v, {0, 2}, 1);
  BOOST_REQUIRE(down.size() == 2u); // broker 1 led two partitions
  for (auto& w : down) {
    BOOST_TEST(w.state.leader == no_broker);
    BOOST_TEST(w.state.isr == std::vector<int32_t>{1}, boost::test_tools::per_element());
    BOOST_TEST(w.state.leader_epoch == 1);
  }
  auto offline = applied(v, down);
  BOOST_TEST(offline.live_leader("t", down[0].partition) == no_broker);
  BOOST_TEST(on_brokers_changed(offline, {0, 2}, 1).empty()); // stays offline, no rewrite
  auto up = on_brokers_changed(offline, {0, 1, 2}, 1);
  BOOST_REQUIRE(up.size() == 2u);
  for (auto& w : up) {
    BOOST_TEST(w.state.leader == 1);
    BOOST_TEST(w.state.leader_epoch == 2);
    BOOST_TEST(w.expected_version == 1);
  }
}

BOOST_AUTO_TEST_CASE(a_dead_follower_returning_does_not_rejoin_the_isr_by_itself) {
  // Joining the ISR needs the leader to see the follower caught up (replication, later).
  auto v = with_brokers({0, 1});
  add_topic(v, "t", placed(v, 1, 2));
  auto leader = v.topic("t")->partitions[0].state.leader;
  auto follower = leader == 0 ? 1 : 0;
  auto shrunk = applied(v, on_brokers_changed(v, {leader}, 1));
  BOOST_TEST(shrunk.topic("t")->partitions[0].state.isr == std::vector<int32_t>{leader},
             boost::test_tools::per_element());
  BOOST_TEST(on_brokers_changed(shrunk, {0, 1}, 1).empty());
  // The leader dies now: the follower is out of sync, so the partition goes offline.
  auto w = on_brokers_changed(shrunk, {follower}, 1);
  BOOST_REQUIRE(w.size() == 1u);
  BOOST_TEST(w[0].state.leader == no_broker);
}

BOOST_AUTO_TEST_CASE(a_deposed_controller_writes_nothing_over_a_newer_one) {
  auto v = with_brokers({0, 1});
  add_topic(v, "t", placed(v, 2, 1, /*epoch=*/5));
  BOOST_TEST(on_brokers_changed(v, {0}, 4).empty());
  BOOST_TEST(on_brokers_changed(v, {0}, 5).size() == 1u);
  BOOST_TEST(on_brokers_changed(v, {0}, 6).size() == 1u);
}

BOOST_AUTO_TEST_CASE(partitions_without_a_read_state_are_left_alone) {
  auto v = with_brokers({0, 1});
  topic_entry e;
  e.assignment.partitions = {{0}, {1}};
  v.set_topic("t", e);
  BOOST_TEST(on_brokers_changed(v, {1}, 1).empty());
}

BOOST_AUTO_TEST_CASE(writes_from_older_controllers_are_fenced) {
  partition_state stored{1, 3, 5, {1}};
  BOOST_TEST(should_apply_partition_state(std::nullopt, partition_state{1, 0, 1, {1}}));
  BOOST_TEST(!should_apply_partition_state(stored, partition_state{2, 4, 4, {2}}));
  BOOST_TEST(should_apply_partition_state(stored, partition_state{2, 4, 5, {2}}));
  BOOST_TEST(should_apply_partition_state(stored, partition_state{2, 4, 6, {2}}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(manual_assignment)

BOOST_AUTO_TEST_CASE(a_manual_assignment_is_taken_as_given) {
  cluster_view v;
  v.set_brokers({{1, "h", 1, 1, ""}, {2, "h", 2, 2, ""}, {3, "h", 3, 3, ""}});
  auto t = assign_new_topic(v, "t", {{2, 3}, {3, 1}}, 4);
  BOOST_REQUIRE(t);
  BOOST_TEST((t->assignment.partitions == std::vector<replica_list>{{2, 3}, {3, 1}}));
  BOOST_TEST((t->partition_states[1] == partition_state{3, 0, 4, {3, 1}}));
}

BOOST_AUTO_TEST_CASE(a_bad_manual_assignment_is_refused) {
  cluster_view v;
  v.set_brokers({{1, "h", 1, 1, ""}, {2, "h", 2, 2, ""}});
  BOOST_TEST((assign_new_topic(v, "t", {}, 1).error() == errc::invalid_replica_assignment));
  BOOST_TEST((assign_new_topic(v, "t", {{1, 1}}, 1).error() == errc::invalid_replica_assignment));
  BOOST_TEST((assign_new_topic(v, "t", {{1, 2}, {1}}, 1).error() == errc::invalid_replica_assignment));
  BOOST_TEST((assign_new_topic(v, "t", {{1, 3}}, 1).error() == errc::invalid_replica_assignment)); // 3 is not live
  BOOST_TEST((assign_new_topic(v, "t", {{}}, 1).error() == errc::invalid_replica_assignment));
}

BOOST_AUTO_TEST_SUITE_END()
