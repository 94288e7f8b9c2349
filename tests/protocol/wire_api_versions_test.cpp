// Request header, response framing and ApiVersions against the byte layouts of
// kafka-wire-notes.md §2a (librdkafka's 40-byte ApiVersions v3 request, and a v3 reply).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/api_versions.hpp"
#include "protocol/wire/request_header.hpp"
#include "test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;

BOOST_AUTO_TEST_SUITE(wire_api_versions)

BOOST_AUTO_TEST_CASE(decodes_librdkafkas_v3_request) {
  // Without the size prefix 00000024.
  auto frame = from_hex("0012 0003 00000001 0007 7264 6b61 666b 61 00"
                        "0b 6c69 6272 646b 6166 6b61 06 322e 302e 32 00");
  byte_reader r{view(frame)};
  auto h = decode_request_header(r);
  BOOST_REQUIRE(h);
  BOOST_TEST(h->api_key == 18);
  BOOST_TEST(h->api_version == 3);
  BOOST_TEST(h->correlation_id == 1);
  BOOST_TEST(*h->client_id == "rdkafka");
  auto req = decode_api_versions_request(r.rest(), 3);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->client_software_name == "librdkafka");
  BOOST_TEST(req->client_software_version == "2.0.2");
}

BOOST_AUTO_TEST_CASE(encodes_the_v3_reply_with_header_v0) {
  api_versions_response resp;
  resp.api_keys = {{3, 0, 6}, {18, 0, 3}};
  std::vector<char> out;
  auto start = begin_response(out, 1, response_header_is_flexible(18, 3));
  byte_writer w{out};
  encode_api_versions_response(resp, 3, w);
  end_response(out, start);
  BOOST_TEST(out == from_hex("0000001a 00000001 0000 03 0003 0000 0006 00 0012 0000 0003 00"
                             "00000000 00"));
}

BOOST_AUTO_TEST_CASE(encodes_v0_and_v1_layouts) {
  api_versions_response resp;
  resp.api_keys = {{0, 0, 7}};
  std::vector<char> v0, v1;
  byte_writer w0{v0}, w1{v1};
  encode_api_versions_response(resp, 0, w0);
  encode_api_versions_response(resp, 1, w1);
  BOOST_TEST(v0 == from_hex("0000 00000001 0000 0000 0007"));
  BOOST_TEST(v1 == from_hex("0000 00000001 0000 0000 0007 00000000"));
}

BOOST_AUTO_TEST_CASE(unknown_version_answer_is_v0_layout_with_error_35) {
  std::vector<char> out;
  byte_writer w{out};
  encode_api_versions_response(unsupported_api_versions_response(), 0, w);
  BOOST_TEST(out == from_hex("0023 00000001 0012 0000 0003"));
}

BOOST_AUTO_TEST_CASE(v3_request_with_truncated_body_fails) {
  auto body = from_hex("0b 6c69 6272");
  BOOST_TEST(!decode_api_versions_request(view(body), 3));
}

BOOST_AUTO_TEST_CASE(header_of_an_unknown_api_stops_after_client_id) {
  auto frame = from_hex("7fff 0009 0000002a ffff 01 02");
  byte_reader r{view(frame)};
  auto h = decode_request_header(r);
  BOOST_REQUIRE(h);
  BOOST_TEST(!h->client_id.has_value());
  BOOST_TEST(r.remaining() == 2u);
}

BOOST_AUTO_TEST_CASE(hostile_array_count_fails_before_allocating) {
  auto bytes = from_hex("7fffffff 0001");
  byte_reader r{view(bytes)};
  BOOST_TEST(read_array_count(r, 4) == 0);
  BOOST_TEST(!r.ok());
}

BOOST_AUTO_TEST_SUITE_END()
