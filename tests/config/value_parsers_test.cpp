#include "config/value_parsers.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>

using namespace cafka::config;

namespace {
constexpr int64_t int_min = std::numeric_limits<int32_t>::min();
constexpr int64_t int_max = std::numeric_limits<int32_t>::max();
constexpr int64_t long_min = std::numeric_limits<int64_t>::min();
constexpr int64_t long_max = std::numeric_limits<int64_t>::max();
} // namespace

BOOST_AUTO_TEST_SUITE(value_parsers)

BOOST_AUTO_TEST_CASE(integers) {
  auto ok = [](std::string_view t, int64_t lo, int64_t hi, int64_t expected) {
    auto p = parse_integer(t, lo, hi);
    BOOST_TEST((p.status == parsed_integer::ok), t);
    BOOST_TEST(p.value == expected, t);
  };
  ok("0", int_min, int_max, 0);
  ok("42", int_min, int_max, 42);
  ok("+42", int_min, int_max, 42);
  ok("-1", int_min, int_max, -1);
  ok("2147483647", int_min, int_max, int_max);
  ok("-2147483648", int_min, int_max, int_min);
  ok("9223372036854775807", long_min, long_max, long_max);
  ok("-9223372036854775808", long_min, long_max, long_min);
  ok("007", int_min, int_max, 7);
}

BOOST_AUTO_TEST_CASE(non_integers) {
  for (auto t : {"", "-", "+", "abc", "1.5", "1e3", "0x10", "1 2", " 1", "1_000", "--1", "+-1"})
    BOOST_TEST((parse_integer(t, long_min, long_max).status == parsed_integer::not_integer), t);
}

BOOST_AUTO_TEST_CASE(overflow_is_detected) {
  BOOST_TEST((parse_integer("2147483648", int_min, int_max).status == parsed_integer::too_large));
  BOOST_TEST((parse_integer("-2147483649", int_min, int_max).status == parsed_integer::too_small));
  BOOST_TEST((parse_integer("9223372036854775808", long_min, long_max).status
              == parsed_integer::too_large));
  BOOST_TEST((parse_integer("-9223372036854775809", long_min, long_max).status
              == parsed_integer::too_small));
  BOOST_TEST((parse_integer("99999999999999999999999", long_min, long_max).status
              == parsed_integer::too_large));
}

BOOST_AUTO_TEST_CASE(booleans) {
  for (auto t : {"true", "TRUE", "True", "tRuE"})
    BOOST_TEST((parse_bool(t) == std::optional<bool>(true)), t);
  for (auto t : {"false", "FALSE", "False"})
    BOOST_TEST((parse_bool(t) == std::optional<bool>(false)), t);
  for (auto t : {"", "yes", "no", "1", "0", "on", "truee", "t"})
    BOOST_TEST(!parse_bool(t).has_value(), t);
}

BOOST_AUTO_TEST_CASE(lists) {
  BOOST_TEST(split_list("").empty());
  BOOST_TEST(split_list("  ").empty());
  BOOST_TEST((split_list("a") == std::vector<std::string>{"a"}));
  BOOST_TEST((split_list("a, b ,c") == std::vector<std::string>{"a", "b", "c"}));
  BOOST_TEST((split_list("a,,b") == std::vector<std::string>{"a", "", "b"}));
  BOOST_TEST((split_list("a,") == std::vector<std::string>{"a", ""}));
}

BOOST_AUTO_TEST_CASE(ports) {
  BOOST_TEST((parse_port("0") == std::optional<uint16_t>(0)));
  BOOST_TEST((parse_port("9092") == std::optional<uint16_t>(9092)));
  BOOST_TEST((parse_port("65535") == std::optional<uint16_t>(65535)));
  for (auto t : {"", "65536", "-1", "+1", "99999999", "80a", " 80"})
    BOOST_TEST(!parse_port(t).has_value(), t);
}

BOOST_AUTO_TEST_CASE(zookeeper_connect_strings) {
  for (auto t : {"127.0.0.1:2181", "zk1:2181,zk2:2182,zk3:2183", "zk:2181/kafka",
                 "zk1:2181,zk2:2181/kafka/prod", "[::1]:2181", "zk:2181/", "my-zk.example.com:2181"})
    BOOST_TEST(is_valid_zookeeper_connect(t), t);
  for (auto t : {"", "zk", "zk:", ":2181", "zk:0", "zk:65536", "zk:abc", "zk:2181,",
                 "zk:2181,,zk2:2181", "zk:2181/kafka/", "zk:2181//kafka", "zk:2181/./a",
                 "zk:2181/a/..", "zk 1:2181", "zk:2181 , zk2:2181", "[::1:2181", "/kafka"})
    BOOST_TEST(!is_valid_zookeeper_connect(t), t);
}

BOOST_AUTO_TEST_SUITE_END()
