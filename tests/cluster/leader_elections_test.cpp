// Preferred and unclean leader elections: the automatic rebalance with its imbalance
// threshold, and the elections an operator asks for.
#include "cluster/leader_elections.hpp"

#include <boost/test/unit_test.hpp>

#include <ostream>

#include "tests/cluster/view_builders.hpp"

using namespace cafka::cluster;

namespace cafka::cluster {
std::ostream& operator<<(std::ostream& os, election_refusal r) { return os << static_cast<int>(r); }
} // namespace cafka::cluster

namespace {

cluster_view brokers(std::vector<int32_t> ids) { return test::live_brokers(ids); }

void add(cluster_view& v, const std::string& name, std::vector<replica_list> replicas,
         std::vector<partition_state> states) {
  test::add_topic(v, name, std::move(replicas), states, 2);
}

const partition_state_write& write_of(const leader_election_decision& d) {
  BOOST_REQUIRE(std::holds_alternative<partition_state_write>(d));
  return std::get<partition_state_write>(d);
}

election_refusal refusal_of(const leader_election_decision& d) {
  BOOST_REQUIRE(std::holds_alternative<election_refusal>(d));
  return std::get<election_refusal>(d);
}

} // namespace

BOOST_AUTO_TEST_SUITE(leader_elections)

BOOST_AUTO_TEST_CASE(the_rebalance_moves_leadership_back_to_in_sync_preferred_replicas_above_the_threshold) {
  auto v = brokers({1, 2, 3});
  // Broker 1 is preferred for 4 partitions and leads one of them (75% elsewhere); broker 2
  // is preferred for 1 and leads it; partition 3's preferred replica is out of the ISR.
  add(v, "t", {{1, 2, 3}, {1, 2, 3}, {1, 3, 2}, {1, 2, 3}, {2, 1, 3}},
      {{1, 1, 1, {1, 2, 3}}, {2, 3, 1, {1, 2, 3}}, {3, 5, 1, {3, 2, 1}}, {2, 1, 1, {2, 3}}, {2, 1, 1, {2, 1, 3}}});
  auto w = preferred_leader_rebalance(v, {}, 10, 4);
  BOOST_REQUIRE_EQUAL(w.size(), 2u);
  BOOST_TEST(w[0].partition == 1);
  BOOST_TEST(w[0].state.leader == 1);
  BOOST_TEST(w[0].state.leader_epoch == 4);
  BOOST_TEST((w[0].state.isr == std::vector<int32_t>{1, 2, 3}));
  BOOST_TEST(w[0].state.controller_epoch == 4);
  BOOST_TEST(w[0].expected_version == 2);
  BOOST_TEST(w[1].partition == 2);
  BOOST_TEST(w[1].state.leader == 1);
  // At or below the threshold nothing moves; a broker in a controlled shutdown gets nothing.
  BOOST_TEST(preferred_leader_rebalance(v, {}, 75, 4).empty());
  BOOST_TEST(preferred_leader_rebalance(v, {1}, 10, 4).empty());
}

BOOST_AUTO_TEST_CASE(an_asked_preferred_election_says_why_it_does_nothing) {
  auto v = brokers({1, 2});
  add(v, "t", {{1, 2}, {2, 1}, {3, 1}}, {{2, 4, 1, {1, 2}}, {2, 0, 1, {2, 1}}, {1, 2, 1, {1, 3}}});
  auto w = write_of(elect_asked(v, "t", 0, election_type::preferred, {}, 1));
  BOOST_TEST(w.state.leader == 1);
  BOOST_TEST(w.state.leader_epoch == 5);
  BOOST_TEST(!w.unclean);
  BOOST_TEST(refusal_of(elect_asked(v, "t", 1, election_type::preferred, {}, 1))
             == election_refusal::election_not_needed);
  BOOST_TEST(refusal_of(elect_asked(v, "t", 2, election_type::preferred, {}, 1))
             == election_refusal::preferred_leader_not_available); // broker 3 is not live
  BOOST_TEST(refusal_of(elect_asked(v, "t", 0, election_type::preferred, {1}, 1))
             == election_refusal::preferred_leader_not_available); // leaving
  BOOST_TEST(refusal_of(elect_asked(v, "t", 3, election_type::preferred, {}, 1))
             == election_refusal::unknown_partition);
  BOOST_TEST(refusal_of(elect_asked(v, "u", 0, election_type::preferred, {}, 1))
             == election_refusal::unknown_partition);
}

BOOST_AUTO_TEST_CASE(an_unclean_election_only_for_a_partition_without_a_live_leader) {
  auto v = brokers({2, 3});
  add(v, "t", {{1, 2, 3}, {1, 3, 2}, {2, 3}, {1, 4}}, {{1, 3, 1, {1}}, {1, 3, 1, {1, 2}}, {2, 0, 1, {2, 3}}, {1, 0, 1, {1}}});
  auto unclean = write_of(elect_asked(v, "t", 0, election_type::unclean, {}, 1));
  BOOST_TEST(unclean.state.leader == 2); // the first live replica
  BOOST_TEST((unclean.state.isr == std::vector<int32_t>{2}));
  BOOST_TEST(unclean.state.leader_epoch == 4);
  BOOST_TEST(unclean.unclean);
  auto clean = write_of(elect_asked(v, "t", 1, election_type::unclean, {}, 1));
  BOOST_TEST(clean.state.leader == 2); // a live ISR member first
  BOOST_TEST(!clean.unclean);
  BOOST_TEST(refusal_of(elect_asked(v, "t", 2, election_type::unclean, {}, 1))
             == election_refusal::election_not_needed);
  BOOST_TEST(refusal_of(elect_asked(v, "t", 3, election_type::unclean, {}, 1))
             == election_refusal::eligible_leaders_not_available);
}

BOOST_AUTO_TEST_SUITE_END()
