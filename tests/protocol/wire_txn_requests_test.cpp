// The transactional producer's requests (AddPartitionsToTxn, AddOffsetsToTxn, EndTxn,
// TxnOffsetCommit) against Kafka's layouts: v0 as librdkafka sends it, v3 flexible.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/describe_producers.hpp"
#include "protocol/wire/transactions_admin.hpp"
#include "protocol/wire/txn_offset_commit.hpp"
#include "protocol/wire/txn_partitions_requests.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;
using cafka::wire::test::encoded;

BOOST_AUTO_TEST_SUITE(wire_txn_requests)

BOOST_AUTO_TEST_CASE(add_partitions_v0_and_v3) {
  // "tx", producer 7 epoch 1, topic "t" partitions 0 and 2
  auto v0 = from_hex("0002 7478 0000000000000007 0001 00000001 0001 74 00000002 00000000 00000002");
  auto req = decode_add_partitions_to_txn_request(view(v0), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->transactional_id == "tx");
  BOOST_TEST(req->producer_id == 7);
  BOOST_TEST(req->producer_epoch == 1);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "t");
  BOOST_TEST((req->topics[0].partitions == std::vector<int32_t>{0, 2}));
  auto v3 = from_hex("03 7478 0000000000000007 0001 02 02 74 03 00000000 00000002 00 00");
  auto flexible = decode_add_partitions_to_txn_request(view(v3), 3);
  BOOST_REQUIRE(flexible);
  BOOST_TEST((flexible->topics[0].partitions == std::vector<int32_t>{0, 2}));
  BOOST_TEST(!decode_add_partitions_to_txn_request(view(from_hex("0002 7478 00")), 0));

  add_partitions_to_txn_response resp{5, {{"t", {{0, 0}, {2, 51}}}}};
  BOOST_TEST(to_hex(view(encoded(resp, 0, encode_add_partitions_to_txn_response))) ==
             hex("00000005 00000001 0001 74 00000002 00000000 0000 00000002 0033"));
  BOOST_TEST(to_hex(view(encoded(resp, 3, encode_add_partitions_to_txn_response))) ==
             hex("00000005 02 02 74 03 00000000 0000 00 00000002 0033 00 00 00"));
}

BOOST_AUTO_TEST_CASE(add_offsets_and_end_txn) {
  auto offsets = from_hex("0002 7478 0000000000000007 0001 0001 67");
  auto add = decode_add_offsets_to_txn_request(view(offsets), 0);
  BOOST_REQUIRE(add);
  BOOST_TEST(add->group_id == "g");
  auto end = decode_end_txn_request(view(from_hex("0002 7478 0000000000000007 0001 01")), 1);
  BOOST_REQUIRE(end);
  BOOST_TEST(end->committed);
  auto flexible = decode_end_txn_request(view(from_hex("03 7478 0000000000000007 0001 00 00")), 3);
  BOOST_REQUIRE(flexible);
  BOOST_TEST(!flexible->committed);
  BOOST_TEST(to_hex(view(encoded(txn_error_response{0, 48}, 0, encode_txn_error_response))) == hex("00000000 0030"));
  BOOST_TEST(to_hex(view(encoded(txn_error_response{0, 48}, 3, encode_txn_error_response))) == hex("00000000 0030 00"));
}

BOOST_AUTO_TEST_CASE(txn_offset_commit_v0_v2_and_v3) {
  // "tx", group "g", producer 7 epoch 1, topic "t" partition 0 at offset 42, metadata null
  auto v0 = from_hex("0002 7478 0001 67 0000000000000007 0001 00000001 0001 74 00000001 00000000 000000000000002a ffff");
  auto req = decode_txn_offset_commit_request(view(v0), 0);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->group_id == "g");
  BOOST_TEST(req->topics[0].partitions[0].committed_offset == 42);
  BOOST_TEST(!req->topics[0].partitions[0].committed_metadata);
  auto v2 = from_hex("0002 7478 0001 67 0000000000000007 0001 00000001 0001 74 00000001 00000000 000000000000002a 00000003 0000");
  auto with_epoch = decode_txn_offset_commit_request(view(v2), 2);
  BOOST_REQUIRE(with_epoch);
  BOOST_TEST(with_epoch->topics[0].partitions[0].committed_leader_epoch == 3);
  BOOST_TEST(*with_epoch->topics[0].partitions[0].committed_metadata == "");
  // v3: generation 5, member "m", no instance id
  auto v3 = from_hex("03 7478 02 67 0000000000000007 0001 00000005 02 6d 00 02 02 74 02 00000000 000000000000002a 00000003 01 00 00 00");
  auto member = decode_txn_offset_commit_request(view(v3), 3);
  BOOST_REQUIRE(member);
  BOOST_TEST(member->generation_id == 5);
  BOOST_TEST(member->member_id == "m");
  BOOST_TEST(!member->group_instance_id);
  BOOST_TEST(member->topics[0].partitions[0].committed_offset == 42);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(wire_describe_producers)

BOOST_AUTO_TEST_CASE(decodes_the_request_and_encodes_kafkas_response) {
  auto body = from_hex("02 02 74 03 00000000 00000001 00 00");
  auto req = cafka::wire::decode_describe_producers_request(view(body), 0);
  BOOST_REQUIRE(req);
  BOOST_REQUIRE(req->topics.size() == 1u);
  BOOST_TEST(req->topics[0].name == "t");
  BOOST_TEST((req->topics[0].partition_indexes == std::vector<int32_t>{0, 1}));
  describe_producers_response resp;
  describe_producers_partition p;
  p.partition_index = 0;
  p.active_producers.push_back({7, 1, 9, 1000, -1, 40});
  resp.topics.push_back({"t", {p}});
  BOOST_TEST(to_hex(view(encoded(resp, 0, encode_describe_producers_response))) ==
             hex("00000000 02 02 74 02 00000000 0000 00 02"
                 " 0000000000000007 00000001 00000009 00000000000003e8 ffffffff 0000000000000028 00"
                 " 00 00 00"));
}

BOOST_AUTO_TEST_CASE(describe_and_list_transactions) {
  // ids "a" and "tx"
  auto describe = decode_describe_transactions_request(view(from_hex("03 02 61 03 7478 00")), 0);
  BOOST_REQUIRE(describe);
  BOOST_TEST((describe->transactional_ids == std::vector<std::string>{"a", "tx"}));
  BOOST_TEST(!decode_describe_transactions_request(view(from_hex("03 02 61")), 0));
  describe_transactions_response d{0, {{0, "tx", "Ongoing", 60000, 5, 7, 1, {{"t", {0, 2}}}}, {105, "a", "", 0, -1, -1, -1, {}}}};
  BOOST_TEST(to_hex(view(encoded(d, 0, encode_describe_transactions_response))) ==
             hex("00000000 03"
                 " 0000 03 7478 08 4f6e676f696e67 0000ea60 0000000000000005 0000000000000007 0001"
                 "  02 02 74 03 00000000 00000002 00 00"
                 " 0069 02 61 01 00000000 ffffffffffffffff ffffffffffffffff ffff 01 00"
                 " 00"));
  // states "Ongoing", producer 7; v1 adds the duration
  auto list0 = decode_list_transactions_request(view(from_hex("02 08 4f6e676f696e67 02 0000000000000007 00")), 0);
  BOOST_REQUIRE(list0);
  BOOST_TEST((list0->state_filters == std::vector<std::string>{"Ongoing"}));
  BOOST_TEST((list0->producer_id_filters == std::vector<int64_t>{7}));
  BOOST_TEST(list0->duration_filter == -1);
  auto list1 = decode_list_transactions_request(view(from_hex("01 01 00000000000003e8 00")), 1);
  BOOST_REQUIRE(list1);
  BOOST_TEST(list1->duration_filter == 1000);
  list_transactions_response l{0, 0, {"Bogus"}, {{"tx", 7, "Ongoing"}}};
  BOOST_TEST(to_hex(view(encoded(l, 1, encode_list_transactions_response))) ==
             hex("00000000 0000 02 06 426f677573 02 03 7478 0000000000000007 08 4f6e676f696e67 00 00"));
}

BOOST_AUTO_TEST_SUITE_END()
