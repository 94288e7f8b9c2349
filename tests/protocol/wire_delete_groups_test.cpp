// DeleteGroups v0-v2 and OffsetDelete v0 against the byte layouts of
// protocol/wire/delete_groups.hpp and offset_delete.hpp (Kafka's DeleteGroups*.json and
// OffsetDelete*.json: DeleteGroups flexible from v2, OffsetDelete never; its response puts the
// error code before the throttle time).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/delete_groups.hpp"
#include "protocol/wire/offset_delete.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

BOOST_AUTO_TEST_SUITE(wire_delete_groups)

BOOST_AUTO_TEST_CASE(decodes_delete_groups_requests_classic_and_flexible) {
  auto v1 = decode_delete_groups_request(view(from_hex("00000002 0001 61 0002 6263")), 1);
  BOOST_REQUIRE(v1);
  BOOST_TEST((v1->groups_names == std::vector<std::string>{"a", "bc"}));
  auto v2 = decode_delete_groups_request(view(from_hex("02 02 61 00")), 2);
  BOOST_REQUIRE(v2);
  BOOST_TEST((v2->groups_names == std::vector<std::string>{"a"}));
  BOOST_TEST(!decode_delete_groups_request(view(from_hex("ffffffff")), 0)); // not nullable
  BOOST_TEST(!decode_delete_groups_request(view(from_hex("02 02 61")), 2)); // no tag buffer
}

BOOST_AUTO_TEST_CASE(encodes_delete_groups_responses) {
  delete_groups_response resp;
  resp.results.push_back({"a", 68});
  auto enc = [&](int16_t v) { return to_hex(view(encoded(resp, v, encode_delete_groups_response))); };
  BOOST_TEST(enc(0) == hex("00000000 00000001 0001 61 0044"));
  BOOST_TEST(enc(2) == hex("00000000 02 02 61 0044 00 00"));
}

BOOST_AUTO_TEST_CASE(decodes_offset_delete_requests) {
  auto req = decode_offset_delete_request(view(from_hex("0001 67 00000001 0001 74 00000002 00000000 00000003")), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "g");
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "t");
  BOOST_TEST((req->topics[0].partitions == std::vector<int32_t>{0, 3}));
  BOOST_TEST(!decode_offset_delete_request(view(from_hex("0001 67 00000001 0001 74 00000002 00000000")), 0));
}

BOOST_AUTO_TEST_CASE(encodes_offset_delete_responses_error_first) {
  offset_delete_response resp;
  resp.error_code = 0;
  resp.throttle_time_ms = 5;
  resp.topics.push_back({"t", {{0, 0}, {3, 86}}});
  BOOST_TEST(to_hex(view(encoded(resp, 0, encode_offset_delete_response)))
             == hex("0000 00000005 00000001 0001 74 00000002 00000000 0000 00000003 0056"));
}

BOOST_AUTO_TEST_SUITE_END()
