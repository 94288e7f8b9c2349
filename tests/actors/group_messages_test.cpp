// The group actor's messages survive CAF's serialization (they cross the middleman between
// cafka's client and a node), optional instance ids included, present or absent.

#include <boost/test/unit_test.hpp>

#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "actors/group_actor.hpp"

using namespace cafka;
using namespace cafka::cluster;

namespace {

template <class T>
T round_trip(T x) {
  std::vector<char> buf;
  caf::binary_serializer sink{nullptr, buf};
  BOOST_REQUIRE(!sink(x));
  T out;
  caf::binary_deserializer source{nullptr, buf};
  BOOST_REQUIRE(!source(out));
  BOOST_TEST(source.remaining() == 0u);
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_messages)

BOOST_AUTO_TEST_CASE(a_join_request_keeps_its_instance_id_present_or_absent) {
  join_request req;
  req.member_id = "m-1";
  req.group_instance_id = std::string{"instance-a"};
  req.client_id = "c";
  req.client_host = "/127.0.0.1";
  req.session_timeout_ms = 10000;
  req.rebalance_timeout_ms = 300000;
  req.protocol_type = "consumer";
  req.protocols = {{"range", {'\x00', '\x01'}}, {"roundrobin", {}}};
  req.require_known_member_id = true;
  auto got = round_trip(req);
  BOOST_TEST(got.member_id == "m-1");
  BOOST_REQUIRE(got.group_instance_id.has_value());
  BOOST_TEST(*got.group_instance_id == "instance-a");
  BOOST_TEST(got.rebalance_timeout_ms == 300000);
  BOOST_TEST((got.protocols == req.protocols));
  BOOST_TEST(got.require_known_member_id);
  req.group_instance_id.reset();
  BOOST_TEST(!round_trip(req).group_instance_id.has_value());
  // An empty instance id is not the same as none.
  req.group_instance_id = std::string{};
  BOOST_TEST(round_trip(req).group_instance_id.has_value());
}

BOOST_AUTO_TEST_CASE(answers_descriptions_and_commits_round_trip) {
  join_answer ja;
  ja.error = protocol::kafka_error::member_id_required;
  ja.generation = 7;
  ja.protocol_name = "range";
  ja.leader = "m-1";
  ja.member_id = "m-2";
  ja.members = {{"m-1", std::string{"i"}, {'a'}}, {"m-2", std::nullopt, {'b', 'c'}}};
  auto ja2 = round_trip(ja);
  BOOST_TEST((ja2.error == protocol::kafka_error::member_id_required));
  BOOST_TEST(ja2.generation == 7);
  BOOST_REQUIRE(ja2.members.size() == 2u);
  BOOST_TEST((ja2.members[0].group_instance_id == std::optional<std::string>{"i"}));
  BOOST_TEST(!ja2.members[1].group_instance_id.has_value());
  BOOST_TEST((ja2.members[1].metadata == group_bytes{'b', 'c'}));

  leave_answer la;
  la.members = {{member_identity{"m-1", std::nullopt}, protocol::kafka_error::unknown_member_id}};
  auto la2 = round_trip(la);
  BOOST_REQUIRE(la2.members.size() == 1u);
  BOOST_TEST(la2.members[0].first.member_id == "m-1");
  BOOST_TEST((la2.members[0].second == protocol::kafka_error::unknown_member_id));

  group_description d;
  d.state = group_phase::stable;
  d.protocol = "sticky";
  d.members = {{"m-1", std::nullopt, "client", "/10.0.0.1", {'x'}, {'y'}}};
  auto d2 = round_trip(d);
  BOOST_TEST((d2.state == group_phase::stable));
  BOOST_TEST(d2.members.at(0).client_host == "/10.0.0.1");
  BOOST_TEST((d2.members.at(0).assignment == group_bytes{'y'}));

  group_offset_commit c{"m-1", std::string{"static"}, 3, {{{"t", 2}, 42, 5, "meta"}}};
  auto c2 = round_trip(c);
  BOOST_TEST(c2.generation == 3);
  BOOST_TEST((c2.group_instance_id == std::optional<std::string>{"static"}));
  BOOST_REQUIRE(c2.offsets.size() == 1u);
  BOOST_TEST(c2.offsets[0].tp.partition == 2);
  BOOST_TEST(c2.offsets[0].offset == 42);
  BOOST_TEST(c2.offsets[0].metadata == "meta");
}

BOOST_AUTO_TEST_SUITE_END()
