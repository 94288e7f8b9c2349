// Encodings of znode data: round trips, exact text, malformed input and garbage.
#include "cluster/znode_data.hpp"

#include <random>

#include <boost/test/unit_test.hpp>

#include "cluster/errc.hpp"

using namespace cafka::cluster;

namespace {

broker_registration sample_broker() {
  return {1, "broker-1.example.com", 9092, 9192, "rack-a"};
}

partition_state sample_state() {
  return {2, 7, 3, {2, 1, 3}};
}

topic_assignment sample_assignment() {
  return {{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}}, {}, {}};
}

topic_config sample_config() {
  return {{{"retention.ms", "86400000"}, {"cleanup.policy", "compact,delete"},
           {"odd key=\n", "odd\nvalue\\"}}};
}

// Every valid encoding, to mutate.
std::vector<std::string> samples() {
  return {encode(sample_broker()), encode(controller_info{1, 5}), encode_controller_epoch(5),
          encode(sample_assignment()), encode(sample_state()), encode(sample_config())};
}

// Runs every decoder; returns how many accepted the input.
int decode_all(std::string_view text) {
  return int{decode_broker_registration(text).has_value()}
         + int{decode_controller_info(text).has_value()}
         + int{decode_controller_epoch(text).has_value()}
         + int{decode_topic_assignment(text).has_value()}
         + int{decode_partition_state(text).has_value()}
         + int{decode_topic_config(text).has_value()};
}

} // namespace

BOOST_AUTO_TEST_SUITE(znode_data)

BOOST_AUTO_TEST_CASE(broker_registration_round_trip) {
  auto b = sample_broker();
  BOOST_TEST(encode(b)
             == "version=1\nid=1\nhost=broker-1.example.com\nkafka_port=9092\ncaf_port=9192\n"
                "rack=rack-a\n");
  BOOST_TEST((*decode_broker_registration(encode(b)) == b));
  b.rack.clear();
  b.host.clear();
  b.kafka_port = 65535;
  BOOST_TEST((*decode_broker_registration(encode(b)) == b));
  auto without_rack = decode_broker_registration("version=1\nid=4\nhost=h\nkafka_port=1\ncaf_port=2\n");
  BOOST_REQUIRE(without_rack.has_value());
  BOOST_TEST(without_rack->rack == "");
}

BOOST_AUTO_TEST_CASE(controller_round_trip) {
  controller_info c{3, 12};
  BOOST_TEST(encode(c) == "version=1\nbroker_id=3\nepoch=12\n");
  BOOST_TEST((*decode_controller_info(encode(c)) == c));
  BOOST_TEST(encode_controller_epoch(12) == "version=1\nepoch=12\n");
  BOOST_TEST(*decode_controller_epoch(encode_controller_epoch(12)) == 12);
}

BOOST_AUTO_TEST_CASE(topic_assignment_round_trip) {
  auto t = sample_assignment();
  BOOST_TEST(encode(t)
             == "version=1\npartition.0=1,2,3\npartition.1=2,3,1\npartition.2=3,1,2\n");
  BOOST_TEST((*decode_topic_assignment(encode(t)) == t));
  // Line order does not matter; partition numbers do.
  auto shuffled = decode_topic_assignment("partition.1=5\nversion=1\npartition.0=4\n");
  BOOST_REQUIRE(shuffled.has_value());
  BOOST_TEST((shuffled->partitions == std::vector<replica_list>{{4}, {5}}));
}

BOOST_AUTO_TEST_CASE(a_reassignment_under_way_round_trips_in_the_assignment) {
  auto t = sample_assignment();
  t.partitions[1] = {4, 2, 3, 1}; // moving from 2,3,1 to 4,2,3
  t.adding[1] = {4};
  t.removing[1] = {1};
  BOOST_TEST(encode(t)
             == "version=1\npartition.0=1,2,3\npartition.1=4,2,3,1\npartition.2=3,1,2\nadding.1=4\nremoving.1=1\n");
  BOOST_TEST((*decode_topic_assignment(encode(t)) == t));
  // What is added or removed must be a replica of an existing partition.
  BOOST_TEST(!decode_topic_assignment("version=1\npartition.0=1,2\nadding.0=3\n"));
  BOOST_TEST(!decode_topic_assignment("version=1\npartition.0=1,2\nremoving.1=1\n"));
  BOOST_TEST(!decode_topic_assignment("version=1\npartition.0=1,2\nadding.0=\n"));
}

BOOST_AUTO_TEST_CASE(partition_state_round_trip) {
  auto p = sample_state();
  BOOST_TEST(encode(p) == "version=1\nleader=2\nleader_epoch=7\ncontroller_epoch=3\nisr=2,1,3\n");
  BOOST_TEST((*decode_partition_state(encode(p)) == p));
  partition_state offline{no_broker, 8, 3, {}};
  BOOST_TEST((*decode_partition_state(encode(offline)) == offline));
}

BOOST_AUTO_TEST_CASE(topic_config_round_trip) {
  auto c = sample_config();
  BOOST_TEST((*decode_topic_config(encode(c)) == c));
  BOOST_TEST(encode(topic_config{{{"retention.ms", "1000"}}}) == "version=1\nconfig.retention.ms=1000\n");
  BOOST_TEST(decode_topic_config("version=1\n")->entries.empty());
}

BOOST_AUTO_TEST_CASE(unknown_keys_are_ignored) {
  auto c = decode_controller_info("version=1\nbroker_id=1\nepoch=2\ntimestamp=1700000000\n");
  BOOST_REQUIRE(c.has_value());
  BOOST_TEST(c->broker_id == 1);
}

BOOST_AUTO_TEST_CASE(malformed_fields_are_rejected) {
  auto rejected = [](auto decoder, std::initializer_list<const char*> texts) {
    for (auto text : texts)
      BOOST_TEST(decoder(text).error() == errc::malformed_data, text);
  };
  rejected(decode_broker_registration,
           {"", "id=1\nhost=h\nkafka_port=1\ncaf_port=2\n",               // no version
            "version=2\nid=1\nhost=h\nkafka_port=1\ncaf_port=2\n",        // other version
            "version=1\nhost=h\nkafka_port=1\ncaf_port=2\n",              // no id
            "version=1\nid=-1\nhost=h\nkafka_port=1\ncaf_port=2\n",       // negative id
            "version=1\nid=1\nhost=h\nkafka_port=65536\ncaf_port=2\n",    // port range
            "version=1\nid=1\nkafka_port=1\ncaf_port=2\n",                // no host
            "version=1\nid=1\nhost=h\nkafka_port=1\ncaf_port=2\nid=1\n"}); // duplicate key
  rejected(decode_controller_info,
           {"version=1\nbroker_id=1\n", "version=1\nbroker_id=x\nepoch=1\n",
            "version=1\nbroker_id=1\nepoch=-1\n", "version=1\nbroker_id=1\nepoch=2147483648\n"});
  rejected(decode_controller_epoch, {"version=1\n", "5", "version=1\nepoch=five\n"});
  rejected(decode_topic_assignment,
           {"version=1\n",                                  // no partitions
            "version=1\npartition.1=1\n",                   // gap: no partition 0
            "version=1\npartition.0=1\npartition.2=1\n",    // gap
            "version=1\npartition.0=1\npartition.00=2\n",   // partition 0 twice
            "version=1\npartition.0=\n",                    // no replicas
            "version=1\npartition.0=1,1\n",                 // replica twice
            "version=1\npartition.0=1,-2\n",                // negative broker
            "version=1\npartition.x=1\n",                   // not a number
            "version=1\npartition.-1=1\n",
            "version=1\npartition.2147483647=1\n"});        // huge, must not allocate
  rejected(decode_partition_state,
           {"version=1\nleader=1\nleader_epoch=0\ncontroller_epoch=0\n",        // no isr
            "version=1\nleader=-2\nleader_epoch=0\ncontroller_epoch=0\nisr=\n",
            "version=1\nleader=1\nleader_epoch=0\ncontroller_epoch=0\nisr=1,1\n"});
  rejected(decode_topic_config, {"version=1\nconfig.a%2fb=1\n", "version=1\nconfig.a%=1\n",
                                 "version=1\nconfig.%41=1\n"});
}

BOOST_AUTO_TEST_CASE(random_bytes_are_rejected) {
  std::mt19937 rng(42);
  for (int i = 0; i < 5000; ++i) {
    std::string text(rng() % 200, '\0');
    for (auto& c : text)
      c = static_cast<char>(rng());
    BOOST_TEST(decode_all(text) == 0);
  }
}

BOOST_AUTO_TEST_CASE(mutated_encodings_never_crash) {
  // Flip, insert, delete and truncate bytes of valid encodings. A mutant may still be valid
  // (e.g. a digit changed); then it must re-encode to something that decodes the same.
  std::mt19937 rng(1);
  const std::string alphabet = "=\n\\,.-0123456789%rnxversion";
  int accepted = 0;
  for (auto& base : samples()) {
    for (int i = 0; i < 3000; ++i) {
      auto text = base;
      for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0 && !text.empty(); --edits) {
        auto pos = rng() % text.size();
        switch (rng() % 4) {
          case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
          case 1: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
          case 2: text.erase(pos, 1); break;
          case 3: text.resize(pos); break;
        }
      }
      accepted += decode_all(text);
      if (auto s = decode_partition_state(text))
        BOOST_TEST((*decode_partition_state(encode(*s)) == *s));
      if (auto t = decode_topic_assignment(text))
        BOOST_TEST((*decode_topic_assignment(encode(*t)) == *t));
    }
  }
  BOOST_TEST_MESSAGE("mutants accepted by some decoder: " << accepted);
}

BOOST_AUTO_TEST_SUITE_END()
