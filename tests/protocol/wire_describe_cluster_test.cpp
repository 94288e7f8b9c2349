// DescribeCluster v0-v1 against the byte layouts of protocol/wire/describe_cluster.hpp (Kafka's
// DescribeClusterRequest.json / DescribeClusterResponse.json: flexible from v0).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/describe_cluster.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

BOOST_AUTO_TEST_SUITE(wire_describe_cluster)

BOOST_AUTO_TEST_CASE(decodes_requests_of_both_versions) {
  auto v0 = decode_describe_cluster_request(view(from_hex("01 00")), 0);
  BOOST_REQUIRE(v0);
  BOOST_TEST(v0->include_cluster_authorized_operations);
  BOOST_TEST(v0->endpoint_type == 1);
  auto v1 = decode_describe_cluster_request(view(from_hex("00 02 00")), 1);
  BOOST_REQUIRE(v1);
  BOOST_TEST(v1->endpoint_type == 2);
  BOOST_TEST(!decode_describe_cluster_request(view(from_hex("00")), 1));
}

BOOST_AUTO_TEST_CASE(encodes_responses_of_both_versions) {
  describe_cluster_response resp;
  resp.cluster_id = "c";
  resp.controller_id = 2;
  resp.brokers.push_back({2, "h", 9092, std::nullopt});
  auto enc = [&](int16_t v) { return to_hex(view(encoded(resp, v, encode_describe_cluster_response))); };
  BOOST_TEST(enc(0) == hex("00000000 0000 00 02 63 00000002 02 00000002 02 68 00002384 00 00 80000000 00"));
  BOOST_TEST(enc(1) == hex("00000000 0000 00 01 02 63 00000002 02 00000002 02 68 00002384 00 00 80000000 00"));
}

BOOST_AUTO_TEST_SUITE_END()
