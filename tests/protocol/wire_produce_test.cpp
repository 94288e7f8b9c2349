// Produce v0-v7 against the layouts in produce.hpp and kafka-wire-notes.md §2b: hand-written
// request bodies for the versions where the request layout changes (v0, v3 = first with
// transactional_id, v7 = last), responses for every version where the response changes
// (v0, v1, v2, v5, v7), the samples of every version, and malformed input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "protocol/legacy_message_set.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/produce.hpp"
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

// kafka-python 2.0.2's two magic 1 messages (see legacy_message_set_test.cpp): 75 bytes.
const std::string legacy_set_hex =
    "0000000000000000 00000018 e4e321bc 01 00 00000000000003e8 00000001 6b 00000001 76"
    "0000000000000001 0000001b f1e00981 01 00 00000000000003ef ffffffff 00000005 68656c6c6f";

std::string records_of(const produce_request& req, size_t topic = 0, size_t partition = 0) {
  auto& records = req.topics.at(topic).partitions.at(partition).records;
  BOOST_REQUIRE(records.has_value());
  return std::string{records->begin(), records->end()};
}

std::vector<char> encode(const produce_response& resp, int16_t version) {
  return encoded(resp, version, encode_produce_response);
}

produce_response one_partition_response() {
  produce_partition_response p;
  p.index = 1;
  p.error_code = 0;
  p.base_offset = 42;
  p.log_append_time_ms = -1;
  p.log_start_offset = 5;
  produce_response resp;
  resp.topics = {{"orders", {p}}};
  resp.throttle_time_ms = 7;
  return resp;
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_produce)

BOOST_AUTO_TEST_CASE(decodes_a_v0_request_with_a_legacy_message_set) {
  auto body = from_hex("ffff"              // acks -1
                       "00007530"          // timeout_ms 30000
                       "00000001"          // topic_data: 1 topic
                       "0006 6f7264657273" // name "orders"
                       "00000001"          // partition_data: 1 partition
                       "00000000"          // index 0
                       "0000004b"          // records: 75 bytes
                       + legacy_set_hex);
  auto req = decode_produce_request(view(body), 0);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(!req->transactional_id.has_value());
  BOOST_TEST(req->acks == -1);
  BOOST_TEST(req->timeout_ms == 30000);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "orders");
  BOOST_REQUIRE(req->topics[0].partitions.size() == 1u);
  BOOST_TEST(req->topics[0].partitions[0].index == 0);
  auto legacy = from_hex(legacy_set_hex);
  BOOST_TEST(records_of(*req) == std::string(legacy.begin(), legacy.end()));
}

BOOST_AUTO_TEST_CASE(v3_starts_with_transactional_id) {
  auto body = from_hex("ffff"              // transactional_id: null
                       "0001"              // acks 1
                       "00001388"          // timeout_ms 5000
                       "00000001"          // topic_data: 1 topic
                       "0006 6f7264657273" // name "orders"
                       "00000001"          // partition_data: 1 partition
                       "00000002"          // index 2
                       "0000005f"          // records: 95 bytes
                       + std::string{golden_batch_hex});
  auto req = decode_produce_request(view(body), 3);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(!req->transactional_id.has_value());
  BOOST_TEST(req->acks == 1);
  BOOST_TEST(req->timeout_ms == 5000);
  BOOST_TEST(req->topics.at(0).partitions.at(0).index == 2);
  auto golden = from_hex(golden_batch_hex);
  BOOST_TEST(records_of(*req) == std::string(golden.begin(), golden.end()));
  // The same bytes read as v2 take the null transactional_id for acks: a different request.
  auto as_v2 = decode_produce_request(view(body), 2);
  BOOST_TEST((!as_v2 || as_v2->acks != 1));
}

BOOST_AUTO_TEST_CASE(v7_with_a_transactional_id_two_topics_and_null_records) {
  auto body = from_hex("0003 747831"       // transactional_id "tx1"
                       "ffff"              // acks -1
                       "00000064"          // timeout_ms 100
                       "00000002"          // topic_data: 2 topics
                       "0006 6f7264657273" // name "orders"
                       "00000002"          // partition_data: 2 partitions
                       "00000000"          // index 0
                       "0000005f"          // records: 95 bytes
                       + std::string{golden_batch_hex} +
                       "00000001"   // index 1
                       "ffffffff"   // records: null
                       "0001 78"    // name "x"
                       "00000001"   // partition_data: 1 partition
                       "00000003"   // index 3
                       "00000000"); // records: empty
  auto req = decode_produce_request(view(body), 7);
  BOOST_REQUIRE_MESSAGE(req, req.error().message());
  BOOST_TEST(*req->transactional_id == "tx1");
  BOOST_TEST(req->acks == -1);
  BOOST_TEST(req->timeout_ms == 100);
  BOOST_REQUIRE(req->topics.size() == 2u);
  BOOST_REQUIRE(req->topics[0].partitions.size() == 2u);
  BOOST_TEST(records_of(*req, 0, 0).size() == 95u);
  BOOST_TEST(req->topics[0].partitions[1].index == 1);
  BOOST_TEST(!req->topics[0].partitions[1].records.has_value());
  BOOST_TEST(req->topics[1].name == "x");
  BOOST_TEST(req->topics[1].partitions.at(0).index == 3);
  BOOST_TEST(records_of(*req, 1, 0).empty());
}

BOOST_AUTO_TEST_CASE(encodes_v0_without_throttle) {
  BOOST_TEST(encode(one_partition_response(), 0) ==
             from_hex("00000001 0006 6f7264657273 00000001"
                      "00000001 0000 000000000000002a"));
}

BOOST_AUTO_TEST_CASE(encodes_v1_with_throttle_last) {
  BOOST_TEST(encode(one_partition_response(), 1) ==
             from_hex("00000001 0006 6f7264657273 00000001"
                      "00000001 0000 000000000000002a"
                      "00000007"));
}

BOOST_AUTO_TEST_CASE(encodes_v2_to_v4_with_log_append_time) {
  auto expected = from_hex("00000001 0006 6f7264657273 00000001"
                           "00000001 0000 000000000000002a ffffffffffffffff"
                           "00000007");
  for (int16_t v : {2, 3, 4})
    BOOST_TEST(encode(one_partition_response(), v) == expected, "version " << v);
}

BOOST_AUTO_TEST_CASE(encodes_v5_to_v7_with_log_start_offset) {
  auto expected = from_hex("00000001 0006 6f7264657273 00000001"
                           "00000001 0000 000000000000002a ffffffffffffffff 0000000000000005"
                           "00000007");
  for (int16_t v : {5, 6, 7})
    BOOST_TEST(encode(one_partition_response(), v) == expected, "version " << v);
}

BOOST_AUTO_TEST_CASE(encodes_errors_and_several_partitions) {
  produce_partition_response unknown;
  unknown.index = 9;
  unknown.error_code = 3; // UNKNOWN_TOPIC_OR_PARTITION
  produce_response resp;
  resp.topics = {{"a", {unknown, unknown}}, {"b", {}}};
  BOOST_TEST(encode(resp, 3) == from_hex("00000002"
                                         "0001 61 00000002"
                                         "00000009 0003 ffffffffffffffff ffffffffffffffff"
                                         "00000009 0003 ffffffffffffffff ffffffffffffffff"
                                         "0001 62 00000000"
                                         "00000000"));
}

BOOST_AUTO_TEST_CASE(samples_write_to_orders) {
  for (auto& s : samples_of(api_key::produce)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_produce_request(view(s.body), s.version);
      BOOST_REQUIRE_MESSAGE(req, req.error().message());
      BOOST_TEST(req->topics.at(0).name == "orders");
    }
  }
}

BOOST_AUTO_TEST_CASE(sample_records_are_real_batches) {
  for (auto& s : samples_of(api_key::produce)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_produce_request(view(s.body), s.version);
      BOOST_REQUIRE(req);
      auto records = records_of(*req);
      if (s.version >= 3) {
        BOOST_TEST(cafka::protocol::magic_of(records) == 2);
        auto read = cafka::protocol::read_records(records, 1 << 20);
        BOOST_REQUIRE_MESSAGE(read, read.error().message());
        BOOST_TEST(read->size() == 2u);
      } else {
        BOOST_TEST(cafka::protocol::magic_of(records) == 1);
        BOOST_TEST(bool(cafka::protocol::convert_legacy_message_set(records, {})));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_counts_fail_before_allocating) {
  // A count of 2^31-1 elements with a few bytes behind it. A decoder that reserved
  // that many elements would throw bad_alloc (or abort under ASan) instead.
  auto topics = from_hex("ffff 0001 00000064 7fffffff 0001 78");
  auto req = decode_produce_request(view(topics), 3);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
  auto partitions = from_hex("ffff 00000064 00000001 0001 78 7fffffff 00000000 ffffffff");
  req = decode_produce_request(view(partitions), 0);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(negative_lengths_fail) {
  // records length -2, topic count -2, name length -1.
  for (auto hex : {"ffff 00000064 00000001 0001 78 00000001 00000000 fffffffe",
                   "ffff 00000064 fffffffe", "ffff 00000064 00000001 ffff 00000000"}) {
    auto body = from_hex(hex);
    auto req = decode_produce_request(view(body), 0);
    BOOST_REQUIRE(!req);
    BOOST_TEST(req.error() == err(errc::bad_length), hex);
  }
}

BOOST_AUTO_TEST_SUITE_END()
