// The Kafka listeners' limits as pure logic: connection counts per address and in all,
// and when a connection may be read from.
#include <boost/test/unit_test.hpp>

#include "actors/connection_limits.hpp"

using namespace cafka;

BOOST_AUTO_TEST_SUITE(connection_limits)

BOOST_AUTO_TEST_CASE(counts_per_address_with_overrides_and_in_all) {
  connection_counts counts{3, 1, {{"10.0.0.9", 2}}};
  BOOST_TEST(counts.admit("10.0.0.1").empty());
  BOOST_TEST(counts.admit("10.0.0.1") == "max.connections.per.ip");
  BOOST_TEST(counts.admit("10.0.0.9").empty());
  BOOST_TEST(counts.admit("10.0.0.9").empty()); // its override allows two
  BOOST_TEST(counts.admit("10.0.0.2") == "max.connections"); // three open in all
  counts.release("10.0.0.9");
  BOOST_TEST(counts.total() == 2);
  BOOST_TEST(counts.admit("10.0.0.9").empty());
  counts.release("10.0.0.1");
  counts.release("10.0.0.1"); // unknown now: ignored
  BOOST_TEST(counts.total() == 2);
}

BOOST_AUTO_TEST_CASE(new_limits_admit_later_connections_and_keep_open_ones) {
  connection_counts counts{10, 10, {}};
  BOOST_TEST(counts.admit("10.0.0.1").empty());
  BOOST_TEST(counts.admit("10.0.0.1").empty());
  counts.set_limits(10, 1, {{"10.0.0.9", 0}});
  BOOST_TEST(counts.total() == 2); // open ones stay
  BOOST_TEST(counts.admit("10.0.0.1") == "max.connections.per.ip");
  BOOST_TEST(counts.admit("10.0.0.9") == "max.connections.per.ip.overrides");
  counts.set_limits(2, 10, {});
  BOOST_TEST(counts.admit("10.0.0.2") == "max.connections");
}

BOOST_AUTO_TEST_CASE(a_zero_override_refuses_that_address) {
  connection_counts counts{10, 10, {{"10.0.0.9", 0}}};
  BOOST_TEST(counts.admit("10.0.0.9") == "max.connections.per.ip.overrides");
  BOOST_TEST(counts.total() == 0);
}

BOOST_AUTO_TEST_CASE(reading_stops_at_each_limit) {
  read_limits limits{2, 100, 10, 1000};
  listener_load quiet;
  BOOST_TEST(may_read({1, 100}, quiet, limits));
  BOOST_TEST(!may_read({2, 0}, quiet, limits));   // unanswered requests of the connection
  BOOST_TEST(!may_read({0, 101}, quiet, limits)); // unsent response bytes
  BOOST_TEST(!may_read({0, 0}, {10, 0}, limits)); // queued.max.requests
  BOOST_TEST(!may_read({0, 0}, {1, 1000}, limits)); // queued.max.request.bytes
}

BOOST_AUTO_TEST_SUITE_END()
