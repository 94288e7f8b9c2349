// Kafka's reassignment and topics-to-move JSON files: read, written, and refused with a reason.
#include "cluster/reassignment_json.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(reassignment_json_files)

BOOST_AUTO_TEST_CASE(a_reassignment_file_round_trips) {
  std::string error;
  auto parsed = parse_reassignment_json(R"( {"version": 1, "partitions": [
      {"topic": "or\"ders", "partition": 0, "replicas": [1, 2], "log_dirs": ["any", "any"]},
      {"topic": "logs", "partition": 3, "replicas": [4]} ]} )",
                                        error);
  BOOST_REQUIRE_MESSAGE(parsed, error);
  BOOST_REQUIRE_EQUAL(parsed->size(), 2u);
  BOOST_TEST((*parsed)[0].topic == "or\"ders");
  BOOST_TEST(((*parsed)[0].replicas == std::vector<int32_t>{1, 2}));
  BOOST_TEST((*parsed)[1].partition == 3);
  auto text = reassignment_json(*parsed);
  BOOST_TEST(text == R"({"version":1,"partitions":[{"topic":"or\"ders","partition":0,"replicas":[1,2],)"
                     R"("log_dirs":["any","any"]},{"topic":"logs","partition":3,"replicas":[4],"log_dirs":["any"]}]})");
  auto again = parse_reassignment_json(text, error);
  BOOST_REQUIRE(again);
  BOOST_TEST((*again)[1].topic == "logs");
}

BOOST_AUTO_TEST_CASE(a_topics_file_lists_its_topics) {
  std::string error;
  auto topics = parse_topics_json(R"({"topics":[{"topic":"a"},{"topic":"b"}],"version":1})", error);
  BOOST_REQUIRE_MESSAGE(topics, error);
  BOOST_TEST((*topics == std::vector<std::string>{"a", "b"}));
}

BOOST_AUTO_TEST_CASE(bad_files_are_refused_with_a_reason) {
  for (auto [text, reason] : std::vector<std::pair<std::string, std::string>>{
         {"", "unexpected end"},
         {"{\"partitions\":[}", "expected a value"},
         {"{\"version\":1}", "has no \"partitions\""},
         {R"({"partitions":[{"topic":"t","partition":-1,"replicas":[1]}]})", "partition must be an integer"},
         {R"({"partitions":[{"topic":"t","partition":0,"replicas":"1"}]})", "wrong type"},
         {R"({"partitions":[{"topic":"t","partition":0,"replicas":[1],"log_dirs":["/data"]}]})", "only \"any\""},
         {R"({"partitions":[]} x)", "text after"},
       }) {
    std::string error;
    BOOST_TEST(!parse_reassignment_json(text, error), text);
    BOOST_TEST(error.find(reason) != std::string::npos, text << ": " << error);
  }
}

BOOST_AUTO_TEST_CASE(an_offsets_file_lists_partitions_and_offsets) {
  std::string error;
  auto offsets = parse_offsets_json(
    R"({"partitions":[{"topic":"t","partition":0,"offset":3},{"topic":"t","partition":1,"offset":-1}],"version":1})",
    error);
  BOOST_REQUIRE_MESSAGE(offsets, error);
  BOOST_REQUIRE(offsets->size() == 2u);
  BOOST_TEST((*offsets)[0].topic == "t");
  BOOST_TEST((*offsets)[0].offset == 3);
  BOOST_TEST((*offsets)[1].partition == 1);
  BOOST_TEST((*offsets)[1].offset == -1);
  BOOST_TEST(!parse_offsets_json(R"({"partitions":[{"topic":"t","partition":0,"offset":-2}]})", error));
  BOOST_TEST(error.find("offset") != std::string::npos);
  BOOST_TEST(!parse_offsets_json(R"({"partitions":[{"topic":"t","partition":0}]})", error));
}

BOOST_AUTO_TEST_SUITE_END()
