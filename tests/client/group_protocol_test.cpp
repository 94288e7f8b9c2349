// The native group member's pure parts: consumer-protocol bytes (subscription, the leader's
// plan, decoding an assignment), positions and commits, start positions, option checks.

#include <boost/test/unit_test.hpp>

#include "client/group_options.hpp"
#include "client/group_positions.hpp"
#include "client/group_protocol.hpp"
#include "protocol/wire/consumer_protocol.hpp"

using namespace cafka;
using namespace cafka::client;

namespace {

cluster::joined_member member(std::string id, std::vector<std::string> topics) {
  return {std::move(id), std::nullopt, encode_subscription(topics, {})};
}

std::vector<topic_partition> assigned(const leader_plan& plan, const std::string& id) {
  for (auto& a : plan.assignments)
    if (a.member_id == id) {
      auto parts = decode_assignment(a.assignment);
      BOOST_REQUIRE(parts);
      return *parts;
    }
  BOOST_FAIL("no assignment for " << id);
  return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_protocol)

BOOST_AUTO_TEST_CASE(subscription_is_a_kafka_consumer_subscription) {
  auto bytes = encode_subscription({"a", "b"}, {{"a", 1}, {"a", 0}, {"b", 2}});
  auto s = wire::decode_consumer_subscription(wire::bytes_view{bytes.data(), bytes.size()});
  BOOST_REQUIRE(s);
  BOOST_TEST(s->version == 1);
  BOOST_TEST((s->topics == std::vector<std::string>{"a", "b"}));
  BOOST_REQUIRE(s->owned_partitions.size() == 2u);
  BOOST_TEST(s->owned_partitions[0].topic == "a");
  BOOST_TEST((s->owned_partitions[0].partitions == std::vector<int32_t>{0, 1}));
}

BOOST_AUTO_TEST_CASE(range_splits_four_partitions_between_two_members) {
  std::vector<cluster::joined_member> members{member("m-2", {"t"}), member("m-1", {"t"})};
  BOOST_TEST((subscribed_topics(members) == std::vector<std::string>{"t"}));
  auto plan = leader_assignments("range", members, {{"t", 4}});
  BOOST_REQUIRE(plan.error.empty());
  BOOST_REQUIRE(plan.assignments.size() == 2u);
  BOOST_TEST(plan.assignments[0].member_id == "m-2"); // in the order of the join answer
  auto first = assigned(plan, "m-1");
  auto second = assigned(plan, "m-2");
  BOOST_TEST((first == std::vector<topic_partition>{{"t", 0}, {"t", 1}}));
  BOOST_TEST((second == std::vector<topic_partition>{{"t", 2}, {"t", 3}}));
}

BOOST_AUTO_TEST_CASE(every_assignor_covers_every_partition_once) {
  std::vector<cluster::joined_member> members{member("a", {"x", "y"}), member("b", {"x"}),
                                              member("c", {"y", "missing"})};
  for (auto name : {"range", "roundrobin", "sticky"}) {
    auto plan = leader_assignments(name, members, {{"x", 3}, {"y", 5}});
    BOOST_REQUIRE_MESSAGE(plan.error.empty(), name << ": " << plan.error);
    std::vector<topic_partition> all;
    for (auto id : {"a", "b", "c"})
      for (auto& tp : assigned(plan, id))
        all.push_back(tp);
    std::sort(all.begin(), all.end());
    BOOST_TEST(all.size() == 8u, name);
    BOOST_TEST((std::adjacent_find(all.begin(), all.end()) == all.end()), name);
  }
}

BOOST_AUTO_TEST_CASE(bad_input_is_reported) {
  auto plan = leader_assignments("nope", {member("a", {"t"})}, {{"t", 1}});
  BOOST_TEST(plan.error == "unknown assignor 'nope'");
  std::vector<cluster::joined_member> broken{{"a", std::nullopt, {'\x00'}}};
  plan = leader_assignments("range", broken, {{"t", 1}});
  BOOST_TEST(plan.error.find("member 'a' sent a subscription that does not decode") == 0u);
  BOOST_TEST(!decode_assignment({'\x00', '\x00', '\x00'}));
  auto none = decode_assignment({}); // the leader left this member out
  BOOST_REQUIRE(none);
  BOOST_TEST(none->empty());
}

BOOST_AUTO_TEST_CASE(positions_commit_what_changed) {
  group_positions pos;
  topic_partition a{"t", 0}, b{"t", 1};
  pos.assign({a, b}, {group_offset{a, 10, -1, {}}, group_offset{{"other", 0}, 5, -1, {}}});
  BOOST_TEST((pos.committed_offset(a) == std::optional<int64_t>{10}));
  BOOST_TEST(!pos.committed_offset(b));
  BOOST_TEST(!pos.committed_offset(topic_partition{"other", 0}));
  BOOST_TEST(pos.uncommitted().empty());
  pos.consumed(a, 10); // what was committed already
  pos.consumed(b, 7);
  pos.consumed(b, 3); // behind: ignored
  pos.consumed({"t", 9}, 1); // not assigned: ignored
  auto todo = pos.uncommitted();
  BOOST_REQUIRE(todo.size() == 1u);
  BOOST_TEST((todo[0].tp == b));
  BOOST_TEST(todo[0].offset == 7);
  pos.committed(todo);
  BOOST_TEST(pos.uncommitted().empty());
  pos.consumed(a, 12);
  BOOST_TEST(pos.uncommitted().size() == 1u);
  pos.clear();
  BOOST_TEST(!pos.owns(a));
  BOOST_TEST(pos.uncommitted().empty());
}

BOOST_AUTO_TEST_CASE(start_positions_follow_the_committed_offset_then_the_reset_policy) {
  using kind = start_position::kind;
  BOOST_TEST((start_for(42, offset_reset::latest).what == kind::offset));
  BOOST_TEST(start_for(42, offset_reset::latest).value == 42);
  BOOST_TEST((start_for(std::nullopt, offset_reset::earliest).what == kind::earliest));
  BOOST_TEST((start_for(std::nullopt, offset_reset::latest).what == kind::latest));
  BOOST_TEST((start_for(std::nullopt, offset_reset::none).what == kind::latest));
  BOOST_TEST((start_for(-1, offset_reset::earliest).what == kind::earliest)); // a marker, not an offset
}

BOOST_AUTO_TEST_CASE(options_are_checked) {
  group_options o;
  BOOST_TEST(effective_group_id(o) == "cafka-default-group");
  o.group_id = "g";
  BOOST_TEST(effective_group_id(o) == "g");
  BOOST_TEST(validate(o).find("topics is empty") != std::string::npos);
  o.topics = {"t"};
  BOOST_TEST(validate(o).empty());
  o.assignor = "cooperative";
  BOOST_TEST(validate(o) == "unknown assignor 'cooperative' (use range, roundrobin or sticky)");
  o.assignor = "roundrobin";
  o.heartbeat_interval = o.session_timeout;
  BOOST_TEST(validate(o) == "heartbeat_interval must be shorter than session_timeout");
  o.heartbeat_interval = std::chrono::milliseconds(0);
  BOOST_TEST(!validate(o).empty());
  o.heartbeat_interval = std::chrono::milliseconds(100);
  o.topics = {""};
  BOOST_TEST(!validate(o).empty());
}

BOOST_AUTO_TEST_SUITE_END()
