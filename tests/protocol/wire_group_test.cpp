// FindCoordinator, JoinGroup, SyncGroup, Heartbeat and LeaveGroup against hand-written
// bytes of the layouts in kafka-wire-notes.md §2d: the first and last version of each
// and every version where the layout changes.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/find_coordinator.hpp"
#include "protocol/wire/heartbeat.hpp"
#include "protocol/wire/join_group.hpp"
#include "protocol/wire/leave_group.hpp"
#include "protocol/wire/sync_group.hpp"
#include "test_support.hpp"
#include "wire_group_hex.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using namespace cafka::wire::test;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;

BOOST_AUTO_TEST_SUITE(wire_group)

// -- FindCoordinator ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(find_coordinator_v0_request_is_just_the_key) {
  auto body = bytes_of(group);
  auto req = decode_find_coordinator_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->key == "my-group");
  BOOST_TEST(req->key_type == 0);
}

BOOST_AUTO_TEST_CASE(find_coordinator_v2_request_has_key_type) {
  auto body = bytes_of(hex_str("txn") + "01");
  auto req = decode_find_coordinator_request(view(body), 2);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->key == "txn");
  BOOST_TEST(req->key_type == 1);
  // The same bytes as v0 ignore the trailing key type.
  BOOST_TEST(decode_find_coordinator_request(view(body), 0)->key == "txn");
}

BOOST_AUTO_TEST_CASE(find_coordinator_v1_request_without_key_type_is_truncated) {
  auto body = bytes_of(group);
  BOOST_TEST(decode_find_coordinator_request(view(body), 1).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(find_coordinator_truncated_key_fails) {
  auto body = from_hex("0008 6d792d67");
  BOOST_TEST(decode_find_coordinator_request(view(body), 0).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(find_coordinator_v0_response) {
  find_coordinator_response resp;
  resp.throttle_time_ms = 99;     // not in v0
  resp.error_message = "ignored"; // not in v0
  resp.node_id = 1;
  resp.host = "localhost";
  resp.port = 9092;
  BOOST_TEST(encoded(resp, 0, encode_find_coordinator_response) ==
             bytes_of("0000 00000001" + hex_str("localhost") + "00002384"));
}

BOOST_AUTO_TEST_CASE(find_coordinator_v2_response) {
  find_coordinator_response resp;
  resp.throttle_time_ms = 7;
  resp.error_code = 15;
  BOOST_TEST(encoded(resp, 2, encode_find_coordinator_response) ==
             from_hex("00000007 000f ffff ffffffff 0000 ffffffff"));
  resp.error_message = "busy";
  BOOST_TEST(encoded(resp, 1, encode_find_coordinator_response) ==
             bytes_of("00000007 000f" + hex_str("busy") + "ffffffff 0000 ffffffff"));
}

// -- JoinGroup --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(join_group_v0_request_has_no_rebalance_timeout) {
  auto body = bytes_of(group + "00002710" + hex_str("") + hex_str("consumer") + "00000001" +
                       hex_str("range") + hex_bytes(subscription_v0_test));
  auto req = decode_join_group_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_TEST(req->session_timeout_ms == 10000);
  BOOST_TEST(req->rebalance_timeout_ms == 10000); // Kafka's stand-in for v0
  BOOST_TEST(req->member_id == "");
  BOOST_TEST(!req->group_instance_id);
  BOOST_TEST(req->protocol_type == "consumer");
  BOOST_REQUIRE(req->protocols.size() == 1u);
  BOOST_TEST(req->protocols[0].name == "range");
  BOOST_TEST(req->protocols[0].metadata == from_hex(subscription_v0_test));
}

BOOST_AUTO_TEST_CASE(join_group_v1_request_adds_rebalance_timeout) {
  auto body = bytes_of(group + "00002710 000493e0" + hex_str("m-1") + hex_str("consumer") +
                       "00000000");
  auto req = decode_join_group_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->session_timeout_ms == 10000);
  BOOST_TEST(req->rebalance_timeout_ms == 300000);
  BOOST_TEST(req->member_id == "m-1");
  BOOST_TEST(req->protocols.empty());
}

BOOST_AUTO_TEST_CASE(join_group_v5_request_adds_group_instance_id) {
  auto body = bytes_of(group + "0000afc8 000493e0" + hex_str("") + hex_str("static-1") +
                       hex_str("consumer") + "00000002" + hex_str("range") +
                       hex_bytes(subscription_v1_test) + hex_str("roundrobin") + "00000000");
  auto req = decode_join_group_request(view(body), 5);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->session_timeout_ms == 45000);
  BOOST_TEST(req->rebalance_timeout_ms == 300000);
  BOOST_TEST(req->group_instance_id.value_or("") == "static-1");
  BOOST_TEST(req->protocol_type == "consumer");
  BOOST_REQUIRE(req->protocols.size() == 2u);
  BOOST_TEST(req->protocols[0].metadata == from_hex(subscription_v1_test));
  BOOST_TEST(req->protocols[1].name == "roundrobin");
  BOOST_TEST(req->protocols[1].metadata.empty());

  // Null instance id: librdkafka without group.instance.id.
  auto null_id = bytes_of(group + "0000afc8 000493e0" + hex_str("") + "ffff" +
                          hex_str("consumer") + "00000000");
  auto dynamic = decode_join_group_request(view(null_id), 5);
  BOOST_REQUIRE(dynamic);
  BOOST_TEST(!dynamic->group_instance_id);
}

BOOST_AUTO_TEST_CASE(join_group_truncated_metadata_fails) {
  auto body = bytes_of(group + "00002710" + hex_str("") + hex_str("consumer") + "00000001" +
                       hex_str("range") + "00000010 0000");
  BOOST_TEST(decode_join_group_request(view(body), 0).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(join_group_hostile_protocol_count_fails) {
  auto body = bytes_of(group + "00002710" + hex_str("") + hex_str("consumer") + "7fffffff");
  BOOST_TEST(decode_join_group_request(view(body), 0).error() == err(errc::truncated));
}

namespace {

join_group_response leader_response() {
  join_group_response resp;
  resp.throttle_time_ms = 5;
  resp.generation_id = 1;
  resp.protocol_name = "range";
  resp.leader = "m-1";
  resp.member_id = "m-1";
  resp.members.push_back({"m-1", std::string{"static-1"}, from_hex("0102")});
  return resp;
}

} // namespace

BOOST_AUTO_TEST_CASE(join_group_v0_response) {
  BOOST_TEST(encoded(leader_response(), 0, encode_join_group_response) ==
             bytes_of("0000 00000001" + hex_str("range") + hex_str("m-1") + hex_str("m-1") +
                      "00000001" + hex_str("m-1") + "00000002 0102"));
}

BOOST_AUTO_TEST_CASE(join_group_v2_response_adds_throttle_and_v3_v4_are_v2) {
  auto v2 = bytes_of("00000005 0000 00000001" + hex_str("range") + hex_str("m-1") +
                     hex_str("m-1") + "00000001" + hex_str("m-1") + "00000002 0102");
  for (int16_t version = 2; version <= 4; ++version)
    BOOST_TEST(encoded(leader_response(), version, encode_join_group_response) == v2,
               "v" << version);
}

BOOST_AUTO_TEST_CASE(join_group_v5_response_adds_member_instance_id) {
  auto resp = leader_response();
  resp.members.push_back({"m-2", std::nullopt, {}});
  BOOST_TEST(encoded(resp, 5, encode_join_group_response) ==
             bytes_of("00000005 0000 00000001" + hex_str("range") + hex_str("m-1") +
                      hex_str("m-1") + "00000002" + hex_str("m-1") + hex_str("static-1") +
                      "00000002 0102" + hex_str("m-2") + "ffff 00000000"));
}

// -- SyncGroup --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(sync_group_v0_request_from_the_leader) {
  auto body = bytes_of(group + "00000001" + hex_str("m-1") + "00000002" + hex_str("m-1") +
                       hex_bytes(assignment_v0_test) + hex_str("m-2") + "00000000");
  auto req = decode_sync_group_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_TEST(req->generation_id == 1);
  BOOST_TEST(req->member_id == "m-1");
  BOOST_TEST(!req->group_instance_id);
  BOOST_REQUIRE(req->assignments.size() == 2u);
  BOOST_TEST(req->assignments[0].member_id == "m-1");
  BOOST_TEST(req->assignments[0].assignment == from_hex(assignment_v0_test));
  BOOST_TEST(req->assignments[1].member_id == "m-2");
  BOOST_TEST(req->assignments[1].assignment.empty());
}

BOOST_AUTO_TEST_CASE(sync_group_v3_request_adds_group_instance_id) {
  auto body = bytes_of(group + "00000004" + hex_str("m-2") + hex_str("static-2") + "00000000");
  auto req = decode_sync_group_request(view(body), 3);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->generation_id == 4);
  BOOST_TEST(req->group_instance_id.value_or("") == "static-2");
  BOOST_TEST(req->assignments.empty());
  // Read as v2, the instance id's bytes are taken for the array count: 0x0008 7374...
  // promises far more assignments than there are bytes.
  BOOST_TEST(!decode_sync_group_request(view(body), 2));
}

BOOST_AUTO_TEST_CASE(sync_group_truncated_request_fails) {
  auto body = bytes_of(group + "000000");
  BOOST_TEST(decode_sync_group_request(view(body), 1).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(sync_group_responses) {
  sync_group_response resp;
  resp.throttle_time_ms = 3;
  resp.assignment = from_hex(assignment_v0_test);
  BOOST_TEST(encoded(resp, 0, encode_sync_group_response) ==
             bytes_of("0000" + hex_bytes(assignment_v0_test)));
  for (int16_t version = 1; version <= 3; ++version)
    BOOST_TEST(encoded(resp, version, encode_sync_group_response) ==
                 bytes_of("00000003 0000" + hex_bytes(assignment_v0_test)),
               "v" << version);
  sync_group_response failed;
  failed.error_code = 27;
  BOOST_TEST(encoded(failed, 3, encode_sync_group_response) ==
             from_hex("00000000 001b 00000000"));
}

// -- Heartbeat --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(heartbeat_v0_request) {
  auto body = bytes_of(group + "00000007" + hex_str("m-1"));
  auto req = decode_heartbeat_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_TEST(req->generation_id == 7);
  BOOST_TEST(req->member_id == "m-1");
  BOOST_TEST(!req->group_instance_id);
}

BOOST_AUTO_TEST_CASE(heartbeat_v3_request_adds_group_instance_id) {
  auto body = bytes_of(group + "00000007" + hex_str("m-1") + hex_str("static-1"));
  auto req = decode_heartbeat_request(view(body), 3);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_instance_id.value_or("") == "static-1");
  auto without = bytes_of(group + "00000007" + hex_str("m-1"));
  BOOST_TEST(decode_heartbeat_request(view(without), 3).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(heartbeat_responses) {
  heartbeat_response resp{100, 27};
  BOOST_TEST(encoded(resp, 0, encode_heartbeat_response) == from_hex("001b"));
  for (int16_t version = 1; version <= 3; ++version)
    BOOST_TEST(encoded(resp, version, encode_heartbeat_response) == from_hex("00000064 001b"),
               "v" << version);
}

// -- LeaveGroup -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(leave_group_requests) {
  auto body = bytes_of(group + hex_str("m-1"));
  for (int16_t version : {0, 1}) {
    auto req = decode_leave_group_request(view(body), version);
    BOOST_REQUIRE(req);
    BOOST_TEST(req->group_id == "my-group");
    BOOST_TEST(req->member_id == "m-1");
  }
  auto truncated = bytes_of(group + "0003 6d2d");
  BOOST_TEST(decode_leave_group_request(view(truncated), 1).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(leave_group_responses) {
  leave_group_response resp{2, 25};
  BOOST_TEST(encoded(resp, 0, encode_leave_group_response) == from_hex("0019"));
  BOOST_TEST(encoded(resp, 1, encode_leave_group_response) == from_hex("00000002 0019"));
}

BOOST_AUTO_TEST_CASE(negative_string_length_fails) {
  auto body = from_hex("fffe 00000001");
  BOOST_TEST(decode_heartbeat_request(view(body), 0).error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_SUITE_END()
