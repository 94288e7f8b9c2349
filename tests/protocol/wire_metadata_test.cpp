// Metadata v0-v6 against the byte layouts of protocol/wire/metadata.hpp and
// kafka-wire-notes.md §2a: the request's "all topics" encodings, and every response
// layout change (v1 rack/controller/is_internal, v2 cluster_id, v3 throttle, v5 offline).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/metadata.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::str;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;
using cafka::wire::test::under_memory_cap;

namespace {

using names = std::vector<std::string>;

// Brokers, cluster and topics that exercise every response field: a rack, a topic with
// an error and no partitions, replicas that differ from the ISR, an offline replica.
metadata_response sample_response() {
  metadata_response resp;
  resp.throttle_time_ms = 7;
  resp.brokers = {{1, "localhost", 9092, str("r1")}};
  resp.cluster_id = "cafka";
  resp.controller_id = 1;
  metadata_topic orders;
  orders.name = "orders";
  orders.partitions = {{0, 0, 1, {1, 2}, {1}, {2}}};
  metadata_topic gone;
  gone.error_code = 3;
  gone.name = "gone";
  resp.topics = {orders, gone};
  return resp;
}

std::vector<char> encode(const metadata_response& resp, int16_t version) {
  return encoded(resp, version, encode_metadata_response);
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_metadata)

BOOST_AUTO_TEST_CASE(v0_request_lists_topics) {
  auto body = from_hex("00000002 0006 6f7264657273 0008 7061796d656e7473");
  auto req = decode_metadata_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->topics.has_value());
  BOOST_TEST(*req->topics == (names{"orders", "payments"}), boost::test_tools::per_element());
  BOOST_TEST(req->allow_auto_topic_creation);
}

BOOST_AUTO_TEST_CASE(v0_empty_array_means_all_topics) {
  auto body = from_hex("00000000");
  auto req = decode_metadata_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->topics.has_value());
}

BOOST_AUTO_TEST_CASE(v0_null_array_is_malformed) {
  auto body = from_hex("ffffffff");
  auto req = decode_metadata_request(view(body), 0);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(v1_null_array_means_all_topics) {
  auto body = from_hex("ffffffff");
  auto req = decode_metadata_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->topics.has_value());
}

BOOST_AUTO_TEST_CASE(v1_empty_array_means_no_topics) {
  auto body = from_hex("00000000");
  auto req = decode_metadata_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->topics.has_value());
  BOOST_TEST(req->topics->empty());
}

BOOST_AUTO_TEST_CASE(v3_has_no_auto_create_flag_and_ignores_trailing_bytes) {
  auto body = from_hex("00000001 0006 6f7264657273 00");
  auto req = decode_metadata_request(view(body), 3);
  BOOST_REQUIRE(req);
  BOOST_TEST(*req->topics == names{"orders"}, boost::test_tools::per_element());
  BOOST_TEST(req->allow_auto_topic_creation); // the trailing 00 is not read as the flag
}

BOOST_AUTO_TEST_CASE(v4_reads_allow_auto_topic_creation) {
  auto body = from_hex("00000001 0006 6f7264657273 00");
  auto req = decode_metadata_request(view(body), 4);
  BOOST_REQUIRE(req);
  BOOST_TEST(*req->topics == names{"orders"}, boost::test_tools::per_element());
  BOOST_TEST(!req->allow_auto_topic_creation);
}

BOOST_AUTO_TEST_CASE(v6_null_array_with_auto_create) {
  auto body = from_hex("ffffffff 01");
  auto req = decode_metadata_request(view(body), 6);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->topics.has_value());
  BOOST_TEST(req->allow_auto_topic_creation);
}

BOOST_AUTO_TEST_CASE(v4_without_the_flag_is_truncated) {
  auto body = from_hex("00000001 0006 6f7264657273");
  auto req = decode_metadata_request(view(body), 4);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(samples_list_orders_first) {
  for (auto& s : samples_of(api_key::metadata)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_metadata_request(view(s.body), s.version);
      BOOST_REQUIRE(req);
      BOOST_REQUIRE(req->topics.has_value());
      BOOST_TEST(req->topics->size() >= 2u);
      BOOST_TEST(req->topics->front() == "orders");
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_topic_count_fails_before_allocating) {
  auto body = from_hex("7fffffff 0001 61 01");
  for (int16_t v : {0, 6}) {
    auto req = under_memory_cap([&] { return decode_metadata_request(view(body), v); });
    BOOST_REQUIRE(!req);
    BOOST_TEST(req.error() == err(errc::truncated));
  }
}

BOOST_AUTO_TEST_CASE(encodes_v0_response) {
  BOOST_TEST(to_hex(view(encode(sample_response(), 0))) ==
             to_hex(view(from_hex("00000001"                              // brokers
                                  "00000001 0009 6c6f63616c686f7374 00002384"
                                  "00000002"                              // topics
                                  "0000 0006 6f7264657273 00000001"       // orders, 1 partition
                                  "0000 00000000 00000001 00000002 00000001 00000002"
                                  "00000001 00000001"
                                  "0003 0004 676f6e65 00000000"))));      // gone
}

BOOST_AUTO_TEST_CASE(encodes_v1_response_with_rack_controller_and_is_internal) {
  BOOST_TEST(to_hex(view(encode(sample_response(), 1))) ==
             to_hex(view(from_hex("00000001"
                                  "00000001 0009 6c6f63616c686f7374 00002384 0002 7231"
                                  "00000001"                              // controller_id
                                  "00000002"
                                  "0000 0006 6f7264657273 00 00000001"
                                  "0000 00000000 00000001 00000002 00000001 00000002"
                                  "00000001 00000001"
                                  "0003 0004 676f6e65 00 00000000"))));
}

BOOST_AUTO_TEST_CASE(encodes_v2_response_with_cluster_id) {
  BOOST_TEST(to_hex(view(encode(sample_response(), 2))) ==
             to_hex(view(from_hex("00000001"
                                  "00000001 0009 6c6f63616c686f7374 00002384 0002 7231"
                                  "0005 6361666b61"                       // cluster_id
                                  "00000001"
                                  "00000002"
                                  "0000 0006 6f7264657273 00 00000001"
                                  "0000 00000000 00000001 00000002 00000001 00000002"
                                  "00000001 00000001"
                                  "0003 0004 676f6e65 00 00000000"))));
}

BOOST_AUTO_TEST_CASE(encodes_v3_and_v4_response_with_throttle_first) {
  auto expected = from_hex("00000007"                                     // throttle_time_ms
                           "00000001"
                           "00000001 0009 6c6f63616c686f7374 00002384 0002 7231"
                           "0005 6361666b61"
                           "00000001"
                           "00000002"
                           "0000 0006 6f7264657273 00 00000001"
                           "0000 00000000 00000001 00000002 00000001 00000002"
                           "00000001 00000001"
                           "0003 0004 676f6e65 00 00000000");
  BOOST_TEST(to_hex(view(encode(sample_response(), 3))) == to_hex(view(expected)));
  BOOST_TEST(to_hex(view(encode(sample_response(), 4))) == to_hex(view(expected)));
}

BOOST_AUTO_TEST_CASE(encodes_v5_and_v6_response_with_offline_replicas) {
  auto expected = from_hex("00000007"
                           "00000001"
                           "00000001 0009 6c6f63616c686f7374 00002384 0002 7231"
                           "0005 6361666b61"
                           "00000001"
                           "00000002"
                           "0000 0006 6f7264657273 00 00000001"
                           "0000 00000000 00000001 00000002 00000001 00000002"
                           "00000001 00000001"
                           "00000001 00000002"                            // offline_replicas
                           "0003 0004 676f6e65 00 00000000");
  BOOST_TEST(to_hex(view(encode(sample_response(), 5))) == to_hex(view(expected)));
  BOOST_TEST(to_hex(view(encode(sample_response(), 6))) == to_hex(view(expected)));
}

BOOST_AUTO_TEST_CASE(encodes_null_rack_and_cluster_id_as_minus_one) {
  metadata_response resp;
  resp.brokers = {{2, "h", 1, std::nullopt}};
  resp.controller_id = 2;
  BOOST_TEST(to_hex(view(encode(resp, 2))) ==
             to_hex(view(from_hex("00000001 00000002 0001 68 00000001 ffff"
                                  "ffff 00000002 00000000"))));
}

BOOST_AUTO_TEST_SUITE_END()
