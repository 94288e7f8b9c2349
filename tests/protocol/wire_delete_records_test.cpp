// DeleteRecords v0-v2 against the byte layouts of protocol/wire/delete_records.hpp (Kafka's
// DeleteRecords*.json: flexible from v2).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/delete_records.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

BOOST_AUTO_TEST_SUITE(wire_delete_records)

BOOST_AUTO_TEST_CASE(decodes_requests_classic_and_flexible) {
  // topic "t": partition 2 up to offset 40, partition 3 up to the high watermark (-1); 5 s.
  auto v1 = decode_delete_records_request(
    view(from_hex("00000001 0001 74 00000002 00000002 0000000000000028 00000003 ffffffffffffffff 00001388")), 1);
  BOOST_REQUIRE(v1);
  BOOST_REQUIRE(v1->topics.size() == 1u);
  BOOST_TEST(v1->topics[0].name == "t");
  BOOST_REQUIRE(v1->topics[0].partitions.size() == 2u);
  BOOST_TEST(v1->topics[0].partitions[0].partition_index == 2);
  BOOST_TEST(v1->topics[0].partitions[0].offset == 40);
  BOOST_TEST(v1->topics[0].partitions[1].offset == delete_records_to_high_watermark);
  BOOST_TEST(v1->timeout_ms == 5000);
  auto v2 = decode_delete_records_request(view(from_hex("02 02 74 02 00000002 0000000000000028 00 00 00001388 00")), 2);
  BOOST_REQUIRE(v2);
  BOOST_TEST(v2->topics[0].partitions[0].offset == 40);
  BOOST_TEST(v2->timeout_ms == 5000);
  BOOST_TEST(!decode_delete_records_request(view(from_hex("00000001 0001 74 00000001 00000002")), 0)); // cut short
  BOOST_TEST(!decode_delete_records_request(view(from_hex("02 02 74 02 00000002 0000000000000028 00 00 00001388")), 2));
}

BOOST_AUTO_TEST_CASE(encodes_responses) {
  delete_records_response resp;
  resp.throttle_time_ms = 1;
  resp.topics.push_back({"t", {{2, 40, 0}, {3, -1, 1}}});
  auto enc = [&](int16_t v) { return to_hex(view(encoded(resp, v, encode_delete_records_response))); };
  BOOST_TEST(enc(0) == hex("00000001 00000001 0001 74 00000002 00000002 0000000000000028 0000"
                           " 00000003 ffffffffffffffff 0001"));
  BOOST_TEST(enc(2) == hex("00000001 02 02 74 03 00000002 0000000000000028 0000 00"
                           " 00000003 ffffffffffffffff 0001 00 00 00"));
}

BOOST_AUTO_TEST_SUITE_END()
