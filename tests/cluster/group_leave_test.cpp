// LeaveGroup, DescribeGroups' view and the Dead state in cluster/group_state.
#include "cluster/group_state.hpp"

#include <cstring>

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"

using namespace group_test;

BOOST_AUTO_TEST_SUITE(group_leave)

BOOST_AUTO_TEST_CASE(leaving_starts_a_rebalance) {
  driver d;
  auto f = form_stable_group(d, {"a", "b", "c"});
  auto t = f.at + 100;
  BOOST_TEST(d.leave_one(f.ids[2], t) == kafka_error::none);
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  BOOST_TEST(d.g.members().size() == 2u);
  BOOST_TEST(d.heartbeat(f.ids[0], 1, t) == kafka_error::rebalance_in_progress);
  auto ja = d.join(consumer_join(f.ids[0], "a"), t + 10);
  auto jb = d.join(consumer_join(f.ids[1], "b"), t + 20);
  BOOST_TEST(d.join_answer_of(ja).generation == 2);
  BOOST_TEST(d.join_answer_of(ja).members.size() == 2u);
  BOOST_TEST(d.join_answer_of(jb).generation == 2);
  BOOST_TEST(d.leave_one(f.ids[2], t + 30) == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_CASE(a_departure_can_complete_a_rebalance) {
  driver d;
  auto f = form_stable_group(d, {"a", "b", "c"});
  auto t = f.at + 100;
  auto ja = d.join(consumer_join(f.ids[0], "a"), t); // the leader asks for a rebalance
  auto jb = d.join(consumer_join(f.ids[1], "b"), t);
  BOOST_TEST(!d.answered(ja));
  d.leave_one(f.ids[2], t + 10); // c was the one everyone waited for
  BOOST_TEST(d.join_answer_of(ja).generation == 2);
  BOOST_TEST(d.join_answer_of(jb).generation == 2);
}

BOOST_AUTO_TEST_CASE(a_member_leaving_while_its_join_is_held_gets_unknown_member_id) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto changed = consumer_join(f.ids[1], "b");
  changed.protocols = protocols({"range"}, "changed"); // so its join is held
  auto jb = d.join(changed, f.at + 10);
  BOOST_TEST(!d.answered(jb));
  d.leave_one(f.ids[1], f.at + 20);
  BOOST_TEST(d.join_answer_of(jb).error == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_CASE(the_last_member_leaving_empties_the_group_with_a_new_generation) {
  driver d;
  auto f = form_stable_group(d, {"a"});
  d.leave_one(f.ids[0], f.at + 1);
  BOOST_TEST(d.g.phase() == group_phase::empty);
  BOOST_TEST(d.g.generation() == 2);
  BOOST_TEST(d.g.members().empty());
  BOOST_TEST(d.g.leader().empty());
  BOOST_TEST(d.g.protocol().empty());
  BOOST_TEST(d.g.protocol_type() == "consumer"); // still listed as a consumer group
  BOOST_TEST(!d.g.next_deadline().has_value());
}

BOOST_AUTO_TEST_CASE(batch_leave_by_instance_id) {
  driver d;
  std::vector<uint64_t> joins;
  for (std::string c : {"a", "b", "c"}) {
    auto r = consumer_join("", c);
    r.group_instance_id = "i" + c;
    joins.push_back(d.join(r, 0));
  }
  d.tick(3000);
  d.tick(6000);
  auto a = d.join_answer_of(joins[0]).member_id;
  auto b = d.join_answer_of(joins[1]).member_id;
  auto answer = d.leave({{"", std::string("ib")},          // by instance id alone
                         {"wrong-id", std::string("ic")},  // an older incarnation of ic
                         {"", std::string("iz")},          // nobody
                         {a, std::nullopt}},               // by member id
                        6100);
  BOOST_TEST(answer.error == kafka_error::none);
  BOOST_REQUIRE_EQUAL(answer.members.size(), 4u);
  BOOST_TEST(answer.members[0].second == kafka_error::none);
  BOOST_TEST(answer.members[1].second == kafka_error::fenced_instance_id);
  BOOST_TEST(answer.members[2].second == kafka_error::unknown_member_id);
  BOOST_TEST(answer.members[3].second == kafka_error::none);
  BOOST_TEST(d.g.members().size() == 1u);
  BOOST_TEST(d.g.find_member(b) == nullptr);
  BOOST_TEST(d.g.members().front().group_instance_id.value() == "ic");
}

BOOST_AUTO_TEST_CASE(a_member_asked_for_its_id_may_leave_before_joining) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto r = consumer_join("", "c");
  r.require_known_member_id = true;
  auto c = d.join_answer_of(d.join(r, f.at)).member_id;
  auto ja = d.join(consumer_join(f.ids[0], "a"), f.at + 10);
  d.join(consumer_join(f.ids[1], "b"), f.at + 10);
  BOOST_TEST(!d.answered(ja)); // waiting for c
  BOOST_TEST(d.leave_one(c, f.at + 20) == kafka_error::none);
  BOOST_TEST(d.join_answer_of(ja).generation == 2);
}

BOOST_AUTO_TEST_CASE(describe_shows_metadata_and_assignments_when_stable) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto desc = d.g.describe();
  BOOST_TEST(desc.state == group_phase::stable);
  BOOST_TEST(std::strcmp(to_string(desc.state), "Stable") == 0);
  BOOST_TEST(desc.protocol_type == "consumer");
  BOOST_TEST(desc.protocol == "range");
  BOOST_REQUIRE_EQUAL(desc.members.size(), 2u);
  BOOST_TEST(desc.members[1].member_id == f.ids[1]);
  BOOST_TEST(desc.members[1].client_id == "b");
  BOOST_TEST(desc.members[1].client_host == "/127.0.0.1");
  BOOST_TEST((desc.members[1].metadata == bytes_of("range:b")));
  BOOST_TEST((desc.members[1].assignment == bytes_of("assigned:" + f.ids[1])));
  // During a rebalance Kafka shows members only.
  d.join_new("c", f.at + 1);
  desc = d.g.describe();
  BOOST_TEST(std::strcmp(to_string(desc.state), "PreparingRebalance") == 0);
  BOOST_TEST(desc.protocol.empty());
  BOOST_TEST(desc.members.size() == 3u);
  BOOST_TEST(desc.members[1].metadata.empty());
  BOOST_TEST(desc.members[1].assignment.empty());
}

BOOST_AUTO_TEST_CASE(state_names_are_kafkas) {
  BOOST_TEST(std::strcmp(to_string(group_phase::empty), "Empty") == 0);
  BOOST_TEST(std::strcmp(to_string(group_phase::completing_rebalance), "CompletingRebalance")
             == 0);
  BOOST_TEST(std::strcmp(to_string(group_phase::dead), "Dead") == 0);
}

BOOST_AUTO_TEST_CASE(a_dead_group_answers_held_requests_and_refuses_everything) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto ja = d.join(consumer_join(f.ids[0], "a"), f.at + 10);
  d.mark_dead();
  BOOST_TEST(d.join_answer_of(ja).error == kafka_error::not_coordinator);
  BOOST_TEST(d.g.phase() == group_phase::dead);
  BOOST_TEST(d.g.members().empty());
  BOOST_TEST(!d.g.next_deadline().has_value());
  BOOST_TEST(d.join_answer_of(d.join_new("c", f.at + 20)).error
             == kafka_error::coordinator_not_available);
  BOOST_TEST(d.heartbeat(f.ids[1], 1, f.at + 20) == kafka_error::coordinator_not_available);
  BOOST_TEST(d.sync_answer_of(d.sync(f.ids[1], 1, f.at + 20)).error
             == kafka_error::coordinator_not_available);
  BOOST_TEST(d.leave({{f.ids[1], std::nullopt}}, f.at + 20).error
             == kafka_error::coordinator_not_available);
  BOOST_TEST(d.g.check_offset_commit(f.ids[1], std::nullopt, 1, f.at + 20)
             == kafka_error::coordinator_not_available);
  d.tick(f.at + 100000);
  BOOST_TEST(d.held() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
