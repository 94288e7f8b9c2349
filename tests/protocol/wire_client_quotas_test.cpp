// DescribeClientQuotas and AlterClientQuotas v0-v1 against the byte layouts of
// protocol/wire/client_quotas.hpp (Kafka's DescribeClientQuotas*.json / AlterClientQuotas*.json:
// v1 is v0 in the flexible encoding).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/client_quotas.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

namespace {

// "client-id", "app", "producer_byte_rate", 1048576.0
constexpr const char* client_id_v0 = "0009 636c69656e742d6964";
constexpr const char* app_v0 = "0003 617070";

} // namespace

BOOST_AUTO_TEST_SUITE(wire_client_quotas)

BOOST_AUTO_TEST_CASE(decodes_describe_requests_v0_and_v1) {
  auto v0 = from_hex(std::string("00000001 ") + client_id_v0 + " 00 " + app_v0 + " 01");
  auto req = decode_describe_client_quotas_request(view(v0), 0);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->components.size() == 1u);
  BOOST_TEST(req->components[0].entity_type == "client-id");
  BOOST_TEST(req->components[0].match_type == 0);
  BOOST_TEST(*req->components[0].match == "app");
  BOOST_TEST(req->strict);
  // v1: compact array (n+1), compact strings (len+1), a tag buffer after each struct.
  auto v1 = from_hex("02 0a 636c69656e742d6964 02 00 00 00 00");
  auto flex = decode_describe_client_quotas_request(view(v1), 1);
  BOOST_REQUIRE(flex);
  BOOST_TEST(flex->components[0].match_type == 2); // any client-id
  BOOST_TEST(!flex->components[0].match.has_value());
  BOOST_TEST(!flex->strict);
}

BOOST_AUTO_TEST_CASE(decodes_alter_requests_with_set_and_remove) {
  auto v0 = from_hex(std::string("00000001 00000001 ") + client_id_v0 + " " + app_v0
                     + " 00000002 0012 70726f64756365725f627974655f72617465 4130000000000000 00"
                       " 0012 636f6e73756d65725f627974655f72617465 0000000000000000 01"
                       " 01");
  auto req = decode_alter_client_quotas_request(view(v0), 0);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->entries.size() == 1u);
  auto& e = req->entries[0];
  BOOST_TEST(e.entity[0].entity_type == "client-id");
  BOOST_TEST(*e.entity[0].entity_name == "app");
  BOOST_REQUIRE(e.ops.size() == 2u);
  BOOST_TEST(e.ops[0].key == "producer_byte_rate");
  BOOST_TEST(e.ops[0].value == 1048576.0);
  BOOST_TEST(!e.ops[0].remove);
  BOOST_TEST(e.ops[1].remove);
  BOOST_TEST(req->validate_only);
  // v1: the default client-id (null name), one op, each struct with its tag buffer.
  auto v1 = from_hex("02 02 0a 636c69656e742d6964 00 00"
                     " 02 13 70726f64756365725f627974655f72617465 4130000000000000 00 00"
                     " 00 00 00");
  auto flex = decode_alter_client_quotas_request(view(v1), 1);
  BOOST_REQUIRE(flex);
  BOOST_TEST(!flex->entries[0].entity[0].entity_name.has_value());
  BOOST_TEST(flex->entries[0].ops[0].value == 1048576.0);
  BOOST_TEST(!flex->validate_only);
}

BOOST_AUTO_TEST_CASE(truncated_requests_fail) {
  auto v0 = from_hex(std::string("00000001 00000001 ") + client_id_v0 + " " + app_v0
                     + " 00000001 0012 70726f64756365725f627974655f72617465 4130000000000000 00 00");
  BOOST_REQUIRE(decode_alter_client_quotas_request(view(v0), 0));
  for (size_t n = 0; n < v0.size(); ++n) {
    std::vector<char> cut(v0.begin(), v0.begin() + static_cast<std::ptrdiff_t>(n));
    BOOST_TEST(!decode_alter_client_quotas_request(view(cut), 0), "cut at " << n);
  }
  auto d = from_hex(std::string("00000001 ") + client_id_v0 + " 00 " + app_v0 + " 01");
  for (size_t n = 0; n < d.size(); ++n) {
    std::vector<char> cut(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n));
    BOOST_TEST(!decode_describe_client_quotas_request(view(cut), 0), "cut at " << n);
  }
}

BOOST_AUTO_TEST_CASE(encodes_describe_responses) {
  describe_client_quotas_response resp;
  resp.entries = std::vector<client_quota_entry>{
    {{{"client-id", std::string("app")}}, {{"producer_byte_rate", 1048576.0}}}};
  BOOST_TEST(to_hex(view(encoded(resp, 0, encode_describe_client_quotas_response)))
             == hex((std::string("00000000 0000 ffff 00000001 00000001 ") + client_id_v0 + " " + app_v0
                     + " 00000001 0012 70726f64756365725f627974655f72617465 4130000000000000")
                      .c_str()));
  BOOST_TEST(to_hex(view(encoded(resp, 1, encode_describe_client_quotas_response)))
             == hex("00000000 0000 00 02 02 0a 636c69656e742d6964 04 617070 00"
                    " 02 13 70726f64756365725f627974655f72617465 4130000000000000 00 00 00"));
  describe_client_quotas_response failed;
  failed.error_code = 42;
  failed.error_message = "x";
  BOOST_TEST(to_hex(view(encoded(failed, 0, encode_describe_client_quotas_response)))
             == hex("00000000 002a 0001 78 ffffffff"));
}

BOOST_AUTO_TEST_CASE(encodes_alter_responses) {
  alter_client_quotas_response resp;
  resp.entries.push_back({0, std::nullopt, {{"client-id", std::nullopt}}});
  BOOST_TEST(to_hex(view(encoded(resp, 0, encode_alter_client_quotas_response)))
             == hex((std::string("00000000 00000001 0000 ffff 00000001 ") + client_id_v0 + " ffff").c_str()));
  BOOST_TEST(to_hex(view(encoded(resp, 1, encode_alter_client_quotas_response)))
             == hex("00000000 02 0000 00 02 0a 636c69656e742d6964 00 00 00 00"));
}

// The client's side (cafka-configs) writes what the broker's decoders read and reads what
// its encoders write (those are checked against the bytes above).
BOOST_AUTO_TEST_CASE(client_side_round_trips) {
  for (int16_t v = 0; v <= 1; ++v) {
    describe_client_quotas_request dreq{{{"client-id", 1, std::nullopt}}, true};
    std::vector<char> bytes;
    byte_writer w{bytes};
    encode_describe_client_quotas_request(dreq, v, w);
    auto dback = decode_describe_client_quotas_request(view(bytes), v);
    BOOST_REQUIRE(dback);
    BOOST_TEST(dback->components.size() == 1u);
    BOOST_TEST(dback->components[0].match_type == 1);
    BOOST_TEST(dback->strict);

    describe_client_quotas_response dresp;
    dresp.entries = std::vector<client_quota_entry>{{{{"client-id", std::string("app")}}, {{"consumer_byte_rate", 2.5}}}};
    auto dr = decode_describe_client_quotas_response(view(encoded(dresp, v, encode_describe_client_quotas_response)), v);
    BOOST_REQUIRE(dr);
    BOOST_REQUIRE(dr->entries);
    BOOST_TEST(dr->entries->at(0).values.at(0).value == 2.5);
    BOOST_TEST(*dr->entries->at(0).entity.at(0).entity_name == "app");

    alter_client_quotas_request areq;
    areq.entries.push_back({{{"client-id", std::string("app")}}, {{"producer_byte_rate", 1024.0, false}}});
    bytes.clear();
    encode_alter_client_quotas_request(areq, v, w);
    auto aback = decode_alter_client_quotas_request(view(bytes), v);
    BOOST_REQUIRE(aback);
    BOOST_TEST(aback->entries.at(0).ops.at(0).value == 1024.0);

    alter_client_quotas_response aresp;
    aresp.entries.push_back({42, std::string("bad"), {{"client-id", std::string("app")}}});
    auto ar = decode_alter_client_quotas_response(view(encoded(aresp, v, encode_alter_client_quotas_response)), v);
    BOOST_REQUIRE(ar);
    BOOST_TEST(ar->entries.at(0).error_code == 42);
    BOOST_TEST(*ar->entries.at(0).error_message == "bad");
  }
}

BOOST_AUTO_TEST_SUITE_END()
