// ListGroups and DescribeGroups against hand-written bytes of the layouts in
// list_groups.hpp and describe_groups.hpp (Kafka's ListGroups*.json and DescribeGroups*.json):
// every version where the layout changes.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/describe_groups.hpp"
#include "protocol/wire/list_groups.hpp"
#include "protocol/wire/request_header.hpp"
#include "test_support.hpp"
#include "wire_group_hex.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using namespace cafka::wire::test;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;

namespace {

// A stable consumer group of one kafka-python member, as DescribeGroups shows it.
described_group stable_group() {
  described_group g;
  g.group_id = "my-group";
  g.group_state = "Stable";
  g.protocol_type = "consumer";
  g.protocol_data = "range";
  described_group_member m;
  m.member_id = "m-1";
  m.client_id = "kp";
  m.client_host = "/127.0.0.1";
  m.member_metadata = from_hex(subscription_v0_test);
  m.member_assignment = from_hex(assignment_v0_test);
  g.members.push_back(m);
  return g;
}

// The stable_group() bytes up to the member's group_instance_id, and from its client id on.
const std::string group_head = "0000" + group + hex_str("Stable") + hex_str("consumer") +
                               hex_str("range") + "00000001" + hex_str("m-1");
const std::string member_tail = hex_str("kp") + hex_str("/127.0.0.1") +
                                hex_bytes(subscription_v0_test) + hex_bytes(assignment_v0_test);

} // namespace

BOOST_AUTO_TEST_SUITE(wire_list_describe_groups)

// -- ListGroups -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(list_groups_request_has_no_fields) {
  std::vector<char> empty;
  for (int16_t v = 0; v <= 2; ++v)
    BOOST_TEST(bool(decode_list_groups_request(view(empty), v)));
}

BOOST_AUTO_TEST_CASE(list_groups_v0_response) {
  list_groups_response resp;
  resp.throttle_time_ms = 99; // not in v0
  resp.groups = {{"my-group", "consumer"}, {"offsets-only", ""}};
  BOOST_TEST(encoded(resp, 0, encode_list_groups_response) ==
             bytes_of("0000 00000002" + group + hex_str("consumer") + hex_str("offsets-only") +
                      hex_str("")));
}

BOOST_AUTO_TEST_CASE(list_groups_v1_and_v2_responses_add_throttle) {
  list_groups_response resp;
  resp.throttle_time_ms = 7;
  resp.error_code = 15;
  auto expected = from_hex("00000007 000f 00000000");
  BOOST_TEST(encoded(resp, 1, encode_list_groups_response) == expected);
  BOOST_TEST(encoded(resp, 2, encode_list_groups_response) == expected);
}

// -- DescribeGroups ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(describe_groups_v0_request_is_the_group_ids) {
  auto body = bytes_of("00000002" + group + hex_str("other"));
  auto req = decode_describe_groups_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->groups == (std::vector<std::string>{"my-group", "other"}));
  BOOST_TEST(!req->include_authorized_operations);
}

BOOST_AUTO_TEST_CASE(describe_groups_v3_request_adds_authorized_operations_flag) {
  auto body = bytes_of("00000001" + group + "01");
  auto req = decode_describe_groups_request(view(body), 3);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->groups == std::vector<std::string>{"my-group"});
  BOOST_TEST(req->include_authorized_operations);
  // v2 reads the same bytes without the flag.
  BOOST_TEST(!decode_describe_groups_request(view(body), 2)->include_authorized_operations);
}

BOOST_AUTO_TEST_CASE(describe_groups_v4_request_without_flag_is_truncated) {
  auto body = bytes_of("00000001" + group);
  BOOST_TEST(decode_describe_groups_request(view(body), 4).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(describe_groups_hostile_group_count_fails) {
  auto body = from_hex("7fffffff 0001 41");
  auto req = under_memory_cap([&] { return decode_describe_groups_request(view(body), 0); });
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(describe_groups_v0_response) {
  describe_groups_response resp;
  resp.throttle_time_ms = 99; // not in v0
  resp.groups.push_back(stable_group());
  BOOST_TEST(encoded(resp, 0, encode_describe_groups_response) ==
             bytes_of("00000001" + group_head + member_tail));
}

BOOST_AUTO_TEST_CASE(describe_groups_v1_v2_responses_add_throttle) {
  describe_groups_response resp;
  resp.throttle_time_ms = 7;
  resp.groups.push_back(stable_group());
  auto expected = bytes_of("00000007 00000001" + group_head + member_tail);
  BOOST_TEST(encoded(resp, 1, encode_describe_groups_response) == expected);
  BOOST_TEST(encoded(resp, 2, encode_describe_groups_response) == expected);
}

BOOST_AUTO_TEST_CASE(describe_groups_v3_response_adds_authorized_operations) {
  describe_groups_response resp;
  resp.groups.push_back(stable_group());
  BOOST_TEST(encoded(resp, 3, encode_describe_groups_response) ==
             bytes_of("00000000 00000001" + group_head + member_tail + "80000000"));
}

BOOST_AUTO_TEST_CASE(describe_groups_v4_response_adds_member_instance_id) {
  describe_groups_response resp;
  resp.groups.push_back(stable_group());
  BOOST_TEST(encoded(resp, 4, encode_describe_groups_response) ==
             bytes_of("00000000 00000001" + group_head + "ffff" + member_tail + "80000000"));
  resp.groups[0].members[0].group_instance_id = "static-1";
  BOOST_TEST(encoded(resp, 4, encode_describe_groups_response) ==
             bytes_of("00000000 00000001" + group_head + hex_str("static-1") + member_tail +
                      "80000000"));
}

BOOST_AUTO_TEST_CASE(describe_groups_dead_group_response) {
  // Kafka's answer for a group it does not know: no error, state Dead, nothing else.
  describe_groups_response resp;
  described_group g;
  g.group_id = "gone";
  g.group_state = "Dead";
  resp.groups.push_back(g);
  BOOST_TEST(encoded(resp, 1, encode_describe_groups_response) ==
             bytes_of("00000000 00000001 0000" + hex_str("gone") + hex_str("Dead") + hex_str("") +
                      hex_str("") + "00000000"));
}

BOOST_AUTO_TEST_CASE(describe_groups_v5_request_is_v4_flexible) {
  // DescribeGroupsRequest.json v5: groups as a compact array of compact strings, the flag,
  // then the body's tag buffer (here one unknown field: tag 3, 1 byte).
  auto body = bytes_of("03" + compact_group + hex_cstr("other") + "01" + "01 03 01 ff");
  auto req = decode_describe_groups_request(view(body), 5);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->groups == (std::vector<std::string>{"my-group", "other"}));
  BOOST_TEST(req->include_authorized_operations);
  // As v4 the compact count byte is read as part of an i32 count.
  BOOST_TEST(!decode_describe_groups_request(view(body), 4));
}

BOOST_AUTO_TEST_CASE(describe_groups_v5_request_edges) {
  // A null array (0) describes nothing, as in the classic versions.
  auto none = decode_describe_groups_request(view(from_hex("00 00 00")), 5);
  BOOST_REQUIRE(none);
  BOOST_TEST(none->groups.empty());
  // The tag buffer is part of the body.
  auto untagged = bytes_of("02" + compact_group + "00");
  BOOST_TEST(decode_describe_groups_request(view(untagged), 5).error() ==
             err(errc::truncated));
  // A null group id is not a string.
  BOOST_TEST(decode_describe_groups_request(view(from_hex("02 00 00 00")), 5).error() ==
             err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(describe_groups_v5_response_is_v4_flexible) {
  describe_groups_response resp;
  resp.throttle_time_ms = 3;
  resp.groups.push_back(stable_group());
  // Compact strings and bytes, a tag buffer after the member, the group and the body.
  auto head = "00000003 02" + std::string{"0000"} + compact_group + hex_cstr("Stable") +
              hex_cstr("consumer") + hex_cstr("range") + "02" + hex_cstr("m-1");
  auto tail = hex_cstr("kp") + hex_cstr("/127.0.0.1") + hex_cbytes(subscription_v0_test) +
              hex_cbytes(assignment_v0_test) + "00" + "80000000 00" + "00";
  BOOST_TEST(encoded(resp, 5, encode_describe_groups_response) == bytes_of(head + "00" + tail));
  resp.groups[0].members[0].group_instance_id = "static-1";
  BOOST_TEST(encoded(resp, 5, encode_describe_groups_response) ==
             bytes_of(head + hex_cstr("static-1") + tail));
}

BOOST_AUTO_TEST_CASE(describe_groups_v5_dead_group_response) {
  describe_groups_response resp;
  described_group g;
  g.group_id = "gone";
  g.group_state = "Dead";
  resp.groups.push_back(g);
  BOOST_TEST(encoded(resp, 5, encode_describe_groups_response) ==
             bytes_of("00000000 02 0000" + hex_cstr("gone") + hex_cstr("Dead") + "01 01" +
                      "01" + "80000000 00" + "00"));
}

BOOST_AUTO_TEST_CASE(describe_groups_v5_is_flexible_from_its_header_on) {
  BOOST_TEST(find_advertised(15)->max_version == 5);
  BOOST_TEST(is_flexible(15, 5));
  BOOST_TEST(!is_flexible(15, 4));
  BOOST_TEST(response_header_is_flexible(15, 5));
}

BOOST_AUTO_TEST_CASE(every_sample_decodes_to_its_groups) {
  for (auto& s : samples_of(api_key::describe_groups)) {
    auto req = decode_describe_groups_request(view(s.body), s.version);
    BOOST_REQUIRE(req);
    BOOST_TEST(!req->groups.empty(), "v" << s.version);
    BOOST_TEST(req->groups.front() == "my-group", "v" << s.version);
  }
  BOOST_TEST(samples_of(api_key::list_groups).size() == 5u);
}

BOOST_AUTO_TEST_CASE(list_groups_v3_is_flexible_and_v4_filters_by_state_and_names_it) {
  auto v4 = decode_list_groups_request(view(from_hex("03 07 537461626c65 06 456d707479 00")), 4);
  BOOST_REQUIRE(v4);
  BOOST_TEST((v4->states_filter == std::vector<std::string>{"Stable", "Empty"}));
  BOOST_TEST(decode_list_groups_request(view(from_hex("00")), 3)->states_filter.empty());
  BOOST_TEST(!decode_list_groups_request(view(from_hex("03 07")), 4));
  list_groups_response resp;
  resp.groups.push_back({"g", "consumer", "Stable"});
  BOOST_TEST(encoded(resp, 3, encode_list_groups_response) ==
             bytes_of("00000000 0000 02 02 67 09 636f6e73756d6572 00 00"));
  BOOST_TEST(encoded(resp, 4, encode_list_groups_response) ==
             bytes_of("00000000 0000 02 02 67 09 636f6e73756d6572 07 537461626c65 00 00"));
}

BOOST_AUTO_TEST_SUITE_END()
