// OffsetForLeaderEpoch v0-v4 against the layouts in offset_for_leader_epoch.hpp
// (replication-notes.md §3.3, Kafka's OffsetForLeaderEpochRequest/Response.json):
// hand-written requests and responses for v0 (first), v1 (leader_epoch in the response),
// v2 (current_leader_epoch, throttle_time_ms), v3 (replica_id) and v4 (flexible, with its
// v2 request header), the samples of every version, and malformed input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/offset_for_leader_epoch.hpp"
#include "protocol/wire/request_header.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;

namespace {

cafka::result<offset_for_leader_epoch_request> decode(const std::string& hex, int16_t version) {
  auto body = from_hex(hex);
  return decode_offset_for_leader_epoch_request(view(body), version);
}

// Topic "orders": partition 0 asks for epoch 3 knowing leader epoch 5, partition 1 for
// epoch 0 knowing none (-1; v0-v1 have no current_leader_epoch: -1 too).
void check_orders(const offset_for_leader_epoch_request& req, bool with_current_epoch) {
  BOOST_REQUIRE(req.topics.size() == 1u);
  BOOST_TEST(req.topics[0].topic == "orders");
  BOOST_REQUIRE(req.topics[0].partitions.size() == 2u);
  auto& first = req.topics[0].partitions[0];
  auto& second = req.topics[0].partitions[1];
  BOOST_TEST(first.partition == 0);
  BOOST_TEST(first.current_leader_epoch == (with_current_epoch ? 5 : -1));
  BOOST_TEST(first.leader_epoch == 3);
  BOOST_TEST(second.partition == 1);
  BOOST_TEST(second.current_leader_epoch == -1);
  BOOST_TEST(second.leader_epoch == 0);
}

const std::string topics_v0 = "00000001"          // topics: 1
                              "0006 6f7264657273" // "orders"
                              "00000002"          // partitions: 2
                              "00000000 00000003" // partition 0, leader_epoch 3
                              "00000001 00000000";
const std::string topics_v2 = "00000001 0006 6f7264657273 00000002"
                              "00000000 00000005 00000003"  // partition, current_leader_epoch, leader_epoch
                              "00000001 ffffffff 00000000";
const std::string topics_v4 = "02"                  // topics: uvarint 1+1
                              "07 6f7264657273"     // compact "orders"
                              "03"                  // partitions: 2+1
                              "00000000 00000005 00000003 00"
                              "00000001 ffffffff 00000000 00"
                              "00"                  // the topic's tags
                              "00";                 // the body's tags

std::vector<char> encode(const offset_for_leader_epoch_response& resp, int16_t version) {
  return encoded(resp, version, encode_offset_for_leader_epoch_response);
}

// Epoch 3 of partition 0 ends at 42; partition 1 is refused with UNKNOWN_LEADER_EPOCH.
offset_for_leader_epoch_response ended_and_refused() {
  offset_for_leader_epoch_partition_response ended;
  ended.error_code = 0;
  ended.partition = 0;
  ended.leader_epoch = 3;
  ended.end_offset = 42;
  offset_for_leader_epoch_partition_response refused;
  refused.error_code = 75;
  refused.partition = 1;
  offset_for_leader_epoch_response resp;
  resp.throttle_time_ms = 0;
  resp.topics = {{"orders", {ended, refused}}};
  return resp;
}

// error_code before partition.
const std::string response_v0 = "00000001 0006 6f7264657273 00000002"
                                "0000 00000000 000000000000002a"
                                "004b 00000001 ffffffffffffffff";
const std::string response_v1 = "00000001 0006 6f7264657273 00000002"
                                "0000 00000000 00000003 000000000000002a"  // + leader_epoch
                                "004b 00000001 ffffffff ffffffffffffffff";

} // namespace

BOOST_AUTO_TEST_SUITE(wire_offset_for_leader_epoch)

BOOST_AUTO_TEST_CASE(decodes_v0_and_v1) {
  for (int16_t v : {0, 1}) {
    BOOST_TEST_CONTEXT("version " << v) {
      auto req = decode(topics_v0, v);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->replica_id == -2); // v0-v2 have none: Kafka's default, "debug"
      check_orders(*req, false);
    }
  }
}

BOOST_AUTO_TEST_CASE(v2_adds_current_leader_epoch) {
  auto req = decode(topics_v2, 2);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  check_orders(*req, true);
}

BOOST_AUTO_TEST_CASE(v3_starts_with_replica_id) {
  auto req = decode("ffffffff" + topics_v2, 3); // a consumer
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(req->replica_id == -1);
  check_orders(*req, true);
}

BOOST_AUTO_TEST_CASE(v4_is_flexible_from_its_header_on) {
  BOOST_TEST(is_flexible(23, 4));
  BOOST_TEST(!is_flexible(23, 3));
  BOOST_TEST(response_header_is_flexible(23, 4));
  auto frame = from_hex("0017 0004 00000009 0001 63 00" // key 23, v4, correlation 9, "c", header tags
                        "00000002"                      // replica_id 2 (a follower)
                        + topics_v4);
  byte_reader r{view(frame)};
  auto h = decode_request_header(r);
  BOOST_REQUIRE(h);
  BOOST_TEST(h->correlation_id == 9);
  auto req = decode_offset_for_leader_epoch_request(r.rest(), 4);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(req->replica_id == 2);
  check_orders(*req, true);
}

BOOST_AUTO_TEST_CASE(v4_skips_unknown_tagged_fields) {
  auto req = decode("fffffffe 02 07 6f7264657273 03"
                    "00000000 00000005 00000003 01 05 02 abcd" // one field: tag 5, 2 bytes
                    "00000001 ffffffff 00000000 00"
                    "00 01 00 00", // the body's tags: tag 0, 0 bytes
                    4);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  check_orders(*req, true);
}

BOOST_AUTO_TEST_CASE(encodes_v0_without_leader_epoch_and_throttle) {
  BOOST_TEST(to_hex(view(encode(ended_and_refused(), 0))) == to_hex(view(from_hex(response_v0))));
}

BOOST_AUTO_TEST_CASE(encodes_v1_with_leader_epoch) {
  BOOST_TEST(to_hex(view(encode(ended_and_refused(), 1))) == to_hex(view(from_hex(response_v1))));
}

BOOST_AUTO_TEST_CASE(encodes_v2_and_v3_with_throttle_first) {
  auto resp = ended_and_refused();
  resp.throttle_time_ms = 7;
  auto expected = to_hex(view(from_hex("00000007" + response_v1)));
  BOOST_TEST(to_hex(view(encode(resp, 2))) == expected);
  BOOST_TEST(to_hex(view(encode(resp, 3))) == expected);
}

BOOST_AUTO_TEST_CASE(encodes_v4_compact_with_tag_buffers) {
  auto expected = from_hex("00000000 02 07 6f7264657273 03"
                           "0000 00000000 00000003 000000000000002a 00"
                           "004b 00000001 ffffffff ffffffffffffffff 00"
                           "00"  // the topic's tags
                           "00"); // the body's tags
  BOOST_TEST(to_hex(view(encode(ended_and_refused(), 4))) == to_hex(view(expected)));
}

BOOST_AUTO_TEST_CASE(samples_ask_for_epoch_0_of_orders) {
  for (auto& s : samples_of(api_key::offset_for_leader_epoch)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_offset_for_leader_epoch_request(view(s.body), s.version);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->topics.at(0).topic == "orders");
      BOOST_TEST(req->topics.at(0).partitions.at(0).leader_epoch == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_counts_fail_before_allocating) {
  // Counts of 2^31-1 (2^32-2 compact) with a few bytes behind them.
  BOOST_TEST(decode("7fffffff 0001 78", 0).error() == err(errc::truncated));
  BOOST_TEST(decode("ffffffff 00000001 0001 78 7fffffff 00000000", 3).error() == err(errc::truncated));
  BOOST_TEST(decode("ffffffff ffffffff0f 02 78", 4).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(negative_counts_and_null_names_fail) {
  BOOST_TEST(decode("fffffffe", 0).error() == err(errc::bad_length));
  BOOST_TEST(decode("ffffffff 02 00 01 00 00", 4).error() == err(errc::bad_length)); // null compact name
}

BOOST_AUTO_TEST_SUITE_END()
