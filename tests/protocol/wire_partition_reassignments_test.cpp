// AlterPartitionReassignments and ListPartitionReassignments v0 (flexible) against the byte
// layouts of protocol/wire/partition_reassignments.hpp, and the client side round trip.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/partition_reassignments.hpp"
#include "test_support.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

BOOST_AUTO_TEST_SUITE(wire_partition_reassignments)

BOOST_AUTO_TEST_CASE(an_alter_request_carries_moves_and_cancels) {
  // timeout 1000, [{"t", [{0, [2, 3]}, {1, null}]}]
  auto body = from_hex("000003e8 02 02 74 03 00000000 03 00000002 00000003 00 00000001 00 00 00 00");
  auto req = decode_alter_partition_reassignments_request(view(body));
  BOOST_REQUIRE(req);
  BOOST_TEST(req->timeout_ms == 1000);
  BOOST_REQUIRE_EQUAL(req->topics.at(0).partitions.size(), 2u);
  BOOST_TEST((*req->topics[0].partitions[0].replicas == std::vector<int32_t>{2, 3}));
  BOOST_TEST(!req->topics[0].partitions[1].replicas);
  std::vector<char> again;
  byte_writer w{again};
  encode_alter_partition_reassignments_request(*req, w);
  BOOST_TEST(to_hex(view(again)) == to_hex(view(body)));
  BOOST_TEST(!decode_alter_partition_reassignments_request(view(from_hex("000003e8 02 02 74 03 00000000"))));
}

BOOST_AUTO_TEST_CASE(responses_round_trip_through_the_client_side) {
  alter_partition_reassignments_response alter;
  alter.responses.push_back({"t", {{0, 0, std::nullopt}, {1, 85, std::string("x")}}});
  std::vector<char> out;
  byte_writer w{out};
  encode_alter_partition_reassignments_response(alter, w);
  BOOST_TEST(to_hex(view(out))
             == to_hex(view(from_hex("00000000 0000 00 02 02 74 03 00000000 0000 00 00 00000001 0055 02 78 00 00 00"))));
  auto back = decode_alter_partition_reassignments_response(view(out));
  BOOST_REQUIRE(back);
  BOOST_TEST(back->responses.at(0).partitions.at(1).error_code == 85);

  list_partition_reassignments_response list;
  list.topics.push_back({"t", {{0, {4, 1, 2}, {4}, {1}}}});
  std::vector<char> listed;
  byte_writer lw{listed};
  encode_list_partition_reassignments_response(list, lw);
  auto decoded = decode_list_partition_reassignments_response(view(listed));
  BOOST_REQUIRE(decoded);
  auto& p = decoded->topics.at(0).partitions.at(0);
  BOOST_TEST((p.replicas == std::vector<int32_t>{4, 1, 2}));
  BOOST_TEST((p.adding_replicas == std::vector<int32_t>{4}));
  BOOST_TEST((p.removing_replicas == std::vector<int32_t>{1}));

  list_partition_reassignments_request all;
  std::vector<char> req;
  byte_writer rw{req};
  encode_list_partition_reassignments_request(all, rw);
  BOOST_TEST(to_hex(view(req)) == to_hex(view(from_hex("0000ea60 00 00")))); // 60000 ms, null topics
  auto asked = decode_list_partition_reassignments_request(view(req));
  BOOST_REQUIRE(asked);
  BOOST_TEST(!asked->topics);
}

BOOST_AUTO_TEST_SUITE_END()
