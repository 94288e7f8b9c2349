// OffsetCommit and OffsetFetch against hand-written bytes of the layouts in
// kafka-wire-notes.md §2d: the first and last advertised version of each and every
// version where the layout changes.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/offset_commit.hpp"
#include "protocol/wire/offset_fetch.hpp"
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

BOOST_AUTO_TEST_SUITE(wire_group_offsets)

// -- OffsetCommit -----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(offset_commit_v2_request_has_retention_time) {
  auto body = bytes_of(group + "00000001" + hex_str("m-1") + "000000000036ee80" + "00000001" +
                       hex_str("test") + "00000002" + "00000000 000000000000002a" +
                       hex_str("meta") + "00000001 fffffffffffffffe ffff");
  auto req = decode_offset_commit_request(view(body), 2);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_TEST(req->generation_id == 1);
  BOOST_TEST(req->member_id == "m-1");
  BOOST_TEST(!req->group_instance_id);
  BOOST_TEST(req->retention_time_ms == 3600000);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "test");
  auto& parts = req->topics[0].partitions;
  BOOST_REQUIRE(parts.size() == 2u);
  BOOST_TEST(parts[0].partition_index == 0);
  BOOST_TEST(parts[0].committed_offset == 42);
  BOOST_TEST(parts[0].committed_leader_epoch == -1);
  BOOST_TEST(parts[0].committed_metadata.value_or("") == "meta");
  BOOST_TEST(parts[1].partition_index == 1);
  BOOST_TEST(parts[1].committed_offset == -2); // kafkajs's "earliest" marker
  BOOST_TEST(!parts[1].committed_metadata);
}

BOOST_AUTO_TEST_CASE(offset_commit_v5_request_drops_retention_time) {
  auto body = bytes_of(group + "ffffffff" + hex_str("") + "00000001" + hex_str("test") +
                       "00000001" + "00000003 0000000000000010" + hex_str(""));
  auto req = decode_offset_commit_request(view(body), 5);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->generation_id == -1); // a commit from outside any group
  BOOST_TEST(req->member_id == "");
  BOOST_TEST(req->retention_time_ms == -1);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_REQUIRE(req->topics[0].partitions.size() == 1u);
  BOOST_TEST(req->topics[0].partitions[0].partition_index == 3);
  BOOST_TEST(req->topics[0].partitions[0].committed_offset == 16);
  BOOST_TEST(req->topics[0].partitions[0].committed_metadata.value_or("x") == "");
  // As v4 the topic count would be read as part of the retention time.
  BOOST_TEST(!decode_offset_commit_request(view(body), 4));
}

BOOST_AUTO_TEST_CASE(offset_commit_v6_request_adds_leader_epoch) {
  auto body = bytes_of(group + "00000002" + hex_str("m-1") + "00000001" + hex_str("test") +
                       "00000001" + "00000000 0000000000000064 00000005" + hex_str(""));
  auto req = decode_offset_commit_request(view(body), 6);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_REQUIRE(req->topics[0].partitions.size() == 1u);
  BOOST_TEST(req->topics[0].partitions[0].committed_offset == 100);
  BOOST_TEST(req->topics[0].partitions[0].committed_leader_epoch == 5);
}

BOOST_AUTO_TEST_CASE(offset_commit_v7_request_adds_group_instance_id) {
  auto body = bytes_of(group + "00000002" + hex_str("m-1") + hex_str("static-1") +
                       "00000002" + hex_str("a") + "00000000" + hex_str("b") + "00000001" +
                       "00000002 0000000000000001 ffffffff ffff");
  auto req = decode_offset_commit_request(view(body), 7);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_instance_id.value_or("") == "static-1");
  BOOST_REQUIRE(req->topics.size() == 2u);
  BOOST_TEST(req->topics[0].name == "a");
  BOOST_TEST(req->topics[0].partitions.empty());
  BOOST_TEST(req->topics[1].name == "b");
  BOOST_REQUIRE(req->topics[1].partitions.size() == 1u);
  BOOST_TEST(req->topics[1].partitions[0].partition_index == 2);
  BOOST_TEST(req->topics[1].partitions[0].committed_leader_epoch == -1);
}

BOOST_AUTO_TEST_CASE(offset_commit_truncated_partition_fails) {
  auto body = bytes_of(group + "00000002" + hex_str("m-1") + "00000001" + hex_str("test") +
                       "00000001" + "00000000 00000000000000");
  BOOST_TEST(decode_offset_commit_request(view(body), 5).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(offset_commit_hostile_partition_count_fails) {
  auto body = bytes_of(group + "00000002" + hex_str("m-1") + "00000001" + hex_str("test") +
                       "10000000");
  BOOST_TEST(decode_offset_commit_request(view(body), 7).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(offset_commit_responses) {
  offset_commit_response resp;
  resp.throttle_time_ms = 9;
  resp.topics.push_back({"test", {{0, 0}, {1, 22}}});
  auto topics = "00000001" + hex_str("test") + "00000002 00000000 0000 00000001 0016";
  BOOST_TEST(encoded(resp, 2, encode_offset_commit_response) == bytes_of(topics));
  for (int16_t version = 3; version <= 7; ++version)
    BOOST_TEST(encoded(resp, version, encode_offset_commit_response) ==
                 bytes_of("00000009" + topics),
               "v" << version);
}

// OffsetCommitRequest.json v8: v7's fields, compact strings and arrays, a tag buffer after
// each partition, each topic and the body. The first partition carries one unknown tagged
// field (tag 0, 2 bytes), which is skipped.
const std::string offset_commit_v8 =
  compact_group + "00000002" + hex_cstr("m-1") + "00" + // group_instance_id null
  "02" + hex_cstr("test") + "03" +
  "00000000 000000000000002a 00000005" + hex_cstr("meta") + "01 00 02 abcd" +
  "00000001 fffffffffffffffe ffffffff 00 00" + // null metadata, no tags
  "00" + "00";

BOOST_AUTO_TEST_CASE(offset_commit_v8_request_is_v7_flexible) {
  auto body = bytes_of(offset_commit_v8);
  auto req = decode_offset_commit_request(view(body), 8);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_TEST(req->generation_id == 2);
  BOOST_TEST(req->member_id == "m-1");
  BOOST_TEST(!req->group_instance_id);
  BOOST_TEST(req->retention_time_ms == -1);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "test");
  auto& parts = req->topics[0].partitions;
  BOOST_REQUIRE(parts.size() == 2u);
  BOOST_TEST(parts[0].partition_index == 0);
  BOOST_TEST(parts[0].committed_offset == 42);
  BOOST_TEST(parts[0].committed_leader_epoch == 5);
  BOOST_TEST(parts[0].committed_metadata.value_or("") == "meta");
  BOOST_TEST(parts[1].partition_index == 1);
  BOOST_TEST(parts[1].committed_offset == -2);
  BOOST_TEST(parts[1].committed_leader_epoch == -1);
  BOOST_TEST(!parts[1].committed_metadata);
  // As v7 the compact group id's length byte is read as half of an i16 length.
  BOOST_TEST(!decode_offset_commit_request(view(body), 7));
}

BOOST_AUTO_TEST_CASE(offset_commit_v8_request_with_static_member) {
  auto body = bytes_of(compact_group + "00000003" + hex_cstr("m-1") + hex_cstr("static-1") +
                       "01" + "00"); // no topics, no tags
  auto req = decode_offset_commit_request(view(body), 8);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_instance_id.value_or("") == "static-1");
  BOOST_TEST(req->topics.empty());
}

BOOST_AUTO_TEST_CASE(offset_commit_v8_request_without_tags_is_truncated) {
  auto body = bytes_of(offset_commit_v8);
  body.pop_back(); // the body's tag buffer
  BOOST_TEST(decode_offset_commit_request(view(body), 8).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(offset_commit_v8_hostile_partition_count_fails) {
  // 0x7fffffff partitions (count+1 = 2^31, uvarint 80 80 80 80 08) in a short body.
  auto body = bytes_of(compact_group + "00000001" + hex_cstr("m-1") + "00" + "02" +
                       hex_cstr("test") + "8080808008");
  auto req = under_memory_cap([&] { return decode_offset_commit_request(view(body), 8); });
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(offset_commit_v8_response_is_flexible) {
  offset_commit_response resp;
  resp.throttle_time_ms = 9;
  resp.topics.push_back({"test", {{0, 0}, {1, 22}}});
  resp.topics.push_back({"other", {}});
  BOOST_TEST(encoded(resp, 8, encode_offset_commit_response) ==
             bytes_of("00000009 03" + hex_cstr("test") + "03" + "00000000 0000 00" +
                      "00000001 0016 00" + "00" + hex_cstr("other") + "01 00" + "00"));
}

BOOST_AUTO_TEST_CASE(offset_commit_v8_is_flexible_from_its_header_on) {
  BOOST_TEST(find_advertised(8)->max_version == 8);
  BOOST_TEST(is_flexible(8, 8));
  BOOST_TEST(!is_flexible(8, 7));
  BOOST_TEST(response_header_is_flexible(8, 8));
  BOOST_TEST(!response_header_is_flexible(8, 7));
}

// -- OffsetFetch ------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(offset_fetch_v1_request) {
  auto body = bytes_of(group + "00000002" + hex_str("test") + "00000002 00000000 00000001" +
                       hex_str("other") + "00000000");
  auto req = decode_offset_fetch_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "my-group");
  BOOST_REQUIRE(req->topics);
  BOOST_REQUIRE(req->topics->size() == 2u);
  BOOST_TEST((*req->topics)[0].name == "test");
  BOOST_TEST((*req->topics)[0].partition_indexes == std::vector<int32_t>({0, 1}));
  BOOST_TEST((*req->topics)[1].name == "other");
  BOOST_TEST((*req->topics)[1].partition_indexes.empty());
}

BOOST_AUTO_TEST_CASE(offset_fetch_null_topics_means_all_from_v2) {
  auto body = bytes_of(group + "ffffffff");
  auto req = decode_offset_fetch_request(view(body), 2);
  BOOST_REQUIRE(req);
  BOOST_TEST(!req->topics);
  BOOST_TEST(decode_offset_fetch_request(view(body), 1).error() == err(errc::bad_length));
  auto empty = bytes_of(group + "00000000");
  auto none = decode_offset_fetch_request(view(empty), 5);
  BOOST_REQUIRE(none);
  BOOST_REQUIRE(none->topics);
  BOOST_TEST(none->topics->empty());
}

BOOST_AUTO_TEST_CASE(offset_fetch_truncated_request_fails) {
  auto body = bytes_of(group + "00000001" + hex_str("test") + "00000002 00000000");
  BOOST_TEST(decode_offset_fetch_request(view(body), 5).error() == err(errc::truncated));
}

namespace {

offset_fetch_response fetched() {
  offset_fetch_response resp;
  resp.throttle_time_ms = 4;
  resp.error_code = 0;
  offset_fetch_partition_response committed;
  committed.partition_index = 0;
  committed.committed_offset = 42;
  committed.committed_leader_epoch = 3;
  committed.metadata = "m";
  offset_fetch_partition_response unknown; // nothing committed: -1, null metadata
  unknown.partition_index = 1;
  resp.topics.push_back({"test", {committed, unknown}});
  return resp;
}

const std::string committed_v1 = "00000000 000000000000002a" + hex_str("m") + "0000";
const std::string unknown_v1 = "00000001 ffffffffffffffff ffff 0000";

} // namespace

BOOST_AUTO_TEST_CASE(offset_fetch_v1_response) {
  BOOST_TEST(encoded(fetched(), 1, encode_offset_fetch_response) ==
             bytes_of("00000001" + hex_str("test") + "00000002" + committed_v1 + unknown_v1));
}

BOOST_AUTO_TEST_CASE(offset_fetch_v2_response_adds_top_level_error) {
  auto resp = fetched();
  resp.error_code = 16;
  BOOST_TEST(encoded(resp, 2, encode_offset_fetch_response) ==
             bytes_of("00000001" + hex_str("test") + "00000002" + committed_v1 + unknown_v1 +
                      "0010"));
}

BOOST_AUTO_TEST_CASE(offset_fetch_v3_response_adds_throttle_and_v4_is_v3) {
  auto v3 = bytes_of("00000004 00000001" + hex_str("test") + "00000002" + committed_v1 +
                     unknown_v1 + "0000");
  BOOST_TEST(encoded(fetched(), 3, encode_offset_fetch_response) == v3);
  BOOST_TEST(encoded(fetched(), 4, encode_offset_fetch_response) == v3);
}

BOOST_AUTO_TEST_CASE(offset_fetch_v5_response_adds_leader_epoch) {
  BOOST_TEST(encoded(fetched(), 5, encode_offset_fetch_response) ==
             bytes_of("00000004 00000001" + hex_str("test") + "00000002" +
                      "00000000 000000000000002a 00000003" + hex_str("m") + "0000" +
                      "00000001 ffffffffffffffff ffffffff ffff 0000" + "0000"));
}

BOOST_AUTO_TEST_CASE(offset_fetch_v6_is_flexible_and_v7_adds_require_stable) {
  // "g", topics null (all; compact 0), then v7's require_stable.
  auto v6 = decode_offset_fetch_request(view(from_hex("02 67 00 00")), 6);
  BOOST_REQUIRE(v6);
  BOOST_TEST(v6->group_id == "g");
  BOOST_TEST(!v6->topics);
  auto v7 = decode_offset_fetch_request(view(from_hex("02 67 02 05 74657374 02 00000001 00 01 00")), 7);
  BOOST_REQUIRE(v7);
  BOOST_TEST((v7->topics->at(0).partition_indexes == std::vector<int32_t>{1}));
  BOOST_TEST(v7->require_stable);
  BOOST_TEST(!decode_offset_fetch_request(view(from_hex("02 67 00")), 7)); // require_stable missing
  auto enc = encoded(fetched(), 6, encode_offset_fetch_response);
  BOOST_TEST(enc == bytes_of("00000004 02 05 74657374 03"
                             " 00000000 000000000000002a 00000003 02 6d 0000 00"
                             " 00000001 ffffffffffffffff ffffffff 00 0000 00 00 0000 00"));
  BOOST_TEST(encoded(fetched(), 7, encode_offset_fetch_response) == enc);
}

BOOST_AUTO_TEST_SUITE_END()
