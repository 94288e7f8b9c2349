#include "config/overrides.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::config;

BOOST_AUTO_TEST_SUITE(overrides)

BOOST_AUTO_TEST_CASE(no_arguments) {
  auto o = parse_overrides({});
  BOOST_REQUIRE(o.has_value());
  BOOST_TEST(o->empty());
}

BOOST_AUTO_TEST_CASE(both_spellings) {
  auto o = parse_overrides({"--override", "broker.id=3", "--override=log.dirs=/a,/b",
                            "--override", "zookeeper.connect=zk:2181/x=y"});
  BOOST_REQUIRE_MESSAGE(o.has_value(), (o ? std::string() : o.error().message));
  BOOST_TEST(o->size() == 3u);
  BOOST_TEST(o->find("broker.id")->value == "3");
  BOOST_TEST(o->find("log.dirs")->value == "/a,/b");
  BOOST_TEST(o->find("zookeeper.connect")->value == "zk:2181/x=y");
  BOOST_TEST(o->find("broker.id")->line == 0);
}

BOOST_AUTO_TEST_CASE(last_override_wins_and_blanks_are_trimmed) {
  auto o = parse_overrides({"--override", " a = 1 ", "--override", "a=2", "--override", "b="});
  BOOST_REQUIRE(o.has_value());
  BOOST_TEST(o->find("a")->value == "2");
  BOOST_TEST(o->find("b")->value == "");
}

BOOST_AUTO_TEST_CASE(override_without_equals_is_an_error_naming_it) {
  auto o = parse_overrides({"--override", "a=1", "--override", "broker.id"});
  BOOST_REQUIRE(!o);
  BOOST_TEST(o.error().code == errc::malformed_override);
  BOOST_TEST(o.error().message.find("'broker.id'") != std::string::npos, o.error().message);

  o = parse_overrides({"--override=num.partitions"});
  BOOST_REQUIRE(!o);
  BOOST_TEST(o.error().message.find("'num.partitions'") != std::string::npos, o.error().message);
}

BOOST_AUTO_TEST_CASE(empty_key_is_an_error) {
  auto o = parse_overrides({"--override", "=5"});
  BOOST_REQUIRE(!o);
  BOOST_TEST(o.error().message.find("'=5'") != std::string::npos, o.error().message);
}

BOOST_AUTO_TEST_CASE(missing_pair_is_an_error) {
  auto o = parse_overrides({"--override", "a=1", "--override"});
  BOOST_REQUIRE(!o);
  BOOST_TEST(o.error().code == errc::malformed_override);
}

BOOST_AUTO_TEST_CASE(other_arguments_are_errors) {
  for (auto arg : {"broker.id=1", "--overrides", "-override", "--verbose"}) {
    auto o = parse_overrides({arg});
    BOOST_REQUIRE(!o);
    BOOST_TEST(o.error().message.find(std::string("'") + arg + "'") != std::string::npos,
               o.error().message);
  }
}

BOOST_AUTO_TEST_CASE(from_argv) {
  const char* argv[] = {"cafka-server", "config/server.properties", "--override", "broker.id=7"};
  int argc = 4;
  auto o = parse_overrides({argv + 2, argv + argc});
  BOOST_REQUIRE(o.has_value());
  BOOST_TEST(o->find("broker.id")->value == "7");
}

BOOST_AUTO_TEST_SUITE_END()
