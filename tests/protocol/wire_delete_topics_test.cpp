// DeleteTopics v0-v3 against the byte layouts of protocol/wire/delete_topics.hpp and
// kafka-wire-notes.md §2e: the request is the same in every version, the response gains
// throttle_time_ms in v1.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/delete_topics.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;
using cafka::wire::test::samples_of;
using cafka::wire::test::under_memory_cap;

namespace {

using names = std::vector<std::string>;

std::string encoded_hex(const delete_topics_response& resp, int16_t version) {
  return to_hex(view(encoded(resp, version, encode_delete_topics_response)));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_delete_topics)

BOOST_AUTO_TEST_CASE(decodes_v0_and_v3_requests) {
  auto body = from_hex("00000002 0006 6f7264657273 0008 7061796d656e7473 00001388");
  for (int16_t v : {0, 3}) {
    BOOST_TEST_CONTEXT("version " << v) {
      auto req = decode_delete_topics_request(view(body), v);
      BOOST_REQUIRE(req);
      BOOST_TEST(req->topic_names == (names{"orders", "payments"}),
                 boost::test_tools::per_element());
      BOOST_TEST(req->timeout_ms == 5000);
    }
  }
}

BOOST_AUTO_TEST_CASE(ignores_trailing_bytes) {
  auto body = from_hex("00000001 0006 6f7264657273 00001388 ffff");
  auto req = decode_delete_topics_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->topic_names == names{"orders"}, boost::test_tools::per_element());
  BOOST_TEST(req->timeout_ms == 5000);
}

BOOST_AUTO_TEST_CASE(null_topic_names_are_malformed) {
  auto body = from_hex("ffffffff 00001388");
  auto req = decode_delete_topics_request(view(body), 3);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(samples_delete_orders_and_payments) {
  for (auto& s : samples_of(api_key::delete_topics)) {
    BOOST_TEST_CONTEXT("version " << s.version) {
      auto req = decode_delete_topics_request(view(s.body), s.version);
      BOOST_REQUIRE(req);
      BOOST_TEST(req->topic_names == (names{"orders", "payments"}),
                 boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_name_count_fails_before_allocating) {
  auto body = from_hex("7fffffff 0001 61 00001388");
  auto req = under_memory_cap([&] { return decode_delete_topics_request(view(body), 3); });
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(encodes_v0_response) {
  delete_topics_response resp{4, {{"orders", 0}, {"gone", 3}}};
  BOOST_TEST(encoded_hex(resp, 0) == hex("00000002 0006 6f7264657273 0000 0004 676f6e65 0003"));
}

BOOST_AUTO_TEST_CASE(encodes_v1_to_v3_response_with_throttle_first) {
  delete_topics_response resp{4, {{"orders", 0}, {"gone", 3}}};
  auto expected = hex("00000004 00000002 0006 6f7264657273 0000 0004 676f6e65 0003");
  for (int16_t v = 1; v <= 3; ++v)
    BOOST_TEST(encoded_hex(resp, v) == expected, "version " << v);
}

BOOST_AUTO_TEST_SUITE_END()
