// More partitions for a topic: the count must grow, new partitions continue the placement or
// take a valid manual assignment, and start led by their preferred replica.
#include "cluster/partition_addition.hpp"

#include <boost/test/unit_test.hpp>

#include "cluster/replica_placement.hpp"
#include "tests/cluster/view_builders.hpp"

using namespace cafka::cluster;
using cafka::protocol::kafka_error;

namespace {

// Topic "t" with 3 partitions x RF 2 over brokers 1-3, as place_replicas put them.
cluster_view three_partitions() {
  auto v = test::live_brokers({1, 2, 3});
  test::add_topic(v, "t", {{1, 2}, {2, 3}, {3, 1}},
                  {{1, 0, 1, {1, 2}}, {2, 0, 1, {2, 3}}, {3, 0, 1, {3, 1}}}, 0);
  return v;
}

const partition_addition& addition_of(const partition_addition_plan& plan) {
  if (auto* refusal = std::get_if<addition_refusal>(&plan))
    BOOST_FAIL("refused: " << refusal->message);
  return std::get<partition_addition>(plan);
}

const addition_refusal& refusal_of(const partition_addition_plan& plan) { // `plan` must outlive the reference
  BOOST_REQUIRE(std::holds_alternative<addition_refusal>(plan));
  return std::get<addition_refusal>(plan);
}

} // namespace

BOOST_AUTO_TEST_SUITE(partition_addition_plans)

BOOST_AUTO_TEST_CASE(new_partitions_continue_the_round_robin_and_start_led_by_their_first_replica) {
  auto v = three_partitions();
  auto plan = plan_partition_addition(v, "t", 6, {}, 4);
  auto& a = addition_of(plan);
  BOOST_TEST(a.first == 3);
  BOOST_REQUIRE_EQUAL(a.assignment.partitions.size(), 6u);
  // The old partitions are kept as they are.
  BOOST_TEST((a.assignment.partitions[0] == replica_list{1, 2}));
  BOOST_TEST((a.assignment.partitions[2] == replica_list{3, 1}));
  auto expected = place_replicas(6, 2, {1, 2, 3});
  BOOST_REQUIRE(expected);
  for (size_t p = 3; p < 6; ++p)
    BOOST_TEST(a.assignment.partitions[p] == (*expected)[p], "partition " << p);
  BOOST_REQUIRE_EQUAL(a.new_states.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    auto& replicas = a.assignment.partitions[3 + i];
    BOOST_TEST(a.new_states[i].leader == replicas.front());
    BOOST_TEST(a.new_states[i].leader_epoch == 0);
    BOOST_TEST(a.new_states[i].controller_epoch == 4);
    BOOST_TEST(a.new_states[i].isr == replicas);
  }
}

BOOST_AUTO_TEST_CASE(a_manual_assignment_is_taken_when_it_names_live_brokers_once_each) {
  auto v = three_partitions();
  auto plan = plan_partition_addition(v, "t", 5, {{2, 1}, {3, 2}}, 1);
  auto& a = addition_of(plan);
  BOOST_TEST((a.assignment.partitions[3] == replica_list{2, 1}));
  BOOST_TEST((a.assignment.partitions[4] == replica_list{3, 2}));
  BOOST_TEST(a.new_states[0].leader == 2);
  BOOST_TEST(a.new_states[1].leader == 3);
}

BOOST_AUTO_TEST_CASE(the_count_must_grow) {
  auto v = three_partitions();
  auto lower_plan = plan_partition_addition(v, "t", 2, {}, 1);
  auto& lower = refusal_of(lower_plan);
  BOOST_TEST((lower.error == kafka_error::invalid_partitions));
  BOOST_TEST(lower.message == "Topic currently has 3 partitions, which is higher than the requested 2.");
  auto same_plan = plan_partition_addition(v, "t", 3, {}, 1);
  auto& same = refusal_of(same_plan);
  BOOST_TEST((same.error == kafka_error::invalid_partitions));
  BOOST_TEST(same.message == "Topic currently has 3 partitions, which is equal to the requested 3.");
}

BOOST_AUTO_TEST_CASE(unknown_and_internal_topics_and_bad_assignments_are_refused) {
  auto v = three_partitions();
  BOOST_TEST((refusal_of(plan_partition_addition(v, "nope", 4, {}, 1)).error == kafka_error::unknown_topic_or_partition));
  test::add_topic(v, "__consumer_offsets", {{1}}, {{1, 0, 1, {1}}}, 0);
  BOOST_TEST((refusal_of(plan_partition_addition(v, "__consumer_offsets", 2, {}, 1)).error == kafka_error::invalid_request));
  for (auto bad : std::vector<std::vector<replica_list>>{
         {{1, 2}},         // one list for two new partitions
         {{1, 2}, {3, 3}}, // a broker twice
         {{1, 2}, {3}},    // another replication factor
         {{1, 2}, {3, 9}}, // a broker that is not live
       }) {
    auto plan = plan_partition_addition(v, "t", 5, bad, 1);
    auto& r = refusal_of(plan);
    BOOST_TEST((r.error == kafka_error::invalid_replica_assignment), r.message);
  }
}

BOOST_AUTO_TEST_CASE(the_replication_factor_must_fit_the_live_brokers) {
  auto v = test::live_brokers({1, 2});
  test::add_topic(v, "t", {{1, 2, 3}}, {{1, 0, 1, {1, 2, 3}}}, 0);
  BOOST_TEST((refusal_of(plan_partition_addition(v, "t", 2, {}, 1)).error == kafka_error::invalid_replication_factor));
}

BOOST_AUTO_TEST_SUITE_END()
