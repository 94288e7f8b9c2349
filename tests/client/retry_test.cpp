#include "client/retry.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/error.hpp>
#include <caf/sec.hpp>

#include "actors/errors.hpp"

using namespace cafka;
using namespace cafka::client;

BOOST_AUTO_TEST_SUITE(retry)

BOOST_AUTO_TEST_CASE(lost_connections_and_timeouts_are_retriable) {
  BOOST_TEST(is_retriable(caf::make_error(caf::sec::request_timeout)));
  BOOST_TEST(is_retriable(caf::make_error(caf::sec::request_receiver_down)));
  BOOST_TEST(is_retriable(caf::make_error(caf::sec::no_route_to_receiving_node)));
  BOOST_TEST(is_retriable(caf::make_error(kafka_error::network_exception)));
  BOOST_TEST(is_retriable(caf::make_error(kafka_error::leader_not_available)));
  BOOST_TEST(is_retriable(caf::make_error(kafka_error::kafka_storage_error)));
}

BOOST_AUTO_TEST_CASE(client_errors_are_final) {
  BOOST_TEST(!is_retriable(caf::error{}));
  BOOST_TEST(!is_retriable(caf::make_error(kafka_error::message_too_large)));
  BOOST_TEST(!is_retriable(caf::make_error(kafka_error::invalid_topic_exception)));
  BOOST_TEST(!is_retriable(caf::make_error(kafka_error::unknown_topic_or_partition)));
  BOOST_TEST(!is_retriable(caf::make_error(kafka_error::offset_out_of_range)));
  BOOST_TEST(!is_retriable(caf::make_error(caf::sec::unexpected_message)));
}

BOOST_AUTO_TEST_CASE(wire_codes_map_back) {
  BOOST_TEST((from_wire(0) == kafka_error::none));
  BOOST_TEST((from_wire(3) == kafka_error::unknown_topic_or_partition));
  BOOST_TEST((from_wire(-1) == kafka_error::unknown_server_error));
  BOOST_TEST((from_wire(-7) == kafka_error::unknown_server_error));
}

BOOST_AUTO_TEST_SUITE_END()
