// Leader choice for offline partitions: Kafka's Election.scala leaderForOffline /
// PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection (cluster/leader_choice.hpp).
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

BOOST_AUTO_TEST_CASE(elect_leader_prefers_a_clean_choice) {
  auto e = elect_leader({1, 2, 3}, {3, 2}, {1, 2, 3}, true);
  BOOST_TEST(e.leader == 2);
  BOOST_TEST(!e.unclean);
  e = elect_leader({1, 2, 3}, {1, 2, 3}, {1, 2, 3}, false);
  BOOST_TEST(e.leader == 1);
  BOOST_TEST(!e.unclean);
}

BOOST_AUTO_TEST_CASE(out_of_sync_replica_is_never_elected_cleanly) {
  // The Jepsen 2013 shape: the ISR shrank to the leader (1), which died; 2 and 3 are live but
  // out of sync. Without unclean election the partition stays offline.
  auto e = elect_leader({1, 2, 3}, {1}, {2, 3}, false);
  BOOST_TEST(e.leader == no_broker);
  BOOST_TEST(!e.unclean);
  // Unclean election takes the first live replica in assignment order, and says so.
  e = elect_leader({1, 3, 2}, {1}, {2, 3}, true);
  BOOST_TEST(e.leader == 3);
  BOOST_TEST(e.unclean);
  // While an ISR member is live, an out-of-sync replica is not chosen even with unclean
  // election enabled, although it comes first in assignment order.
  e = elect_leader({2, 3, 1}, {1}, {1, 2, 3}, true);
  BOOST_TEST(e.leader == 1);
  BOOST_TEST(!e.unclean);
}

BOOST_AUTO_TEST_CASE(unclean_election_needs_a_live_replica) {
  auto e = elect_leader({1, 2}, {1}, {3}, true); // 3 is live but not a replica
  BOOST_TEST(e.leader == no_broker);
  BOOST_TEST(!e.unclean);
  e = elect_leader({}, {}, {1}, true);
  BOOST_TEST(e.leader == no_broker);
}

BOOST_AUTO_TEST_SUITE_END()
