// DescribeConfigs v0-v2, AlterConfigs v0-v1 and IncrementalAlterConfigs v0-v1 against the byte
// layouts of protocol/wire/configs.hpp (Kafka's DescribeConfigsRequest.json and the others;
// only IncrementalAlterConfigs v1 is flexible here).
#include <boost/test/unit_test.hpp>

#include "protocol/wire/configs.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

template <class F>
std::string encoded(F encode) {
  std::vector<char> out;
  byte_writer w{out};
  encode(w);
  return to_hex(view(out));
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_configs)

BOOST_AUTO_TEST_CASE(decodes_describe_configs_requests) {
  // [{topic "t", keys ["a"]}, {broker "1", keys null}], v1+: include_synonyms.
  auto v0 = from_hex("00000002 02 0001 74 00000001 0001 61 04 0001 31 ffffffff");
  auto r = decode_describe_configs_request(view(v0), 0);
  BOOST_REQUIRE(r);
  BOOST_REQUIRE_EQUAL(r->resources.size(), 2u);
  BOOST_TEST(r->resources[0].resource_type == 2);
  BOOST_TEST(r->resources[0].resource_name == "t");
  BOOST_TEST((*r->resources[0].configuration_keys == std::vector<std::string>{"a"}));
  BOOST_TEST(!r->resources[1].configuration_keys);
  BOOST_TEST(!r->include_synonyms);
  auto v1 = from_hex("00000001 04 0001 31 ffffffff 01");
  for (int16_t v : {1, 2}) {
    auto r1 = decode_describe_configs_request(view(v1), v);
    BOOST_REQUIRE(r1);
    BOOST_TEST(r1->include_synonyms);
  }
  BOOST_TEST(!decode_describe_configs_request(view(from_hex("00000001 02 0001")), 0));
}

BOOST_AUTO_TEST_CASE(encodes_describe_configs_responses_per_version) {
  describe_configs_response resp;
  described_config c{"k", std::string("v"), false, static_cast<int8_t>(config_source::default_config), false,
                     {{"k", std::string("v"), 5}}};
  resp.results.push_back({0, std::nullopt, 2, "t", {c}});
  auto enc = [&](int16_t v) { return encoded([&](byte_writer& w) { encode_describe_configs_response(resp, v, w); }); };
  // v0: is_default (1 for a default) where v1+ has the source, and no synonyms.
  BOOST_TEST(enc(0) == hex("00000000 00000001 0000 ffff 02 0001 74 00000001 0001 6b 0001 76 00 01 00"));
  BOOST_TEST(enc(1) == hex("00000000 00000001 0000 ffff 02 0001 74 00000001 0001 6b 0001 76 00 05 00"
                           " 00000001 0001 6b 0001 76 05"));
  BOOST_TEST(enc(2) == enc(1));
  // The client decodes what the broker encodes.
  for (int16_t v : {0, 1, 2}) {
    std::vector<char> out;
    byte_writer w{out};
    encode_describe_configs_response(resp, v, w);
    auto back = decode_describe_configs_response(view(out), v);
    BOOST_REQUIRE(back);
    BOOST_TEST(back->results.at(0).configs.at(0).config_source == 5);
    BOOST_TEST(back->results.at(0).configs.at(0).synonyms.size() == (v == 0 ? 0u : 1u));
  }
}

BOOST_AUTO_TEST_CASE(decodes_alter_and_incremental_alter_requests) {
  // AlterConfigs v0/v1: [{topic "t", [("a", "1"), ("b", null)]}], validate_only.
  auto alter = from_hex("00000001 02 0001 74 00000002 0001 61 0001 31 0001 62 ffff 01");
  for (int16_t v : {0, 1}) {
    auto r = decode_alter_configs_request(view(alter), v);
    BOOST_REQUIRE(r);
    BOOST_TEST(!r->incremental);
    BOOST_TEST(r->validate_only);
    BOOST_REQUIRE_EQUAL(r->resources.at(0).configs.size(), 2u);
    BOOST_TEST(*r->resources[0].configs[0].value == "1");
    BOOST_TEST(!r->resources[0].configs[1].value);
  }
  // IncrementalAlterConfigs v0: an operation after each name; v1 flexible.
  auto inc0 = from_hex("00000001 04 0001 31 00000001 0001 61 01 ffff 00");
  auto r0 = decode_incremental_alter_configs_request(view(inc0), 0);
  BOOST_REQUIRE(r0);
  BOOST_TEST(r0->incremental);
  BOOST_TEST(r0->resources.at(0).configs.at(0).operation == 1);
  auto inc1 = from_hex("02 04 02 31 02 02 61 00 02 35 00 00 00 00");
  auto r1 = decode_incremental_alter_configs_request(view(inc1), 1);
  BOOST_REQUIRE(r1);
  BOOST_TEST(*r1->resources.at(0).configs.at(0).value == "5");
  BOOST_TEST(!decode_incremental_alter_configs_request(view(inc1), 0));
}

BOOST_AUTO_TEST_CASE(encodes_alter_responses_and_the_client_side_round_trips) {
  alter_configs_response resp;
  resp.responses.push_back({40, std::string("x"), 2, "t"});
  auto enc = [&](bool inc, int16_t v) {
    return encoded([&](byte_writer& w) { encode_alter_configs_response(resp, inc, v, w); });
  };
  BOOST_TEST(enc(false, 0) == hex("00000000 00000001 0028 0001 78 02 0001 74"));
  BOOST_TEST(enc(false, 1) == enc(false, 0));
  BOOST_TEST(enc(true, 0) == enc(false, 0));
  BOOST_TEST(enc(true, 1) == hex("00000000 02 0028 02 78 02 02 74 00 00"));
  alter_configs_request req{true, {{4, "", {{"r", 0, std::string("9")}}}}, false};
  for (int16_t v : {0, 1}) {
    std::vector<char> out;
    byte_writer w{out};
    encode_alter_configs_request(req, v, w);
    auto back = decode_incremental_alter_configs_request(view(out), v);
    BOOST_REQUIRE(back);
    BOOST_TEST(back->resources.at(0).resource_type == 4);
    BOOST_TEST(*back->resources.at(0).configs.at(0).value == "9");
    std::vector<char> answer;
    byte_writer aw{answer};
    encode_alter_configs_response(resp, true, v, aw);
    auto decoded = decode_alter_configs_response(view(answer), true, v);
    BOOST_REQUIRE(decoded);
    BOOST_TEST(decoded->responses.at(0).error_code == 40);
  }
}

BOOST_AUTO_TEST_SUITE_END()
