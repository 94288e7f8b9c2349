// Controller election decisions.
#include "cluster/controller_election.hpp"

#include <limits>

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

namespace {

constexpr int32_t me = 2;
constexpr session_id my_session = 77;

controller_node node(int32_t broker, int32_t epoch, session_id owner) {
  return {{broker, epoch}, owner};
}

} // namespace

BOOST_AUTO_TEST_SUITE(controller_election)

BOOST_AUTO_TEST_CASE(first_election_claims_epoch_one) {
  auto d = decide_election(std::nullopt, std::nullopt, me, my_session);
  BOOST_TEST((d.role == election_role::campaign));
  BOOST_TEST(d.controller_id == me);
  BOOST_TEST(d.epoch == 1);
}

BOOST_AUTO_TEST_CASE(vacant_controller_claims_the_next_epoch) {
  auto d = decide_election(std::nullopt, 6, me, my_session);
  BOOST_TEST((d.role == election_role::campaign));
  BOOST_TEST(d.epoch == 7);
}

BOOST_AUTO_TEST_CASE(another_controller_is_followed) {
  auto d = decide_election(node(5, 6, 1234), 6, me, my_session);
  BOOST_TEST((d.role == election_role::follow));
  BOOST_TEST(d.controller_id == 5);
  BOOST_TEST(d.epoch == 6);
}

BOOST_AUTO_TEST_CASE(my_node_from_this_session_means_lead) {
  // E.g. the create succeeded but its reply was lost to a connection loss.
  auto d = decide_election(node(me, 7, my_session), 6, me, my_session);
  BOOST_TEST((d.role == election_role::lead));
  BOOST_TEST(d.epoch == 7);
}

BOOST_AUTO_TEST_CASE(my_node_from_an_older_session_means_wait) {
  auto d = decide_election(node(me, 7, my_session - 1), 7, me, my_session);
  BOOST_TEST((d.role == election_role::wait));
  BOOST_TEST(d.controller_id == me);
}

BOOST_AUTO_TEST_CASE(epoch_saturates_instead_of_overflowing) {
  auto max = std::numeric_limits<int32_t>::max();
  BOOST_TEST(decide_election(std::nullopt, max, me, my_session).epoch == max);
  BOOST_TEST(decide_election(std::nullopt, -3, me, my_session).epoch == 1);
}

BOOST_AUTO_TEST_CASE(stale_epochs_are_fenced) {
  BOOST_TEST(is_stale_controller_epoch(4, 5));
  BOOST_TEST(!is_stale_controller_epoch(5, 5));
  BOOST_TEST(!is_stale_controller_epoch(6, 5));
}

BOOST_AUTO_TEST_SUITE_END()
