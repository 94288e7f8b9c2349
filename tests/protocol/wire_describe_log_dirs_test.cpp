// DescribeLogDirs v0-v1 against the byte layouts of protocol/wire/describe_log_dirs.hpp
// (Kafka's DescribeLogDirsRequest.json / DescribeLogDirsResponse.json).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/describe_log_dirs.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

BOOST_AUTO_TEST_SUITE(wire_describe_log_dirs)

BOOST_AUTO_TEST_CASE(decodes_null_and_listed_topics) {
  auto all = decode_describe_log_dirs_request(view(from_hex("ffffffff")), 0);
  BOOST_REQUIRE(all);
  BOOST_TEST(!all->topics);
  auto some = decode_describe_log_dirs_request(view(from_hex("00000001 0001 74 00000002 00000000 00000003")), 1);
  BOOST_REQUIRE(some);
  BOOST_TEST(some->topics->at(0).topic == "t");
  BOOST_TEST((some->topics->at(0).partitions == std::vector<int32_t>{0, 3}));
  BOOST_TEST(!decode_describe_log_dirs_request(view(from_hex("00000001 0001")), 0));
}

BOOST_AUTO_TEST_CASE(encodes_a_response) {
  describe_log_dirs_response resp;
  resp.results.push_back({0, "/d", {{"t", {{1, 100, 2, false}}}}});
  resp.results.push_back({56, "/x", {}});
  auto enc = to_hex(view(encoded(resp, 1, encode_describe_log_dirs_response)));
  BOOST_TEST(enc == hex("00000000 00000002 0000 0002 2f64 00000001 0001 74 00000001 00000001"
                        " 0000000000000064 0000000000000002 00 0038 0002 2f78 00000000"));
}

BOOST_AUTO_TEST_SUITE_END()
