// Paths of architecture.md, name escaping and the zookeeper.connect split.
#include "cluster/znode_paths.hpp"

#include <random>

#include <boost/test/unit_test.hpp>

#include "cluster/errc.hpp"
#include "cluster/path_syntax.hpp"

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(znode_paths)

BOOST_AUTO_TEST_CASE(paths_of_the_architecture) {
  BOOST_TEST(broker_ids_path() == "/brokers/ids");
  BOOST_TEST(broker_path(3) == "/brokers/ids/3");
  BOOST_TEST(topics_path() == "/brokers/topics");
  BOOST_TEST(topic_path("orders") == "/brokers/topics/orders");
  BOOST_TEST(partitions_path("orders") == "/brokers/topics/orders/partitions");
  BOOST_TEST(partition_path("orders", 2) == "/brokers/topics/orders/partitions/2");
  BOOST_TEST(partition_state_path("orders", 2) == "/brokers/topics/orders/partitions/2/state");
  BOOST_TEST(controller_path() == "/controller");
  BOOST_TEST(controller_epoch_path() == "/controller_epoch");
  BOOST_TEST(consumers_path() == "/consumers");
  BOOST_TEST(consumer_group_path("g1") == "/consumers/g1");
  BOOST_TEST(consumer_ids_path("g1") == "/consumers/g1/ids");
  BOOST_TEST(consumer_member_path("g1", "consumer-1-abc") == "/consumers/g1/ids/consumer-1-abc");
  BOOST_TEST(topic_configs_path() == "/config/topics");
  BOOST_TEST(topic_config_path("__consumer_offsets") == "/config/topics/__consumer_offsets");
  BOOST_TEST(persistent_roots()
               == (std::vector<std::string>{"/brokers/ids", "/brokers/topics", "/consumers",
                                            "/config/topics"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(outside_names_become_one_valid_znode_name) {
  BOOST_TEST(consumer_group_path("a/b") == "/consumers/a%2Fb");
  BOOST_TEST(consumer_member_path("..", "") == "/consumers/%2E%2E/ids/%");
  BOOST_TEST(topic_path("a.b-c_D9") == "/brokers/topics/a.b-c_D9");
  BOOST_TEST(escape_name("caf\xc3\xa9 %") == "caf%C3%A9%20%25");
  for (auto name : {"a/b", "..", ".", "", "x y", "%", "%2F", "\n", "caf\xc3\xa9"}) {
    auto path = consumer_member_path(name, name);
    BOOST_TEST(is_valid_path(path), path);
    BOOST_TEST(*unescape_name(escape_name(name)) == name);
  }
}

BOOST_AUTO_TEST_CASE(escaping_round_trips_random_names) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string name(rng() % 12, '\0');
    for (auto& c : name)
      c = static_cast<char>(rng());
    auto escaped = escape_name(name);
    BOOST_TEST(is_valid_path("/" + escaped));
    auto back = unescape_name(escaped);
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST((*back == name));
  }
}

BOOST_AUTO_TEST_CASE(unescape_accepts_only_canonical_names) {
  for (auto bad : {"%2f", "a%", "%G0", "a/b", "%41", ".", "..", "a b", "%%", "%2E."})
    BOOST_TEST(unescape_name(bad).error() == errc::malformed_data, bad);
  BOOST_TEST(*unescape_name("%2E") == ".");
  BOOST_TEST(*unescape_name("%2E%2E") == "..");
  BOOST_TEST(*unescape_name("%") == "");
}

BOOST_AUTO_TEST_CASE(child_ids) {
  BOOST_TEST(*parse_id_name("0") == 0);
  BOOST_TEST(*parse_id_name("2147483647") == 2147483647);
  for (auto bad : {"", "-1", "+1", "01", "1a", " 1", "2147483648", "x"})
    BOOST_TEST(parse_id_name(bad).error() == errc::malformed_data, bad);
}

BOOST_AUTO_TEST_CASE(zookeeper_connect_split) {
  auto z = split_zookeeper_connect("127.0.0.1:2181/cafka");
  BOOST_REQUIRE(z.has_value());
  BOOST_TEST(z->hosts == "127.0.0.1:2181");
  BOOST_TEST(z->chroot == "/cafka");

  z = split_zookeeper_connect("h1:2181,h2:2181,[::1]:2181/a/b");
  BOOST_TEST(z->hosts == "h1:2181,h2:2181,[::1]:2181");
  BOOST_TEST(z->chroot == "/a/b");

  BOOST_TEST(split_zookeeper_connect("127.0.0.1:2181")->chroot == "");
  BOOST_TEST(split_zookeeper_connect("127.0.0.1:2181/")->chroot == "");

  for (auto bad : {"", "/cafka", "h:1/cafka/", "h:1//x", "h:1/a/../b", "h:1/a\x01"})
    BOOST_TEST(split_zookeeper_connect(bad).error() == errc::invalid_path, bad);
}

BOOST_AUTO_TEST_SUITE_END()
