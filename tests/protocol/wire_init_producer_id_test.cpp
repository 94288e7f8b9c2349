// InitProducerId v0-v4 against the byte layouts of protocol/wire/init_producer_id.hpp
// and kafka-wire-notes.md §2f (v1 is v0 on the wire; v2+ flexible; v3+ KIP-360).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/init_producer_id.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

namespace {

std::string encoded_hex(const init_producer_id_response& resp, int16_t version) {
  return to_hex(view(encoded(resp, version, encode_init_producer_id_response)));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_init_producer_id)

BOOST_AUTO_TEST_CASE(decodes_v0_transactional_request) {
  auto body = from_hex("0003 747831 0000ea60"); // "tx1", 60000 ms
  auto req = decode_init_producer_id_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->transactional_id.has_value());
  BOOST_TEST(*req->transactional_id == "tx1");
  BOOST_TEST(req->transaction_timeout_ms == 60000);
}

BOOST_AUTO_TEST_CASE(decodes_v1_idempotent_request_like_librdkafka) {
  auto body = from_hex("ffff ffffffff"); // null id, timeout -1
  auto req = decode_init_producer_id_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->transactional_id.has_value());
  BOOST_TEST(req->transaction_timeout_ms == -1);
}

BOOST_AUTO_TEST_CASE(ignores_trailing_bytes) {
  auto body = from_hex("ffff 0000ea60 00"); // kafkajs: null id, 60000 ms
  auto req = decode_init_producer_id_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->transactional_id.has_value());
  BOOST_TEST(req->transaction_timeout_ms == 60000);
}

BOOST_AUTO_TEST_CASE(hostile_id_length_fails) {
  auto body = from_hex("7fff 7478 0000ea60");
  auto req = decode_init_producer_id_request(view(body), 0);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(encodes_v0_and_v1_response) {
  init_producer_id_response resp{3, 0, 4242, 0};
  auto expected = to_hex(view(from_hex("00000003 0000 0000000000001092 0000")));
  BOOST_TEST(encoded_hex(resp, 0) == expected);
  BOOST_TEST(encoded_hex(resp, 1) == expected);
}

BOOST_AUTO_TEST_CASE(encodes_an_error_with_no_producer) {
  init_producer_id_response resp;
  resp.error_code = 15; // COORDINATOR_NOT_AVAILABLE
  BOOST_TEST(encoded_hex(resp, 1) ==
             to_hex(view(from_hex("00000000 000f ffffffffffffffff ffff"))));
}

BOOST_AUTO_TEST_CASE(decodes_v4_epoch_bump_request_like_librdkafka) {
  // compact null id, timeout -1, producer 4242 at epoch 3, no tagged fields
  auto body = from_hex("00 ffffffff 0000000000001092 0003 00");
  auto req = decode_init_producer_id_request(view(body), 4);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->transactional_id.has_value());
  BOOST_TEST(req->producer_id == 4242);
  BOOST_TEST(req->producer_epoch == 3);
}

BOOST_AUTO_TEST_CASE(decodes_v2_transactional_request_without_producer_fields) {
  auto body = from_hex("04 747831 0000ea60 00"); // compact "tx1", 60000 ms
  auto req = decode_init_producer_id_request(view(body), 2);
  BOOST_REQUIRE(req);
  BOOST_TEST(*req->transactional_id == "tx1");
  BOOST_TEST(req->producer_id == -1);
  BOOST_TEST(req->producer_epoch == -1);
}

BOOST_AUTO_TEST_CASE(v3_without_the_producer_fields_is_truncated) {
  auto body = from_hex("00 ffffffff 00");
  BOOST_TEST(!decode_init_producer_id_request(view(body), 3));
}

BOOST_AUTO_TEST_CASE(encodes_flexible_response_with_empty_tagged_fields) {
  init_producer_id_response resp{0, 0, 4242, 4};
  BOOST_TEST(encoded_hex(resp, 4) ==
             to_hex(view(from_hex("00000000 0000 0000000000001092 0004 00"))));
}

BOOST_AUTO_TEST_SUITE_END()
