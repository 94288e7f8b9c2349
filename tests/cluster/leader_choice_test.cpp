// Leader choice for offline partitions.
#include "cluster/leader_choice.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(leader_choice)

BOOST_AUTO_TEST_CASE(preferred_leader_is_the_first_replica) {
  BOOST_TEST(preferred_leader({3, 1, 2}) == 3);
  BOOST_TEST(preferred_leader({}) == no_broker);
}

BOOST_AUTO_TEST_CASE(preferred_replica_wins_when_alive_and_in_sync) {
  BOOST_TEST(choose_leader({1, 2, 3}, {3, 2, 1}, {1, 2, 3}) == 1);
}

BOOST_AUTO_TEST_CASE(first_eligible_replica_in_assignment_order) {
  BOOST_TEST(choose_leader({1, 2, 3}, {1, 2, 3}, {2, 3}) == 2);   // 1 is dead
  BOOST_TEST(choose_leader({1, 2, 3}, {1, 3}, {2, 3}) == 3);      // 2 is out of sync
  BOOST_TEST(choose_leader({1, 2, 3}, {3, 2}, {1, 2, 3}) == 2);   // 1 out of sync
}

BOOST_AUTO_TEST_CASE(no_live_isr_member_means_no_leader) {
  BOOST_TEST(choose_leader({1, 2, 3}, {1}, {2, 3}) == no_broker);
  BOOST_TEST(choose_leader({1, 2, 3}, {}, {1, 2, 3}) == no_broker);
  BOOST_TEST(choose_leader({1, 2}, {1, 2}, {}) == no_broker);
  BOOST_TEST(choose_leader({}, {1}, {1}) == no_broker); // not a replica, not a leader
}

BOOST_AUTO_TEST_SUITE_END()
