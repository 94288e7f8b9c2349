// coordinator_hint (client/coordinator_hop.hpp): which broker to ask after a node's answer
// to group_coordinator_atom. Pure logic, no actor system.
#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/coordinator_hop.hpp"

using namespace cafka;
using namespace cafka::client;

BOOST_AUTO_TEST_SUITE(coordinator_hop)

BOOST_AUTO_TEST_CASE(not_coordinator_names_the_broker_to_ask) {
  auto err = caf::make_error(kafka_error::not_coordinator, int32_t{3}, std::string{"broker 1 does not coordinate"});
  BOOST_TEST(coordinator_hint(err).value_or(-1) == 3);
  BOOST_TEST(coordinator_hint(err, 1).value_or(-1) == 3);
}

BOOST_AUTO_TEST_CASE(no_hop_to_the_broker_that_answered) {
  // It is taking the group over: asking it again now would give the same answer.
  auto err = caf::make_error(kafka_error::not_coordinator, int32_t{2}, std::string{"taking over"});
  BOOST_TEST(!coordinator_hint(err, 2));
}

BOOST_AUTO_TEST_CASE(no_hop_without_a_broker_id) {
  BOOST_TEST(!coordinator_hint(caf::make_error(kafka_error::not_coordinator, "the node is shutting down")));
  BOOST_TEST(!coordinator_hint(caf::make_error(kafka_error::not_coordinator)));
  BOOST_TEST(!coordinator_hint(caf::make_error(kafka_error::not_coordinator, int32_t{-1}, std::string{"none"})));
}

BOOST_AUTO_TEST_CASE(other_errors_are_not_followed) {
  BOOST_TEST(!coordinator_hint(caf::error{}));
  BOOST_TEST(!coordinator_hint(caf::make_error(kafka_error::coordinator_not_available, int32_t{3}, std::string{})));
  BOOST_TEST(!coordinator_hint(caf::make_error(caf::sec::request_timeout)));
  BOOST_TEST(!coordinator_hint(caf::make_error(caf::sec::request_receiver_down, int32_t{3})));
}

BOOST_AUTO_TEST_SUITE_END()
