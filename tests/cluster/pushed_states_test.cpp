// Partition states pushed by the controller, applied to a broker's view ahead of its reload
// (cluster/pushed_states.hpp).
#include "cluster/pushed_states.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

namespace {

// "t": one partition on brokers 1, 2, 3, led by 1 at leader epoch 0, state version `version`.
cluster_view view_at(int32_t version, replica_list replicas = {1, 2, 3}) {
  cluster_view v;
  topic_entry t;
  t.assignment.partitions = {replicas};
  t.partitions = {partition_entry{partition_state{1, 0, 1, {1, 2, 3}}, version}};
  v.set_topic("t", t);
  return v;
}

// Broker 1 failed: broker 2 leads at epoch 1, written at version 1.
pushed_state failover() { return {"t", 0, partition_state{2, 1, 1, {2, 3}}, 1}; }

const partition_entry& entry(const cluster_view& v) { return v.topic("t")->partitions[0]; }

} // namespace

BOOST_AUTO_TEST_SUITE(pushed_states_suite)

BOOST_AUTO_TEST_CASE(a_newer_state_is_applied_an_older_or_equal_one_is_not) {
  pushed_states p;
  auto v = view_at(0);
  BOOST_TEST(p.push(v, {failover()}) == 1u);
  BOOST_TEST(entry(v).state.leader == 2);
  BOOST_TEST(entry(v).state_version == 1);
  auto newer = view_at(2);
  BOOST_TEST(p.push(newer, {failover()}) == 0u);
  BOOST_TEST(entry(newer).state.leader == 1);
}

BOOST_AUTO_TEST_CASE(unknown_topics_and_partitions_are_skipped) {
  pushed_states p;
  auto v = view_at(0);
  BOOST_TEST(p.push(v, {{"other", 0, partition_state{2, 1, 1, {2}}, 1}, {"t", 4, partition_state{2, 1, 1, {2}}, 1}})
             == 0u);
  BOOST_TEST(p.kept() == 0u);
}

BOOST_AUTO_TEST_CASE(a_load_older_than_the_push_gets_it_again_until_one_catches_up) {
  pushed_states p;
  auto v = view_at(0);
  p.push(v, {failover()});
  auto stale = view_at(0); // read before the write, finished after the push
  p.overlay(stale);
  BOOST_TEST(entry(stale).state.leader == 2);
  BOOST_TEST(entry(stale).state_version == 1);
  BOOST_TEST(p.kept() == 1u);
  auto caught_up = view_at(1);
  caught_up.set_partition_state("t", 0, partition_entry{failover().state, 1});
  p.overlay(caught_up);
  BOOST_TEST(p.kept() == 0u);
  auto later = view_at(0); // cannot happen once caught up; nothing is re-applied anyway
  p.overlay(later);
  BOOST_TEST(entry(later).state.leader == 1);
}

BOOST_AUTO_TEST_CASE(a_topic_gone_or_recreated_drops_what_was_pushed) {
  pushed_states p;
  auto v = view_at(0);
  p.push(v, {failover()});
  auto recreated = view_at(0, {3, 1, 2});
  p.overlay(recreated);
  BOOST_TEST(entry(recreated).state.leader == 1);
  BOOST_TEST(p.kept() == 0u);
  p.push(v = view_at(0), {failover()});
  cluster_view gone;
  p.overlay(gone);
  BOOST_TEST(p.kept() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
