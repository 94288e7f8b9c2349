#include "config/listener.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::config;

BOOST_AUTO_TEST_SUITE(listeners)

BOOST_AUTO_TEST_CASE(parses_name_host_port) {
  auto l = parse_listener("PLAINTEXT://127.0.0.1:9092");
  BOOST_REQUIRE(l.has_value());
  BOOST_TEST(l->name == "PLAINTEXT");
  BOOST_TEST(l->host == "127.0.0.1");
  BOOST_TEST(l->port == 9092);
}

BOOST_AUTO_TEST_CASE(host_forms) {
  BOOST_TEST(parse_listener("PLAINTEXT://:9092")->host == "");
  BOOST_TEST(parse_listener("PLAINTEXT://0.0.0.0:9092")->host == "0.0.0.0");
  BOOST_TEST(parse_listener("PLAINTEXT://broker-1.example.com:9092")->host
             == "broker-1.example.com");
  BOOST_TEST(parse_listener("PLAINTEXT://[::1]:9092")->host == "::1");
  BOOST_TEST(parse_listener("PLAINTEXT://[fe80::1%eth0]:9092")->host == "fe80::1%eth0");
}

BOOST_AUTO_TEST_CASE(name_is_upper_cased) {
  auto l = parse_listener("internal_1://h:1");
  BOOST_REQUIRE(l.has_value());
  BOOST_TEST(l->name == "INTERNAL_1");
}

BOOST_AUTO_TEST_CASE(port_range) {
  BOOST_TEST(parse_listener("PLAINTEXT://h:0")->port == 0);
  BOOST_TEST(parse_listener("PLAINTEXT://h:65535")->port == 65535);
  BOOST_TEST(!parse_listener("PLAINTEXT://h:65536").has_value());
  BOOST_TEST(!parse_listener("PLAINTEXT://h:-1").has_value());
  BOOST_TEST(!parse_listener("PLAINTEXT://h:99999999999999999999").has_value());
}

BOOST_AUTO_TEST_CASE(malformed) {
  for (auto t : {"", "PLAINTEXT", "127.0.0.1:9092", "://h:9092", "PLAINTEXT://h", "PLAINTEXT://h:",
                 "PLAINTEXT:/h:9092", "PLAIN TEXT://h:9092", "PLAINTEXT://h:90x",
                 "PLAINTEXT://::1:9092", "PLAINTEXT://[::1]9092", "PLAINTEXT://[]:9092",
                 "PLAINTEXT://h/x:9092", "PLAINTEXT://h h:9092"})
    BOOST_TEST(!parse_listener(t).has_value(), t);
}

BOOST_AUTO_TEST_CASE(to_string_round_trips) {
  for (auto t : {"PLAINTEXT://127.0.0.1:9092", "PLAINTEXT://:0", "EXTERNAL://[::1]:9093"}) {
    auto l = parse_listener(t);
    BOOST_REQUIRE(l.has_value());
    BOOST_TEST(to_string(*l) == t);
    BOOST_TEST((parse_listener(to_string(*l)) == l));
  }
}

BOOST_AUTO_TEST_SUITE_END()
