// CreateTopics v0-v4 against the byte layouts of protocol/wire/create_topics.hpp and
// kafka-wire-notes.md §2e: v1 adds validate_only (request) and error_message (response),
// v2 adds throttle_time_ms (response); v3 and v4 are v2 on the wire.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/create_topics.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::str;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;
using cafka::wire::test::under_memory_cap;

namespace {

// Two topics, field by field: "orders" with 3 partitions, factor 1, no assignments and
// two configs (the second with a null value); "payments" with broker defaults (-1) and
// a manual assignment {0: [1], 1: [1, 2]}; then timeout_ms 30000.
const char* const two_topics_hex =
    "00000002"
    "0006 6f7264657273 00000003 0001"
    "00000000"
    "00000002"
    "000e 636c65616e75702e706f6c696379 0007 636f6d70616374"  // cleanup.policy=compact
    "000c 726574656e74696f6e2e6d73 ffff"                     // retention.ms=null
    "0008 7061796d656e7473 ffffffff ffff"
    "00000002"
    "00000000 00000001 00000001"
    "00000001 00000002 00000001 00000002"
    "00000000"
    "00007530";

void check_two_topics(const create_topics_request& req) {
  BOOST_REQUIRE_EQUAL(req.topics.size(), 2u);
  auto& orders = req.topics[0];
  BOOST_TEST(orders.name == "orders");
  BOOST_TEST(orders.num_partitions == 3);
  BOOST_TEST(orders.replication_factor == 1);
  BOOST_TEST(orders.assignments.empty());
  BOOST_REQUIRE_EQUAL(orders.configs.size(), 2u);
  BOOST_TEST(orders.configs[0].name == "cleanup.policy");
  BOOST_REQUIRE(orders.configs[0].value.has_value());
  BOOST_TEST(*orders.configs[0].value == "compact");
  BOOST_TEST(orders.configs[1].name == "retention.ms");
  BOOST_TEST(!orders.configs[1].value.has_value());
  auto& payments = req.topics[1];
  BOOST_TEST(payments.name == "payments");
  BOOST_TEST(payments.num_partitions == -1);
  BOOST_TEST(payments.replication_factor == -1);
  BOOST_REQUIRE_EQUAL(payments.assignments.size(), 2u);
  BOOST_TEST(payments.assignments[0].partition_index == 0);
  BOOST_TEST(payments.assignments[0].broker_ids == (std::vector<int32_t>{1}),
             boost::test_tools::per_element());
  BOOST_TEST(payments.assignments[1].partition_index == 1);
  BOOST_TEST(payments.assignments[1].broker_ids == (std::vector<int32_t>{1, 2}),
             boost::test_tools::per_element());
  BOOST_TEST(payments.configs.empty());
  BOOST_TEST(req.timeout_ms == 30000);
}

create_topics_response sample_response() {
  create_topics_response resp;
  resp.throttle_time_ms = 9;
  resp.topics = {{"orders", 0, std::nullopt}, {"payments", 36, str("exists")}};
  return resp;
}

std::string encoded_hex(const create_topics_response& resp, int16_t version) {
  return to_hex(view(encoded(resp, version, encode_create_topics_response)));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_create_topics)

BOOST_AUTO_TEST_CASE(decodes_v0_request) {
  auto body = from_hex(two_topics_hex);
  auto req = decode_create_topics_request(view(body), 0);
  BOOST_REQUIRE(req);
  check_two_topics(*req);
  BOOST_TEST(!req->validate_only);
}

BOOST_AUTO_TEST_CASE(v0_ignores_trailing_bytes) {
  auto body = from_hex(std::string{two_topics_hex} + "01");
  auto req = decode_create_topics_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->validate_only); // the trailing 01 is not v1's flag
}

BOOST_AUTO_TEST_CASE(decodes_v1_request_with_validate_only) {
  auto body = from_hex(std::string{two_topics_hex} + "01");
  auto req = decode_create_topics_request(view(body), 1);
  BOOST_REQUIRE(req);
  check_two_topics(*req);
  BOOST_TEST(req->validate_only);
}

BOOST_AUTO_TEST_CASE(decodes_v4_request) {
  auto body = from_hex(std::string{two_topics_hex} + "00");
  auto req = decode_create_topics_request(view(body), 4);
  BOOST_REQUIRE(req);
  check_two_topics(*req);
  BOOST_TEST(!req->validate_only);
}

BOOST_AUTO_TEST_CASE(v1_without_validate_only_is_truncated) {
  auto body = from_hex(two_topics_hex);
  auto req = decode_create_topics_request(view(body), 1);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(null_arrays_are_malformed) {
  // topics null; configs null; broker_ids null. None of them is nullable.
  for (auto hex_body : {"ffffffff 00007530",
                        "00000001 0001 61 00000001 0001 00000000 ffffffff 00007530",
                        "00000001 0001 61 00000001 0001 00000001 00000000 ffffffff"
                        "00000000 00007530"}) {
    BOOST_TEST_CONTEXT(hex_body) {
      auto body = from_hex(hex_body);
      auto req = decode_create_topics_request(view(body), 0);
      BOOST_REQUIRE(!req);
      BOOST_TEST(req.error() == err(errc::bad_length));
    }
  }
}

// Every version's sample is the two topics above; validate_only alternates from v1 on.
BOOST_AUTO_TEST_CASE(samples_create_the_two_topics) {
  for (auto& s : samples_of(api_key::create_topics)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_create_topics_request(view(s.body), s.version);
      BOOST_REQUIRE(req);
      check_two_topics(*req);
      BOOST_TEST(req->validate_only == (s.version % 2 == 1));
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_counts_fail_before_allocating) {
  // A hostile count for topics, assignments, broker_ids and configs in turn.
  for (auto hex_body : {"7fffffff 0001 61 00000001 0001 00000000 00000000 00007530",
                        "00000001 0001 61 00000001 0001 7fffffff 00000000 00007530",
                        "00000001 0001 61 00000001 0001 00000001 00000000 7fffffff"
                        "00000000 00007530",
                        "00000001 0001 61 00000001 0001 00000000 7fffffff 00007530"}) {
    BOOST_TEST_CONTEXT(hex_body) {
      auto body = from_hex(hex_body);
      auto req = under_memory_cap([&] { return decode_create_topics_request(view(body), 4); });
      BOOST_REQUIRE(!req);
      BOOST_TEST(req.error() == err(errc::truncated));
    }
  }
}

BOOST_AUTO_TEST_CASE(encodes_v0_response) {
  BOOST_TEST(encoded_hex(sample_response(), 0) ==
             hex("00000002 0006 6f7264657273 0000 0008 7061796d656e7473 0024"));
}

BOOST_AUTO_TEST_CASE(encodes_v1_response_with_error_message) {
  BOOST_TEST(encoded_hex(sample_response(), 1) ==
             hex("00000002 0006 6f7264657273 0000 ffff"
                 "0008 7061796d656e7473 0024 0006 657869737473"));
}

BOOST_AUTO_TEST_CASE(encodes_v2_to_v4_response_with_throttle_first) {
  auto expected = hex("00000009 00000002 0006 6f7264657273 0000 ffff"
                      "0008 7061796d656e7473 0024 0006 657869737473");
  for (int16_t v = 2; v <= 4; ++v)
    BOOST_TEST(encoded_hex(sample_response(), v) == expected, "version " << v);
}

BOOST_AUTO_TEST_SUITE_END()
