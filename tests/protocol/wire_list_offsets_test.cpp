// ListOffsets v1-v5 against the layouts in list_offsets.hpp and kafka-wire-notes.md §2c:
// hand-written requests and responses for v1 (first), v2 (isolation_level and
// throttle_time_ms), v3 (same layout as v2), v4 (current_leader_epoch, leader_epoch) and v5
// (last, same layout as v4; OFFSET_NOT_AVAILABLE), the samples of every version, and
// malformed input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/list_offsets.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;

namespace {

// One topic "orders" asking for partition 0 at -2 (earliest) and partition 1 at -1 (latest).
const std::string two_partitions = "00000001"          // topics: 1
                                   "0006 6f7264657273" // name "orders"
                                   "00000002"          // partitions: 2
                                   "00000000 fffffffffffffffe"
                                   "00000001 ffffffffffffffff";

cafka::result<list_offsets_request> decode(const std::string& hex, int16_t version) {
  auto body = from_hex(hex);
  return decode_list_offsets_request(view(body), version);
}

void check_two_partitions(const list_offsets_request& req) {
  BOOST_REQUIRE(req.topics.size() == 1u);
  BOOST_TEST(req.topics[0].name == "orders");
  BOOST_REQUIRE(req.topics[0].partitions.size() == 2u);
  BOOST_TEST(req.topics[0].partitions[0].partition_index == 0);
  BOOST_TEST(req.topics[0].partitions[0].timestamp == -2);
  BOOST_TEST(req.topics[0].partitions[1].partition_index == 1);
  BOOST_TEST(req.topics[0].partitions[1].timestamp == -1);
}

std::vector<char> encode(const list_offsets_response& resp, int16_t version) {
  return encoded(resp, version, encode_list_offsets_response);
}

list_offsets_response earliest_and_not_found() {
  list_offsets_partition_response earliest;
  earliest.partition_index = 0;
  earliest.error_code = 0;
  earliest.timestamp = -1;
  earliest.offset = 42;
  list_offsets_partition_response unknown;
  unknown.partition_index = 7;
  unknown.error_code = 3; // UNKNOWN_TOPIC_OR_PARTITION
  unknown.timestamp = 1'700'000'000'000;
  unknown.offset = -1;
  list_offsets_response resp;
  resp.throttle_time_ms = 5;
  resp.topics = {{"orders", {earliest, unknown}}};
  return resp;
}

const std::string response_topics = "00000001 0006 6f7264657273 00000002"
                                    "00000000 0000 ffffffffffffffff 000000000000002a"
                                    "00000007 0003 0000018bcfe56800 ffffffffffffffff";

} // namespace

BOOST_AUTO_TEST_SUITE(wire_list_offsets)

BOOST_AUTO_TEST_CASE(decodes_v1) {
  auto req = decode("ffffffff" + two_partitions, 1); // replica_id -1
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(req->replica_id == -1);
  BOOST_TEST(req->isolation_level == 0);
  check_two_partitions(*req);
}

BOOST_AUTO_TEST_CASE(v2_and_v3_add_isolation_level) {
  for (int16_t v : {2, 3}) {
    BOOST_TEST_CONTEXT("version " << v) {
      auto req = decode("00000001" // replica_id 1 (a follower)
                        "01"       // isolation_level read_committed
                            + two_partitions,
                        v);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->replica_id == 1);
      BOOST_TEST(req->isolation_level == 1);
      check_two_partitions(*req);
    }
  }
}

BOOST_AUTO_TEST_CASE(v4_and_v5_add_current_leader_epoch_before_the_timestamp) {
  for (int16_t v : {4, 5}) {
    BOOST_TEST_CONTEXT("version " << v) {
      auto req = decode("ffffffff 00"                 // replica_id, isolation_level
                        "00000001 0006 6f7264657273 00000002"
                        "00000000 00000007 fffffffffffffffe" // partition 0, epoch 7, earliest
                        "00000001 ffffffff ffffffffffffffff", // partition 1, unchecked, latest
                        v);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->topics.at(0).partitions.at(0).current_leader_epoch == 7);
      BOOST_TEST(req->topics.at(0).partitions.at(1).current_leader_epoch == -1);
      check_two_partitions(*req);
    }
  }
}

BOOST_AUTO_TEST_CASE(encodes_v1_without_throttle) {
  BOOST_TEST(encode(earliest_and_not_found(), 1) == from_hex(response_topics));
}

BOOST_AUTO_TEST_CASE(encodes_v2_and_v3_with_throttle_first) {
  auto expected = from_hex("00000005" + response_topics);
  BOOST_TEST(encode(earliest_and_not_found(), 2) == expected);
  BOOST_TEST(encode(earliest_and_not_found(), 3) == expected);
}

BOOST_AUTO_TEST_CASE(encodes_v4_and_v5_with_leader_epoch_last) {
  auto resp = earliest_and_not_found();
  resp.topics[0].partitions[0].leader_epoch = 7;
  auto expected = from_hex("00000005 00000001 0006 6f7264657273 00000002"
                           "00000000 0000 ffffffffffffffff 000000000000002a 00000007"
                           "00000007 0003 0000018bcfe56800 ffffffffffffffff ffffffff");
  BOOST_TEST(encode(resp, 4) == expected);
  BOOST_TEST(encode(resp, 5) == expected);
}

BOOST_AUTO_TEST_CASE(offset_not_available_is_leader_not_available_below_v5) {
  BOOST_TEST(list_offsets_error_code(78, 4) == 5);
  BOOST_TEST(list_offsets_error_code(78, 1) == 5);
  BOOST_TEST(list_offsets_error_code(78, 5) == 78);
  BOOST_TEST(list_offsets_error_code(74, 4) == 74); // FENCED_LEADER_EPOCH as it is
  BOOST_TEST(list_offsets_error_code(0, 1) == 0);
}

BOOST_AUTO_TEST_CASE(encodes_no_topics) {
  BOOST_TEST(encode(list_offsets_response{}, 3) == from_hex("00000000 00000000"));
}

BOOST_AUTO_TEST_CASE(samples_ask_for_the_earliest_offset_of_orders) {
  for (auto& s : samples_of(api_key::list_offsets)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_list_offsets_request(view(s.body), s.version);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->topics.at(0).name == "orders");
      BOOST_TEST(req->topics.at(0).partitions.at(0).timestamp == -2);
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_counts_fail_before_allocating) {
  // Counts of 2^31-1 with a few bytes behind them. A decoder that reserved that many
  // elements would throw bad_alloc (or abort under ASan) instead.
  for (auto hex : {"ffffffff 7fffffff 0001 78", "ffffffff 00000001 0001 78 7fffffff 00000000"}) {
    auto req = decode(hex, 1);
    BOOST_REQUIRE(!req);
    BOOST_TEST(req.error() == err(errc::truncated), hex);
  }
}

BOOST_AUTO_TEST_CASE(negative_counts_fail) {
  auto req = decode("ffffffff 01 fffffffe", 2);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_SUITE_END()
