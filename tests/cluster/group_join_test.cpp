// JoinGroup in cluster/group_state: forming generations, the delayed initial join, protocol
// checks, MEMBER_ID_REQUIRED and static members.
#include "cluster/group_state.hpp"

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"

using namespace group_test;

BOOST_AUTO_TEST_SUITE(group_join)

BOOST_AUTO_TEST_CASE(two_members_get_generation_1_with_the_same_leader) {
  driver d;
  auto ja = d.join_new("a", 0);
  auto jb = d.join_new("b", 100);
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  BOOST_TEST(!d.answered(ja));
  // b arrived during the initial delay, which is therefore extended once.
  BOOST_TEST(d.g.next_deadline().value() == 3000);
  d.tick(3000);
  BOOST_TEST(!d.answered(ja));
  BOOST_TEST(d.g.next_deadline().value() == 6000);
  d.tick(5999);
  BOOST_TEST(!d.answered(ja));
  d.tick(6000);
  auto& a = d.join_answer_of(ja);
  auto& b = d.join_answer_of(jb);
  BOOST_TEST(a.error == kafka_error::none);
  BOOST_TEST(b.error == kafka_error::none);
  BOOST_TEST(a.member_id == "a-1");
  BOOST_TEST(b.member_id == "b-2");
  BOOST_TEST(a.generation == 1);
  BOOST_TEST(b.generation == 1);
  BOOST_TEST(a.leader == "a-1");
  BOOST_TEST(b.leader == "a-1");
  BOOST_TEST(a.protocol_name == "range");
  BOOST_TEST(b.protocol_name == "range");
  // The leader gets every member's metadata, the follower none.
  BOOST_REQUIRE_EQUAL(a.members.size(), 2u);
  BOOST_TEST(a.members[0].member_id == "a-1");
  BOOST_TEST((a.members[0].metadata == bytes_of("range:a")));
  BOOST_TEST(a.members[1].member_id == "b-2");
  BOOST_TEST((a.members[1].metadata == bytes_of("range:b")));
  BOOST_TEST(b.members.empty());
  BOOST_TEST(d.g.phase() == group_phase::completing_rebalance);
  BOOST_TEST(d.g.generation() == 1);
  BOOST_TEST(d.g.leader() == "a-1");
}

BOOST_AUTO_TEST_CASE(a_lone_first_member_waits_exactly_the_initial_delay) {
  driver d;
  auto ja = d.join_new("a", 1000);
  d.tick(3999);
  BOOST_TEST(!d.answered(ja));
  d.tick(4000);
  BOOST_TEST(d.join_answer_of(ja).generation == 1);
  BOOST_TEST(d.join_answer_of(ja).leader == d.join_answer_of(ja).member_id);
}

BOOST_AUTO_TEST_CASE(initial_delay_is_extended_while_members_arrive_up_to_the_rebalance_timeout) {
  driver d; // delay 3000
  auto join = [&](const std::string& client, int64_t now) {
    auto r = consumer_join("", client);
    r.rebalance_timeout_ms = 10000;
    return d.join(r, now);
  };
  auto ja = join("a", 0);
  join("b", 1000);
  d.tick(3000); // b came: until 6000
  BOOST_TEST(d.g.next_deadline().value() == 6000);
  join("c", 5000);
  d.tick(6000); // c came: until 9000
  BOOST_TEST(d.g.next_deadline().value() == 9000);
  join("d", 8000);
  d.tick(9000); // d came, but only 1000 of the rebalance timeout are left
  BOOST_TEST(d.g.next_deadline().value() == 10000);
  auto je = join("e", 9500);
  d.tick(9999);
  BOOST_TEST(!d.answered(ja));
  d.tick(10000); // e came too late to extend: 10 s is the rebalance timeout
  BOOST_TEST(d.join_answer_of(ja).generation == 1);
  BOOST_TEST(d.join_answer_of(ja).members.size() == 5u);
  BOOST_TEST(d.join_answer_of(je).generation == 1);
}

BOOST_AUTO_TEST_CASE(initial_delay_ends_when_nobody_new_came) {
  driver d;
  auto ja = d.join_new("a", 0);
  d.join_new("b", 1000);
  d.tick(3000);
  d.tick(6000); // nobody arrived between 3000 and 6000
  BOOST_TEST(d.join_answer_of(ja).members.size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_initial_delay_does_not_end_early_when_everyone_has_joined) {
  driver d;
  auto r = consumer_join("", "a");
  r.require_known_member_id = true;
  r.member_id = d.join_answer_of(d.join(r, 0)).member_id;
  auto ja = d.join(r, 10);
  // Every known member has joined, but the delay holds the join all the same.
  d.tick(3009);
  BOOST_TEST(!d.answered(ja));
  d.tick(3010);
  BOOST_TEST(d.join_answer_of(ja).generation == 1);
}

BOOST_AUTO_TEST_CASE(without_initial_delay_a_join_completes_at_the_next_tick) {
  auto config = test_config();
  config.initial_rebalance_delay_ms = 0;
  driver d(config);
  auto ja = d.join_new("a", 500);
  BOOST_TEST(d.g.next_deadline().value() == 500);
  d.tick(500);
  BOOST_TEST(d.join_answer_of(ja).generation == 1);
}

BOOST_AUTO_TEST_CASE(a_third_member_starts_a_rebalance_that_waits_for_everyone) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto t = f.at + 1000;
  auto jc = d.join_new("c", t);
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  BOOST_TEST(!d.answered(jc));
  // The others learn of it from their heartbeats.
  BOOST_TEST(d.heartbeat(f.ids[0], 1, t + 100) == kafka_error::rebalance_in_progress);
  BOOST_TEST(d.heartbeat(f.ids[1], 1, t + 100) == kafka_error::rebalance_in_progress);
  auto ja = d.join(consumer_join(f.ids[0], "a"), t + 200);
  BOOST_TEST(!d.answered(ja));
  auto jb = d.join(consumer_join(f.ids[1], "b"), t + 300);
  // Everyone is back: no need to wait for the rebalance timeout.
  for (auto j : {ja, jb, jc}) {
    BOOST_TEST(d.join_answer_of(j).error == kafka_error::none);
    BOOST_TEST(d.join_answer_of(j).generation == 2);
    BOOST_TEST(d.join_answer_of(j).leader == f.ids[0]); // the leader stays
  }
  BOOST_TEST(d.join_answer_of(ja).members.size() == 3u);
  BOOST_TEST(d.join_answer_of(jc).members.empty());
  BOOST_TEST(d.join_answer_of(jc).member_id == "c-3");
  BOOST_TEST(d.g.phase() == group_phase::completing_rebalance);
}

BOOST_AUTO_TEST_CASE(a_new_leader_is_a_member_that_rejoined) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  BOOST_TEST(d.leave_one(f.ids[0], f.at + 1) == kafka_error::none); // the leader leaves
  auto jb = d.join(consumer_join(f.ids[1], "b"), f.at + 2);
  BOOST_TEST(d.join_answer_of(jb).leader == f.ids[1]);
  BOOST_TEST(d.join_answer_of(jb).members.size() == 1u);
  BOOST_TEST(d.join_answer_of(jb).generation == 2);
}

BOOST_AUTO_TEST_CASE(protocol_is_chosen_by_vote_and_the_leader_gets_that_metadata) {
  driver d;
  auto join = [&](const std::string& client, std::vector<std::string> names, int64_t now) {
    auto r = consumer_join("", client);
    r.protocols = protocols(names, client);
    return d.join(r, now);
  };
  auto ja = join("a", {"range", "roundrobin"}, 0);
  join("b", {"roundrobin", "range"}, 0);
  join("c", {"roundrobin", "range"}, 0);
  d.tick(3000);
  d.tick(6000);
  auto& a = d.join_answer_of(ja);
  BOOST_TEST(a.protocol_name == "roundrobin");
  BOOST_REQUIRE_EQUAL(a.members.size(), 3u);
  BOOST_TEST((a.members[0].metadata == bytes_of("roundrobin:a")));
  BOOST_TEST((a.members[2].metadata == bytes_of("roundrobin:c")));
  BOOST_TEST(d.g.protocol() == "roundrobin");
}

BOOST_AUTO_TEST_CASE(no_protocol_in_common_is_inconsistent_group_protocol) {
  driver d;
  auto r = consumer_join("", "librdkafka");
  r.protocols = protocols({"range", "roundrobin"});
  d.join(r, 0);
  auto kafkajs = consumer_join("", "kafkajs");
  kafkajs.protocols = protocols({"RoundRobinAssigner"});
  auto j = d.join(kafkajs, 10);
  BOOST_TEST(d.join_answer_of(j).error == kafka_error::inconsistent_group_protocol);
  BOOST_TEST(d.join_answer_of(j).member_id == "");
  BOOST_TEST(d.join_answer_of(j).generation == -1);
  BOOST_TEST(d.g.members().size() == 1u); // not added
  // A protocol type other than the group's, or none at all, is refused the same way.
  auto connect = consumer_join("", "connect");
  connect.protocol_type = "connect";
  BOOST_TEST(d.join_answer_of(d.join(connect, 20)).error
             == kafka_error::inconsistent_group_protocol);
  auto no_type = consumer_join("", "x");
  no_type.protocol_type = "";
  BOOST_TEST(d.join_answer_of(d.join(no_type, 20)).error
             == kafka_error::inconsistent_group_protocol);
  auto no_protocols = consumer_join("", "x");
  no_protocols.protocols.clear();
  BOOST_TEST(d.join_answer_of(d.join(no_protocols, 20)).error
             == kafka_error::inconsistent_group_protocol);
  // One protocol in common is enough.
  auto both = consumer_join("", "both");
  both.protocols = protocols({"RoundRobinAssigner", "roundrobin"});
  auto jb = d.join(both, 30);
  BOOST_TEST(!d.answered(jb));
}

BOOST_AUTO_TEST_CASE(an_empty_group_takes_any_protocol_type) {
  driver d;
  auto f = form_stable_group(d, {"a"});
  d.leave_one(f.ids[0], f.at + 1);
  BOOST_TEST(d.g.phase() == group_phase::empty);
  auto connect = consumer_join("", "connect");
  connect.protocol_type = "connect";
  connect.protocols = protocols({"default"});
  auto j = d.join(connect, f.at + 2);
  BOOST_TEST(!d.answered(j));
  BOOST_TEST(d.g.protocol_type() == "connect");
}

BOOST_AUTO_TEST_CASE(session_timeout_outside_the_bounds_is_refused) {
  driver d; // 6000 .. 1800000
  auto r = consumer_join("", "a");
  r.session_timeout_ms = 5999;
  BOOST_TEST(d.join_answer_of(d.join(r, 0)).error == kafka_error::invalid_session_timeout);
  r.session_timeout_ms = 1800001;
  BOOST_TEST(d.join_answer_of(d.join(r, 0)).error == kafka_error::invalid_session_timeout);
  BOOST_TEST(d.g.phase() == group_phase::empty);
  r.session_timeout_ms = 6000;
  BOOST_TEST(!d.answered(d.join(r, 0)));
  r.session_timeout_ms = 1800000;
  BOOST_TEST(!d.answered(d.join(r, 0)));
}

BOOST_AUTO_TEST_CASE(member_id_required_hands_out_the_id_to_join_with) {
  driver d;
  auto r = consumer_join("", "a");
  r.require_known_member_id = true;
  auto first = d.join(r, 0);
  auto& a = d.join_answer_of(first);
  BOOST_TEST(a.error == kafka_error::member_id_required);
  BOOST_TEST(a.member_id == "a-1");
  BOOST_TEST(a.generation == -1);
  BOOST_TEST(d.g.members().empty());
  BOOST_TEST(d.g.phase() == group_phase::empty);
  r.member_id = a.member_id;
  auto second = d.join(r, 50);
  BOOST_TEST(!d.answered(second));
  d.tick(3050);
  BOOST_TEST(d.join_answer_of(second).error == kafka_error::none);
  BOOST_TEST(d.join_answer_of(second).member_id == "a-1");
  BOOST_TEST(d.join_answer_of(second).generation == 1);
}

BOOST_AUTO_TEST_CASE(static_members_are_not_asked_for_a_member_id) {
  driver d;
  auto r = consumer_join("", "a");
  r.require_known_member_id = true;
  r.group_instance_id = "instance-a";
  auto j = d.join(r, 0);
  BOOST_TEST(!d.answered(j));
  d.tick(3000);
  // A static member's id starts with its instance id.
  BOOST_TEST(d.join_answer_of(j).member_id == "instance-a-1");
}

BOOST_AUTO_TEST_CASE(a_rebalance_waits_for_members_that_were_asked_for_their_id) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto t = f.at + 1000;
  auto r = consumer_join("", "c");
  r.require_known_member_id = true;
  auto c_id = d.join_answer_of(d.join(r, t)).member_id;
  BOOST_TEST(d.g.phase() == group_phase::stable); // nothing changes until c joins for real
  auto jd = d.join_new("d", t);
  d.join(consumer_join(f.ids[0], "a"), t + 10);
  d.join(consumer_join(f.ids[1], "b"), t + 10);
  BOOST_TEST(!d.answered(jd)); // c is still expected
  r.member_id = c_id;
  auto jc = d.join(r, t + 20);
  BOOST_TEST(d.join_answer_of(jd).generation == 2);
  BOOST_TEST(d.join_answer_of(jc).generation == 2);
  BOOST_TEST(d.g.members().size() == 4u);
}

BOOST_AUTO_TEST_CASE(unknown_member_ids_are_refused) {
  driver d;
  BOOST_TEST(d.join_answer_of(d.join(consumer_join("ghost-1", "a"), 0)).error
             == kafka_error::unknown_member_id);
  auto f = form_stable_group(d, {"a"});
  BOOST_TEST(d.join_answer_of(d.join(consumer_join("ghost-1", "a"), f.at)).error
             == kafka_error::unknown_member_id);
  BOOST_TEST(d.g.phase() == group_phase::stable);
}

BOOST_AUTO_TEST_CASE(a_follower_rejoining_unchanged_in_a_stable_group_gets_the_current_generation) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto j = d.join(consumer_join(f.ids[1], "b"), f.at + 10);
  auto& a = d.join_answer_of(j);
  BOOST_TEST(a.error == kafka_error::none);
  BOOST_TEST(a.generation == 1);
  BOOST_TEST(a.leader == f.ids[0]);
  BOOST_TEST(a.members.empty());
  BOOST_TEST(d.g.phase() == group_phase::stable);
}

BOOST_AUTO_TEST_CASE(the_leader_rejoining_or_changed_metadata_starts_a_rebalance) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto ja = d.join(consumer_join(f.ids[0], "a"), f.at + 10);
  BOOST_TEST(!d.answered(ja));
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);

  driver d2;
  auto f2 = form_stable_group(d2, {"a", "b"});
  auto changed = consumer_join(f2.ids[1], "b");
  changed.protocols = protocols({"range"}, "b-subscribes-to-more");
  auto jb = d2.join(changed, f2.at + 10);
  BOOST_TEST(!d2.answered(jb));
  BOOST_TEST(d2.g.phase() == group_phase::preparing_rebalance);
}

BOOST_AUTO_TEST_CASE(a_repeated_join_while_completing_gets_the_same_answer) {
  driver d;
  auto ja = d.join_new("a", 0);
  auto jb = d.join_new("b", 0);
  d.tick(3000);
  d.tick(6000);
  auto a_id = d.join_answer_of(ja).member_id;
  auto b_id = d.join_answer_of(jb).member_id;
  // The answer was lost; the same join again gets it again, leader included.
  auto again = d.join(consumer_join(a_id, "a"), 6100);
  BOOST_TEST(d.join_answer_of(again).generation == 1);
  BOOST_TEST(d.join_answer_of(again).members.size() == 2u);
  BOOST_TEST(d.g.phase() == group_phase::completing_rebalance);
  // Changed metadata instead: a new rebalance.
  auto changed = consumer_join(b_id, "b");
  changed.protocols = protocols({"range"}, "other");
  BOOST_TEST(!d.answered(d.join(changed, 6200)));
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
}

BOOST_AUTO_TEST_CASE(a_second_join_supersedes_a_held_one) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto first = d.join(consumer_join(f.ids[0], "a"), f.at + 10);
  auto second = d.join(consumer_join(f.ids[0], "a"), f.at + 20);
  BOOST_TEST(d.join_answer_of(first).error == kafka_error::rebalance_in_progress);
  BOOST_TEST(!d.answered(second));
  d.join(consumer_join(f.ids[1], "b"), f.at + 30);
  BOOST_TEST(d.join_answer_of(second).generation == 2);
}

BOOST_AUTO_TEST_CASE(a_restarted_static_member_takes_its_place_without_a_rebalance) {
  driver d;
  auto ra = consumer_join("", "a");
  ra.group_instance_id = "ia";
  auto ja = d.join(ra, 0);
  auto jb = d.join_new("b", 0);
  d.tick(3000);
  d.tick(6000);
  auto old_a = d.join_answer_of(ja).member_id;
  auto b = d.join_answer_of(jb).member_id;
  BOOST_TEST(old_a == "ia-1");
  BOOST_TEST(d.join_answer_of(ja).leader == old_a);
  d.sync(b, 1, 6000);
  d.sync(old_a, 1, 6000, {{old_a, bytes_of("pa")}, {b, bytes_of("pb")}}, std::string("ia"));
  BOOST_REQUIRE(d.g.phase() == group_phase::stable);

  // a restarts: it lost its member id but keeps its instance id.
  auto j = d.join(ra, 7000);
  auto& answer = d.join_answer_of(j);
  BOOST_TEST(answer.error == kafka_error::none);
  BOOST_TEST(answer.member_id == "ia-3");
  BOOST_TEST(answer.generation == 1);
  // The old leader id, so the restarted leader does not reassign mid-generation.
  BOOST_TEST(answer.leader == old_a);
  BOOST_TEST(answer.members.empty());
  BOOST_TEST(d.g.phase() == group_phase::stable);
  BOOST_TEST(d.g.leader() == "ia-3");
  BOOST_TEST(d.g.members().size() == 2u);
  // It keeps its assignment; the old incarnation is fenced.
  auto s = d.sync("ia-3", 1, 7100, {}, std::string("ia"));
  BOOST_TEST((d.sync_answer_of(s).assignment == bytes_of("pa")));
  BOOST_TEST(d.heartbeat(old_a, 1, 7200, std::string("ia")) == kafka_error::fenced_instance_id);
  BOOST_TEST(d.heartbeat(old_a, 1, 7200) == kafka_error::unknown_member_id);
  BOOST_TEST(d.heartbeat("ia-3", 1, 7200, std::string("ia")) == kafka_error::none);
  auto stale = ra;
  stale.member_id = old_a;
  BOOST_TEST(d.join_answer_of(d.join(stale, 7300)).error == kafka_error::fenced_instance_id);
  BOOST_TEST(d.heartbeat(b, 1, 7400) == kafka_error::none); // b never noticed
}

BOOST_AUTO_TEST_CASE(a_static_member_rejoining_with_another_protocol_choice_rebalances) {
  driver d;
  auto ra = consumer_join("", "a");
  ra.group_instance_id = "ia";
  ra.protocols = protocols({"range", "roundrobin"}, "a");
  auto ja = d.join(ra, 0);
  d.tick(3000);
  auto a = d.join_answer_of(ja).member_id;
  d.sync(a, 1, 3000, {{a, bytes_of("pa")}}, std::string("ia"));
  BOOST_REQUIRE(d.g.protocol() == "range");
  ra.protocols = protocols({"roundrobin"}, "a");
  auto j = d.join(ra, 4000);
  // A new generation (at once, since the only member has rejoined).
  BOOST_TEST(d.join_answer_of(j).generation == 2);
  BOOST_TEST(d.join_answer_of(j).member_id == "ia-2");
  BOOST_TEST(d.join_answer_of(j).protocol_name == "roundrobin");
}

BOOST_AUTO_TEST_CASE(a_static_member_restarting_while_completing_fences_its_held_sync) {
  driver d;
  auto ja = d.join_new("a", 0);
  auto rb = consumer_join("", "b");
  rb.group_instance_id = "ib";
  auto jb = d.join(rb, 0);
  d.tick(3000);
  d.tick(6000);
  auto a = d.join_answer_of(ja).member_id;
  auto old_b = d.join_answer_of(jb).member_id;
  auto sb = d.sync(old_b, 1, 6100, {}, std::string("ib"));
  BOOST_TEST(!d.answered(sb));
  auto jb2 = d.join(rb, 6200); // b restarted
  BOOST_TEST(d.sync_answer_of(sb).error == kafka_error::fenced_instance_id);
  BOOST_TEST(!d.answered(jb2));
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  auto ja2 = d.join(consumer_join(a, "a"), 6300);
  BOOST_TEST(d.join_answer_of(ja2).generation == 2);
  BOOST_TEST(d.join_answer_of(jb2).generation == 2);
  BOOST_TEST(d.join_answer_of(jb2).member_id != old_b);
}

BOOST_AUTO_TEST_CASE(a_static_member_with_an_unknown_instance_id_is_unknown) {
  driver d;
  auto f = form_stable_group(d, {"a"});
  auto r = consumer_join(f.ids[0], "a");
  r.group_instance_id = "never-seen";
  BOOST_TEST(d.join_answer_of(d.join(r, f.at)).error == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_SUITE_END()
