// Partition reassignment: a start adds the target replicas beside the old ones, completion
// waits for every target replica in the ISR and writes the state before the assignment, a
// cancel brings the original replicas back.
#include "cluster/reassignment.hpp"

#include <boost/test/unit_test.hpp>

#include "tests/cluster/view_builders.hpp"

using namespace cafka::cluster;
using cafka::protocol::kafka_error;

namespace {

// Topic "t": partition 0 on 1,2 (leader 1, both in sync), partition 1 on 2,3; brokers 1-4 live.
cluster_view two_partitions() {
  auto v = test::live_brokers({1, 2, 3, 4});
  test::add_topic(v, "t", {{1, 2}, {2, 3}}, {{1, 3, 1, {1, 2}}, {2, 0, 1, {2, 3}}}, 5);
  return v;
}

// `v` after `writes`: assignments replaced, states replaced (version + 1).
cluster_view applied(cluster_view v, const std::vector<partition_state_write>& states,
                     const std::vector<assignment_write>& assignments) {
  for (auto& w : states)
    v.set_partition_state(w.topic, w.partition, {w.state, w.expected_version + 1});
  for (auto& w : assignments) {
    auto entry = *v.topic(w.topic);
    entry.assignment = w.assignment;
    entry.assignment_version = w.expected_version + 1;
    v.set_topic(w.topic, entry);
  }
  return v;
}

void set_isr(cluster_view& v, int32_t partition, std::vector<int32_t> isr) {
  auto entry = v.topic("t")->partitions.at(static_cast<size_t>(partition));
  entry.state.isr = std::move(isr);
  v.set_partition_state("t", partition, entry);
}

} // namespace

BOOST_AUTO_TEST_SUITE(reassignments)

BOOST_AUTO_TEST_CASE(a_start_adds_the_target_replicas_beside_the_old_ones) {
  auto v = two_partitions();
  auto plan = plan_reassignments(v, {{"t", 0, replica_list{3, 4}}}, 2);
  BOOST_REQUIRE_EQUAL(plan.outcomes.size(), 1u);
  BOOST_TEST((plan.outcomes[0].error == kafka_error::none));
  BOOST_TEST(plan.states.empty()); // the leader and ISR stay until the new replicas caught up
  BOOST_REQUIRE_EQUAL(plan.assignments.size(), 1u);
  auto& a = plan.assignments[0];
  BOOST_TEST(a.topic == "t");
  BOOST_TEST(a.expected_version == v.topic("t")->assignment_version);
  BOOST_TEST((a.assignment.partitions[0] == replica_list{3, 4, 1, 2}));
  BOOST_TEST((a.assignment.adding.at(0) == replica_list{3, 4}));
  BOOST_TEST((a.assignment.removing.at(0) == replica_list{1, 2}));
  BOOST_TEST((a.assignment.partitions[1] == replica_list{2, 3})); // untouched
  auto moving = reassignments_in_progress(applied(v, plan.states, plan.assignments));
  BOOST_REQUIRE_EQUAL(moving.size(), 1u);
  BOOST_TEST((moving[0].replicas == replica_list{3, 4, 1, 2}));
  BOOST_TEST((moving[0].adding == replica_list{3, 4}));
}

BOOST_AUTO_TEST_CASE(completion_waits_for_every_target_replica_in_sync_then_moves_leadership) {
  auto v = two_partitions();
  auto start = plan_reassignments(v, {{"t", 0, replica_list{3, 1}}}, 2);
  v = applied(v, start.states, start.assignments);
  BOOST_TEST((v.topic("t")->assignment.partitions[0] == replica_list{3, 1, 2}));
  // Broker 3 not in sync yet: nothing.
  auto early = complete_reassignments(v, 2);
  BOOST_TEST(early.states.empty());
  BOOST_TEST(early.assignments.empty());
  set_isr(v, 0, {1, 2, 3});
  auto done = complete_reassignments(v, 2);
  // Leader 1 stays (it is a target replica); broker 2 leaves the ISR.
  BOOST_REQUIRE_EQUAL(done.states.size(), 1u);
  BOOST_TEST(done.states[0].state.leader == 1);
  BOOST_TEST(done.states[0].state.leader_epoch == 3);
  BOOST_TEST((done.states[0].state.isr == std::vector<int32_t>{1, 3}));
  BOOST_REQUIRE_EQUAL(done.assignments.size(), 1u);
  BOOST_TEST((done.assignments[0].assignment.partitions[0] == replica_list{3, 1}));
  BOOST_TEST(done.assignments[0].assignment.adding.empty());
  BOOST_TEST(done.assignments[0].assignment.removing.empty());
  BOOST_TEST(reassignments_in_progress(applied(v, done.states, done.assignments)).empty());
}

BOOST_AUTO_TEST_CASE(a_leader_that_is_moved_away_hands_over_to_an_in_sync_target_replica) {
  auto v = two_partitions();
  auto start = plan_reassignments(v, {{"t", 0, replica_list{4, 3}}}, 2);
  v = applied(v, start.states, start.assignments);
  set_isr(v, 0, {1, 2, 4});
  BOOST_TEST(complete_reassignments(v, 2).states.empty()); // 3 is still behind
  set_isr(v, 0, {1, 2, 4, 3});
  auto done = complete_reassignments(v, 2);
  BOOST_REQUIRE_EQUAL(done.states.size(), 1u);
  BOOST_TEST(done.states[0].state.leader == 4); // the first target replica in sync
  BOOST_TEST(done.states[0].state.leader_epoch == 4);
  BOOST_TEST((done.states[0].state.isr == std::vector<int32_t>{4, 3}));
  BOOST_TEST((done.assignments.at(0).assignment.partitions[0] == replica_list{4, 3}));
}

BOOST_AUTO_TEST_CASE(a_cancel_brings_the_original_replicas_back) {
  auto v = two_partitions();
  auto start = plan_reassignments(v, {{"t", 1, replica_list{4}}}, 2);
  v = applied(v, start.states, start.assignments);
  set_isr(v, 1, {2, 3, 4});
  // (The reassignment would complete now; a cancel first wins.)
  auto cancel = plan_reassignments(v, {{"t", 1, std::nullopt}}, 2);
  BOOST_TEST((cancel.outcomes.at(0).error == kafka_error::none));
  BOOST_REQUIRE_EQUAL(cancel.states.size(), 1u); // 4 leaves the ISR
  BOOST_TEST(cancel.states[0].state.leader == 2);
  BOOST_TEST((cancel.states[0].state.isr == std::vector<int32_t>{2, 3}));
  BOOST_REQUIRE_EQUAL(cancel.assignments.size(), 1u);
  BOOST_TEST((cancel.assignments[0].assignment.partitions[1] == replica_list{2, 3}));
  BOOST_TEST(cancel.assignments[0].assignment.adding.empty());
  // Nothing is being moved any more: a second cancel is refused.
  v = applied(v, cancel.states, cancel.assignments);
  auto again = plan_reassignments(v, {{"t", 1, std::nullopt}}, 2);
  BOOST_TEST((again.outcomes.at(0).error == kafka_error::no_reassignment_in_progress));
  BOOST_TEST(again.assignments.empty());
}

BOOST_AUTO_TEST_CASE(a_new_target_replaces_the_old_one_and_keeps_the_original_replicas) {
  auto v = two_partitions();
  auto first = plan_reassignments(v, {{"t", 0, replica_list{3, 4}}}, 2);
  v = applied(v, first.states, first.assignments);
  auto second = plan_reassignments(v, {{"t", 0, replica_list{2, 4}}}, 2);
  auto& a = second.assignments.at(0).assignment;
  BOOST_TEST((a.partitions[0] == replica_list{2, 4, 1}));
  BOOST_TEST((a.adding.at(0) == replica_list{4}));
  BOOST_TEST((a.removing.at(0) == replica_list{1}));
  // Asking for the original replicas ends it as a cancel: broker 4, caught up, leaves the ISR.
  v = applied(v, second.states, second.assignments);
  set_isr(v, 0, {1, 2, 4});
  auto back = plan_reassignments(v, {{"t", 0, replica_list{1, 2}}}, 2);
  BOOST_REQUIRE_EQUAL(back.states.size(), 1u);
  BOOST_TEST((back.states[0].state.isr == std::vector<int32_t>{1, 2}));
  BOOST_TEST(back.states[0].state.leader == 1);
  BOOST_TEST((back.assignments.at(0).assignment.partitions[0] == replica_list{1, 2}));
  BOOST_TEST(back.assignments.at(0).assignment.adding.empty());
}

BOOST_AUTO_TEST_CASE(bad_asks_are_refused_one_by_one) {
  auto v = two_partitions();
  auto plan = plan_reassignments(v,
                                 {{"t", 0, replica_list{}},
                                  {"t", 0, replica_list{3, 3}},
                                  {"t", 0, replica_list{3, 9}},
                                  {"t", 7, replica_list{1}},
                                  {"nope", 0, replica_list{1}},
                                  {"t", 1, replica_list{3, 4}}},
                                 2);
  BOOST_REQUIRE_EQUAL(plan.outcomes.size(), 6u);
  for (int i = 0; i < 3; ++i)
    BOOST_TEST((plan.outcomes[i].error == kafka_error::invalid_replica_assignment), plan.outcomes[i].message);
  BOOST_TEST((plan.outcomes[3].error == kafka_error::unknown_topic_or_partition));
  BOOST_TEST((plan.outcomes[4].error == kafka_error::unknown_topic_or_partition));
  BOOST_TEST((plan.outcomes[5].error == kafka_error::none));
  BOOST_REQUIRE_EQUAL(plan.assignments.size(), 1u); // only partition 1 moves
  BOOST_TEST((plan.assignments[0].assignment.partitions[0] == replica_list{1, 2}));
  BOOST_TEST((plan.assignments[0].assignment.partitions[1] == replica_list{3, 4, 2}));
}

BOOST_AUTO_TEST_SUITE_END()
