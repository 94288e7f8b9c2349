// Fetch v4-v11 against the layouts in fetch.hpp and kafka-wire-notes.md §2c: hand-written
// request bodies for v4 (first), v5 (log_start_offset), v7 (sessions, forgotten topics),
// v9 (current_leader_epoch) and v11 (rack_id, last); responses for v4, v5, v7 and v11;
// the samples of every version, and malformed input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/fetch.hpp"
#include "golden_batch.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::golden_batch_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;

namespace {

// The v4 request fields before the topics array; v7+ adds the session right after them.
const std::string v4_prefix = "ffffffff" // replica_id -1
                              "000001f4" // max_wait_ms 500
                              "00000001" // min_bytes 1
                              "03200000" // max_bytes 52428800
                              "01";      // isolation_level read_committed
const std::string session = "00000000"  // session_id 0
                            "ffffffff"; // session_epoch -1 (no session)
// The start of a topics array holding one topic with one partition.
const std::string one_topic = "00000001"          // topics: 1
                              "0006 6f7264657273" // topic "orders"
                              "00000001";         // partitions: 1

cafka::result<fetch_request> decode(const std::string& hex, int16_t version) {
  auto body = from_hex(hex);
  return decode_fetch_request(view(body), version);
}

std::vector<char> encode(const fetch_response& resp, int16_t version) {
  return encoded(resp, version, encode_fetch_response);
}

fetch_response one_partition_response() {
  fetch_partition_response p;
  p.partition_index = 0;
  p.error_code = 0;
  p.high_watermark = 10;
  p.last_stable_offset = 9;
  p.log_start_offset = 2;
  p.preferred_read_replica = -1;
  p.records = from_hex("0102030405");
  fetch_response resp;
  resp.throttle_time_ms = 1;
  resp.error_code = 0;
  resp.session_id = 0;
  resp.topics = {{"orders", {p}}};
  return resp;
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_fetch)

BOOST_AUTO_TEST_CASE(decodes_v4) {
  auto req = decode(v4_prefix + one_topic +
                        "00000003"         // partition 3
                        "000000000000002a" // fetch_offset 42
                        "00100000",        // partition_max_bytes 1 MiB
                    4);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(req->replica_id == -1);
  BOOST_TEST(req->max_wait_ms == 500);
  BOOST_TEST(req->min_bytes == 1);
  BOOST_TEST(req->max_bytes == 52428800);
  BOOST_TEST(req->isolation_level == 1);
  BOOST_TEST(req->session_id == 0);
  BOOST_TEST(req->session_epoch == -1);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].topic == "orders");
  BOOST_REQUIRE(req->topics[0].partitions.size() == 1u);
  auto& p = req->topics[0].partitions[0];
  BOOST_TEST(p.partition == 3);
  BOOST_TEST(p.current_leader_epoch == -1);
  BOOST_TEST(p.fetch_offset == 42);
  BOOST_TEST(p.log_start_offset == -1);
  BOOST_TEST(p.partition_max_bytes == 1048576);
  BOOST_TEST(req->forgotten_topics.empty());
}

BOOST_AUTO_TEST_CASE(v5_adds_log_start_offset) {
  auto req = decode(v4_prefix + one_topic +
                        "00000003"         // partition 3
                        "000000000000002a" // fetch_offset 42
                        "0000000000000007" // log_start_offset 7
                        "00100000",        // partition_max_bytes
                    5);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  auto& p = req->topics.at(0).partitions.at(0);
  BOOST_TEST(p.fetch_offset == 42);
  BOOST_TEST(p.log_start_offset == 7);
  BOOST_TEST(p.partition_max_bytes == 1048576);
}

BOOST_AUTO_TEST_CASE(v7_adds_the_session_and_forgotten_topics) {
  auto req = decode(v4_prefix +
                        "0000000c"         // session_id 12
                        "00000003"         // session_epoch 3
                        + one_topic +
                        "00000003"         // partition 3
                        "000000000000002a" // fetch_offset 42
                        "ffffffffffffffff" // log_start_offset -1
                        "00100000"         // partition_max_bytes
                        "00000001"         // forgotten_topics_data: 1
                        "0003 6f6c64"      // topic "old"
                        "00000002 00000001 00000002", // partitions [1, 2]
                    7);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(req->isolation_level == 1);
  BOOST_TEST(req->session_id == 12);
  BOOST_TEST(req->session_epoch == 3);
  BOOST_TEST(req->topics.at(0).partitions.at(0).fetch_offset == 42);
  BOOST_REQUIRE(req->forgotten_topics.size() == 1u);
  BOOST_TEST(req->forgotten_topics[0].topic == "old");
  BOOST_TEST(req->forgotten_topics[0].partitions == (std::vector<int32_t>{1, 2}));
}

BOOST_AUTO_TEST_CASE(v9_adds_current_leader_epoch) {
  auto req = decode(v4_prefix + session + one_topic +
                        "00000003"         // partition 3
                        "00000005"         // current_leader_epoch 5
                        "000000000000002a" // fetch_offset 42
                        "ffffffffffffffff" // log_start_offset -1
                        "00100000"         // partition_max_bytes
                        "00000000",        // forgotten_topics_data: none
                    9);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  auto& p = req->topics.at(0).partitions.at(0);
  BOOST_TEST(p.partition == 3);
  BOOST_TEST(p.current_leader_epoch == 5);
  BOOST_TEST(p.fetch_offset == 42);
  BOOST_TEST(p.log_start_offset == -1);
  BOOST_TEST(p.partition_max_bytes == 1048576);
  BOOST_TEST(req->forgotten_topics.empty());
}

BOOST_AUTO_TEST_CASE(v11_ends_with_rack_id) {
  auto req = decode(v4_prefix + session +
                        "00000002"          // topics: 2
                        "0006 6f7264657273" // topic "orders"
                        "00000002"          // partitions: 2
                        // partition, current_leader_epoch, fetch_offset, log_start_offset,
                        // partition_max_bytes
                        "00000000 ffffffff 0000000000000000 ffffffffffffffff 00100000"
                        "00000001 ffffffff 0000000000000064 ffffffffffffffff 00080000"
                        "0001 78"  // topic "x"
                        "00000000" // partitions: none
                        "00000000" // forgotten_topics_data: none
                        "0006 7261636b2d61", // rack_id "rack-a"
                    11);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_REQUIRE(req->topics.size() == 2u);
  BOOST_REQUIRE(req->topics[0].partitions.size() == 2u);
  BOOST_TEST(req->topics[0].partitions[1].partition == 1);
  BOOST_TEST(req->topics[0].partitions[1].fetch_offset == 100);
  BOOST_TEST(req->topics[0].partitions[1].partition_max_bytes == 524288);
  BOOST_TEST(req->topics[1].topic == "x");
  BOOST_TEST(req->topics[1].partitions.empty());
  BOOST_TEST(req->rack_id == "rack-a");
}

BOOST_AUTO_TEST_CASE(encodes_v4) {
  auto resp = one_partition_response();
  resp.topics[0].partitions[0].aborted_transactions = {{4242, 8}};
  BOOST_TEST(encode(resp, 4) == from_hex("00000001"          // throttle_time_ms
                                         "00000001"          // responses: 1
                                         "0006 6f7264657273" // topic
                                         "00000001"          // partitions: 1
                                         "00000000"          // partition_index
                                         "0000"              // error_code
                                         "000000000000000a"  // high_watermark
                                         "0000000000000009"  // last_stable_offset
                                         "00000001"          // aborted_transactions: 1
                                         "0000000000001092 0000000000000008"
                                         "00000005 0102030405")); // records
}

BOOST_AUTO_TEST_CASE(encodes_v5_and_v6_with_log_start_offset) {
  auto expected = from_hex("00000001 00000001 0006 6f7264657273 00000001"
                           "00000000 0000 000000000000000a 0000000000000009"
                           "0000000000000002" // log_start_offset
                           "00000000"         // aborted_transactions: empty
                           "00000005 0102030405");
  for (int16_t v : {5, 6})
    BOOST_TEST(encode(one_partition_response(), v) == expected, "version " << v);
}

BOOST_AUTO_TEST_CASE(encodes_v7_to_v10_with_error_and_session) {
  auto resp = one_partition_response();
  resp.error_code = 71; // INVALID_FETCH_SESSION_EPOCH
  resp.session_id = 0x0102;
  auto expected = from_hex("00000001" // throttle_time_ms
                           "0047"     // error_code
                           "00000102" // session_id
                           "00000001 0006 6f7264657273 00000001"
                           "00000000 0000 000000000000000a 0000000000000009 0000000000000002"
                           "00000000"
                           "00000005 0102030405");
  for (int16_t v : {7, 8, 9, 10})
    BOOST_TEST(encode(resp, v) == expected, "version " << v);
}

BOOST_AUTO_TEST_CASE(encodes_v11_with_preferred_read_replica_and_a_real_batch) {
  auto resp = one_partition_response();
  resp.topics[0].partitions[0].records = from_hex(golden_batch_hex);
  BOOST_TEST(encode(resp, 11) == from_hex("00000001 0000 00000000"
                                          "00000001 0006 6f7264657273 00000001"
                                          "00000000 0000 000000000000000a 0000000000000009"
                                          "0000000000000002" // log_start_offset
                                          "00000000"         // aborted_transactions
                                          "ffffffff"         // preferred_read_replica -1
                                          "0000005f" +       // records: 95 bytes
                                          std::string{golden_batch_hex}));
}

BOOST_AUTO_TEST_CASE(no_records_is_length_zero) {
  auto resp = one_partition_response();
  resp.topics[0].partitions[0].records.clear();
  auto out = encode(resp, 4);
  BOOST_TEST(std::string(out.end() - 4, out.end()) == std::string(4, '\0'));
}

BOOST_AUTO_TEST_CASE(samples_fetch_orders_from_offset_42) {
  for (auto& s : samples_of(api_key::fetch)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_fetch_request(view(s.body), s.version);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->topics.at(0).topic == "orders");
      BOOST_TEST(req->topics.at(0).partitions.at(0).fetch_offset == 42);
      BOOST_TEST(req->topics.at(0).partitions.at(0).partition_max_bytes == 1048576);
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_counts_fail_before_allocating) {
  // Counts of 2^31-1 with a few bytes behind them. A decoder that reserved that many
  // elements would throw bad_alloc (or abort under ASan) instead.
  const std::string v7_prefix = v4_prefix + session;
  for (auto hex : {v7_prefix + "7fffffff 0001 78",                   // topics
                   v7_prefix + "00000001 0001 78 7fffffff 00000000",  // partitions
                   v7_prefix + "00000000 7fffffff 0001 78",           // forgotten topics
                   v7_prefix + "00000000 00000001 0001 78 7fffffff"}) { // forgotten partitions
    auto req = decode(hex, 7);
    BOOST_REQUIRE(!req);
    BOOST_TEST(req.error() == err(errc::truncated), hex);
  }
}

BOOST_AUTO_TEST_SUITE_END()
