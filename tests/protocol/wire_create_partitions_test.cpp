// CreatePartitions v0-v3 against the byte layouts of protocol/wire/create_partitions.hpp
// (Kafka's CreatePartitionsRequest.json / CreatePartitionsResponse.json: v2+ flexible).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/create_partitions.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

std::string encoded_response(const create_partitions_response& resp, int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  encode_create_partitions_response(resp, version, w);
  return to_hex(view(out));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_create_partitions)

BOOST_AUTO_TEST_CASE(decodes_requests_with_and_without_assignments) {
  // v0/v1: [{"t", 3, [[1, 2]]}, {"u", 5, null}], timeout 1000, validate_only.
  auto v1 = from_hex("00000002 0001 74 00000003 00000001 00000002 00000001 00000002"
                     " 0001 75 00000005 ffffffff 000003e8 01");
  for (int16_t v : {0, 1}) {
    auto r = decode_create_partitions_request(view(v1), v);
    BOOST_REQUIRE(r);
    BOOST_REQUIRE_EQUAL(r->topics.size(), 2u);
    BOOST_TEST(r->topics[0].name == "t");
    BOOST_TEST(r->topics[0].count == 3);
    BOOST_REQUIRE_EQUAL(r->topics[0].assignments.size(), 1u);
    BOOST_TEST((r->topics[0].assignments[0] == std::vector<int32_t>{1, 2}));
    BOOST_TEST(r->topics[1].assignments.empty());
    BOOST_TEST(r->timeout_ms == 1000);
    BOOST_TEST(r->validate_only);
  }
  // v2/v3: compact arrays and strings, a tag buffer after each struct; null assignments = 0.
  auto v3 = from_hex("02 02 74 00000004 02 03 00000003 00000001 00 00 000003e8 00 00");
  for (int16_t v : {2, 3}) {
    auto r = decode_create_partitions_request(view(v3), v);
    BOOST_REQUIRE(r);
    BOOST_TEST(r->topics.at(0).count == 4);
    BOOST_TEST((r->topics.at(0).assignments.at(0) == std::vector<int32_t>{3, 1}));
    BOOST_TEST(!r->validate_only);
  }
  auto null_assignments = decode_create_partitions_request(view(from_hex("02 02 74 00000004 00 00 000003e8 00 00")), 2);
  BOOST_REQUIRE(null_assignments);
  BOOST_TEST(null_assignments->topics.at(0).assignments.empty());
  // Truncated: refused.
  BOOST_TEST(!decode_create_partitions_request(view(from_hex("00000001 0001 74 00000003")), 0));
}

BOOST_AUTO_TEST_CASE(encodes_responses_of_every_version) {
  create_partitions_response resp;
  resp.results.push_back({"t", 0, std::nullopt});
  resp.results.push_back({"u", 37, std::string("x")});
  for (int16_t v : {0, 1})
    BOOST_TEST(encoded_response(resp, v) == hex("00000000 00000002 0001 74 0000 ffff 0001 75 0025 0001 78"));
  for (int16_t v : {2, 3})
    BOOST_TEST(encoded_response(resp, v) == hex("00000000 03 02 74 0000 00 00 02 75 0025 02 78 00 00"));
}

BOOST_AUTO_TEST_SUITE_END()
