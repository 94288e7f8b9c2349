// ElectLeaders v0-v2 against the byte layouts of protocol/wire/elect_leaders.hpp (Kafka's
// ElectLeadersRequest.json / ElectLeadersResponse.json: v1 adds election_type and the
// top-level error, v2 is v1 in the flexible encoding).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/elect_leaders.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

std::string encoded_response(const elect_leaders_response& resp, int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  encode_elect_leaders_response(resp, version, w);
  return to_hex(view(out));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_elect_leaders)

BOOST_AUTO_TEST_CASE(decodes_requests_of_every_version) {
  // v0: [{"t", [0, 2]}], timeout 1000.
  auto v0 = from_hex("00000001 0001 74 00000002 00000000 00000002 000003e8");
  auto r0 = decode_elect_leaders_request(view(v0), 0);
  BOOST_REQUIRE(r0);
  BOOST_TEST(r0->election_type == 0);
  BOOST_REQUIRE(r0->topic_partitions);
  BOOST_TEST(r0->topic_partitions->at(0).topic == "t");
  BOOST_TEST((r0->topic_partitions->at(0).partitions == std::vector<int32_t>{0, 2}));
  BOOST_TEST(r0->timeout_ms == 1000);
  // v1: unclean, every partition (null).
  auto v1 = from_hex("01 ffffffff 000003e8");
  auto r1 = decode_elect_leaders_request(view(v1), 1);
  BOOST_REQUIRE(r1);
  BOOST_TEST(r1->election_type == 1);
  BOOST_TEST(!r1->topic_partitions);
  // v2: compact arrays and strings, tag buffers.
  auto v2 = from_hex("00 02 02 74 02 00000001 00 000003e8 00");
  auto r2 = decode_elect_leaders_request(view(v2), 2);
  BOOST_REQUIRE(r2);
  BOOST_TEST((r2->topic_partitions->at(0).partitions == std::vector<int32_t>{1}));
  // Truncated: refused.
  BOOST_TEST(!decode_elect_leaders_request(view(from_hex("00000001 0001 74 00000002 00000000")), 0));
}

BOOST_AUTO_TEST_CASE(encodes_responses_and_round_trips_the_client_side) {
  elect_leaders_response resp;
  resp.results.push_back({"t", {{0, 0, std::nullopt}, {1, 84, std::string("x")}}});
  BOOST_TEST(encoded_response(resp, 0)
             == hex("00000000 00000001 0001 74 00000002 00000000 0000 ffff 00000001 0054 0001 78"));
  BOOST_TEST(encoded_response(resp, 1)
             == hex("00000000 0000 00000001 0001 74 00000002 00000000 0000 ffff 00000001 0054 0001 78"));
  BOOST_TEST(encoded_response(resp, 2) == hex("00000000 0000 02 02 74 03 00000000 0000 00 00 00000001 0054 02 78 00 00 00"));
  for (int16_t v = 0; v <= 2; ++v) {
    std::vector<char> body;
    byte_writer w{body};
    encode_elect_leaders_response(resp, v, w);
    auto back = decode_elect_leaders_response(view(body), v);
    BOOST_REQUIRE(back);
    BOOST_TEST(back->results.at(0).partitions.at(1).error_code == 84);
    BOOST_TEST(back->results.at(0).partitions.at(1).error_message.value_or("") == "x");
    elect_leaders_request req;
    req.election_type = v >= 1 ? 1 : 0;
    req.topic_partitions = std::vector<election_topic>{{"t", {3}}};
    std::vector<char> sent;
    byte_writer rw{sent};
    encode_elect_leaders_request(req, v, rw);
    auto decoded = decode_elect_leaders_request(view(sent), v);
    BOOST_REQUIRE(decoded);
    BOOST_TEST(decoded->election_type == req.election_type);
    BOOST_TEST(decoded->topic_partitions->at(0).partitions.at(0) == 3);
  }
}

BOOST_AUTO_TEST_SUITE_END()
