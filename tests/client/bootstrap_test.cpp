#include "client/bootstrap.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/error.hpp>
#include <caf/sec.hpp>

#include "client/retry.hpp"

using namespace cafka::client;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(bootstrap)

BOOST_AUTO_TEST_CASE(parses_host_port_lists) {
  auto one = parse_endpoint("127.0.0.1:9192");
  BOOST_REQUIRE(one);
  BOOST_TEST(one->host == "127.0.0.1");
  BOOST_TEST(one->port == 9192);
  auto list = parse_bootstrap("a.example:1, b.example:65535 ,[::1]:9000");
  BOOST_REQUIRE(list);
  BOOST_REQUIRE(list->size() == 3u);
  BOOST_TEST((*list)[1].host == "b.example");
  BOOST_TEST((*list)[1].port == 65535);
  BOOST_TEST((*list)[2].host == "::1");
  BOOST_TEST(to_string((*list)[2]) == "[::1]:9000");
  BOOST_TEST(to_string((*list)[0]) == "a.example:1");
}

BOOST_AUTO_TEST_CASE(rejects_malformed_input_with_a_clear_error) {
  for (auto bad : {"", "localhost", "localhost:", ":9192", "host:0", "host:65536", "host:12x", "::1:9192",
                   "[::1:9192", "[::1]", "a:1,,b:2", "a:1,"}) {
    auto r = parse_bootstrap(bad);
    BOOST_TEST_INFO("input '" << bad << "'");
    BOOST_REQUIRE(!r);
    BOOST_TEST((r.error() == caf::sec::invalid_argument));
    auto text = caf::to_string(r.error());
    BOOST_TEST(text.find("host:port") != std::string::npos);
  }
  auto r = parse_endpoint("localhost");
  BOOST_REQUIRE(!r);
  BOOST_TEST(caf::to_string(r.error()).find("'localhost'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(backoff_doubles_up_to_the_maximum) {
  backoff_policy p{100ms, 1000ms};
  BOOST_TEST(backoff_delay(p, 0).count() == 100);
  BOOST_TEST(backoff_delay(p, 1).count() == 200);
  BOOST_TEST(backoff_delay(p, 3).count() == 800);
  BOOST_TEST(backoff_delay(p, 4).count() == 1000);
  BOOST_TEST(backoff_delay(p, 1000).count() == 1000);
}

BOOST_AUTO_TEST_SUITE_END()
