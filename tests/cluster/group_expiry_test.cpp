// Time in cluster/group_state: session expiry, the rebalance timeout, lapsed member ids and
// next_deadline, all in simulated milliseconds.
#include "cluster/group_state.hpp"

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"

using namespace group_test;

BOOST_AUTO_TEST_SUITE(group_expiry)

BOOST_AUTO_TEST_CASE(a_silent_member_expires_after_exactly_its_session_timeout) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"}); // both synced at f.at; session 10 s
  for (int64_t t = f.at + 3000; t < f.at + 12000; t += 3000)
    BOOST_REQUIRE(d.heartbeat(f.ids[0], 1, t) == kafka_error::none); // a keeps beating
  BOOST_TEST(d.g.next_deadline().value() == f.at + 10000); // b's
  d.tick(f.at + 9999);
  BOOST_TEST(d.g.find_member(f.ids[1]) != nullptr);
  BOOST_TEST(d.g.phase() == group_phase::stable);
  d.tick(f.at + 10000);
  BOOST_TEST(d.g.find_member(f.ids[1]) == nullptr);
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  BOOST_TEST(d.heartbeat(f.ids[1], 1, f.at + 10001) == kafka_error::unknown_member_id);
  BOOST_TEST(d.heartbeat(f.ids[0], 1, f.at + 10001) == kafka_error::rebalance_in_progress);
  auto ja = d.join(consumer_join(f.ids[0], "a"), f.at + 10002);
  BOOST_TEST(d.join_answer_of(ja).generation == 2);
  BOOST_TEST(d.join_answer_of(ja).members.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_heartbeat_moves_the_session_deadline) {
  driver d;
  auto f = form_stable_group(d, {"a"});
  d.heartbeat(f.ids[0], 1, f.at + 9999);
  BOOST_TEST(d.g.next_deadline().value() == f.at + 19999);
  d.tick(f.at + 19998);
  BOOST_TEST(d.g.members().size() == 1u);
  d.tick(f.at + 19999);
  BOOST_TEST(d.g.members().empty());
  BOOST_TEST(d.g.phase() == group_phase::empty);
}

BOOST_AUTO_TEST_CASE(the_rebalance_timeout_removes_members_that_did_not_rejoin) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"}); // rebalance timeout 30 s
  auto t = f.at + 1000;
  auto changed = consumer_join(f.ids[1], "b");
  changed.protocols = protocols({"range"}, "b2");
  auto jb = d.join(changed, t);
  // a is alive (it heartbeats) but busy and does not rejoin.
  for (int64_t hb = t; hb <= t + 30000; hb += 3000)
    BOOST_REQUIRE(d.heartbeat(f.ids[0], 1, hb) == kafka_error::rebalance_in_progress);
  // b's session (10 s) does not run while its join is held.
  d.tick(t + 29999);
  BOOST_TEST(!d.answered(jb));
  BOOST_TEST(d.g.members().size() == 2u);
  d.tick(t + 30000);
  auto& answer = d.join_answer_of(jb);
  BOOST_TEST(answer.error == kafka_error::none);
  BOOST_TEST(answer.generation == 2);
  BOOST_TEST(answer.leader == f.ids[1]); // a, the leader, is gone
  BOOST_TEST(answer.members.size() == 1u);
  BOOST_TEST(d.g.find_member(f.ids[0]) == nullptr);
  BOOST_TEST(d.heartbeat(f.ids[0], 1, t + 30001) == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_CASE(the_rebalance_timeout_is_the_largest_of_the_members) {
  driver d;
  auto rb = consumer_join("", "b");
  rb.rebalance_timeout_ms = 50000;
  rb.session_timeout_ms = 60000;
  auto ra = consumer_join("", "a");
  ra.rebalance_timeout_ms = 20000;
  auto jb = d.join(rb, 0);
  auto ja = d.join(ra, 0);
  d.tick(3000);
  d.tick(6000);
  auto a = d.join_answer_of(ja).member_id;
  auto b = d.join_answer_of(jb).member_id;
  d.sync(a, 1, 6000);
  d.sync(b, 1, 6000, {});
  auto t = 7000;
  ra.member_id = a;
  ra.protocols = protocols({"range"}, "a2");
  auto ja2 = d.join(ra, t); // b, busy, does not rejoin
  BOOST_TEST(d.g.next_deadline().value() == t + 50000); // b's 50 s, not a's 20
  d.tick(t + 49999);
  BOOST_TEST(!d.answered(ja2));
  d.tick(t + 50000);
  BOOST_TEST(d.join_answer_of(ja2).generation == 2);
  BOOST_TEST(d.g.find_member(b) == nullptr);
}

BOOST_AUTO_TEST_CASE(static_members_that_did_not_rejoin_keep_their_place) {
  driver d;
  auto ra = consumer_join("", "a");
  ra.group_instance_id = "ia";
  ra.session_timeout_ms = 60000; // static members restart within a long session
  auto ja = d.join(ra, 0);
  auto jb = d.join_new("b", 0);
  d.tick(3000);
  d.tick(6000);
  auto a = d.join_answer_of(ja).member_id;
  auto b = d.join_answer_of(jb).member_id;
  d.sync(b, 1, 6000);
  d.sync(a, 1, 6000, {}, std::string("ia"));
  auto changed = consumer_join(b, "b");
  changed.protocols = protocols({"range"}, "b2");
  auto jb2 = d.join(changed, 7000);
  d.heartbeat(a, 1, 9000, std::string("ia")); // then a goes quiet (restarting, say)
  d.tick(7000 + 30000);
  auto& answer = d.join_answer_of(jb2);
  BOOST_TEST(answer.generation == 2);
  BOOST_TEST(answer.leader == b);          // a did not rejoin, so it cannot lead
  BOOST_TEST(answer.members.size() == 2u); // but it is still a member
  BOOST_REQUIRE(d.g.find_member(a) != nullptr);
  // Its session restarts at the completion, as everyone's.
  BOOST_TEST(d.g.find_member(a)->last_heartbeat_ms == 37000);
  // When a is back for the next rebalance, b stays the leader.
  d.sync(b, 2, 37000, {});
  auto back = ra;
  back.member_id = a;
  back.protocols = protocols({"range"}, "a2");
  auto ja3 = d.join(back, 38000);
  auto jb3 = d.join(changed, 38000);
  BOOST_TEST(d.join_answer_of(ja3).generation == 3);
  BOOST_TEST(d.join_answer_of(ja3).leader == b);
  BOOST_TEST(d.join_answer_of(jb3).members.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_silent_static_member_still_expires) {
  driver d;
  auto ra = consumer_join("", "a");
  ra.group_instance_id = "ia";
  auto ja = d.join(ra, 0);
  d.tick(3000);
  auto a = d.join_answer_of(ja).member_id;
  d.sync(a, 1, 3000, {}, std::string("ia"));
  d.tick(3000 + 9999);
  BOOST_TEST(d.g.members().size() == 1u);
  d.tick(3000 + 10000);
  BOOST_TEST(d.g.members().empty());
  BOOST_TEST(d.g.phase() == group_phase::empty);
}

BOOST_AUTO_TEST_CASE(a_member_waiting_for_the_leaders_sync_does_not_expire) {
  driver d;
  auto ra = consumer_join("", "a");
  ra.session_timeout_ms = 20000; // the leader outlives b's session
  auto ja = d.join(ra, 0);
  auto jb = d.join_new("b", 0);
  d.tick(3000);
  d.tick(6000);
  auto b = d.join_answer_of(jb).member_id;
  auto sb = d.sync(b, 1, 6000);
  d.tick(6000 + 10000); // b's session would be over, but it waits for the leader
  BOOST_TEST(d.g.find_member(b) != nullptr);
  BOOST_TEST(!d.answered(sb));
  // The leader never syncs and expires: b is told to rejoin, and its session restarts.
  BOOST_TEST(d.g.next_deadline().value() == 6000 + 20000);
  d.tick(6000 + 20000);
  BOOST_TEST(d.g.find_member(d.join_answer_of(ja).member_id) == nullptr);
  BOOST_TEST(d.sync_answer_of(sb).error == kafka_error::rebalance_in_progress);
  BOOST_TEST(d.g.next_deadline().value() == 6000 + 20000 + 10000);
}

BOOST_AUTO_TEST_CASE(several_members_expiring_together_start_one_rebalance) {
  driver d;
  auto f = form_stable_group(d, {"a", "b", "c"});
  d.heartbeat(f.ids[0], 1, f.at + 5000);
  d.tick(f.at + 10000); // b and c
  BOOST_TEST(d.g.members().size() == 1u);
  BOOST_TEST(d.g.phase() == group_phase::preparing_rebalance);
  auto ja = d.join(consumer_join(f.ids[0], "a"), f.at + 10001);
  BOOST_TEST(d.join_answer_of(ja).generation == 2);
}

BOOST_AUTO_TEST_CASE(an_id_asked_for_with_member_id_required_lapses_after_a_session) {
  driver d;
  auto f = form_stable_group(d, {"a", "b"});
  auto t = f.at + 100;
  auto rc = consumer_join("", "c");
  rc.require_known_member_id = true;
  auto c = d.join_answer_of(d.join(rc, t)).member_id;
  auto jd = d.join_new("d", t);
  d.join(consumer_join(f.ids[0], "a"), t + 10);
  d.join(consumer_join(f.ids[1], "b"), t + 10);
  d.tick(t + 9999);
  BOOST_TEST(!d.answered(jd)); // c may still come
  d.tick(t + 10000);             // c's id lapsed
  BOOST_TEST(d.join_answer_of(jd).generation == 2);
  BOOST_TEST(d.g.members().size() == 3u);
  rc.member_id = c;
  BOOST_TEST(d.join_answer_of(d.join(rc, t + 10001)).error == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_CASE(a_new_member_held_too_long_is_dropped) {
  auto config = test_config();
  config.new_member_join_timeout_ms = 5000;
  driver d(config);
  auto f = form_stable_group(d, {"a"});
  auto t = f.at + 100;
  auto jc = d.join_new("c", t);
  d.heartbeat(f.ids[0], 1, t + 4000); // a heartbeats but does not rejoin
  d.tick(t + 4999);
  BOOST_TEST(!d.answered(jc));
  d.tick(t + 5000);
  BOOST_TEST(d.join_answer_of(jc).error == kafka_error::unknown_member_id);
  BOOST_TEST(d.join_answer_of(jc).member_id == "");
  BOOST_TEST(d.g.members().size() == 1u);
}

BOOST_AUTO_TEST_CASE(next_deadline_names_the_earliest_thing_to_do) {
  driver d;
  BOOST_TEST(!d.g.next_deadline().has_value());
  d.join_new("a", 100);
  BOOST_TEST(d.g.next_deadline().value() == 3100); // the initial delay
  d.tick(3100);
  // Completing: the member's session runs from the end of the rebalance.
  BOOST_TEST(d.g.next_deadline().value() == 3100 + 10000);
  // Nothing happens at an early tick.
  d.tick(3200);
  BOOST_TEST(d.g.next_deadline().value() == 13100);
  BOOST_TEST(d.g.members().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_late_tick_does_everything_that_fell_due) {
  driver d;
  auto ja = d.join_new("a", 0);
  d.join_new("b", 1000);
  // One tick long after: the initial delay (extended to 6000) completes, and then nothing
  // expires, since sessions restart at the completion.
  d.tick(20000);
  BOOST_TEST(d.join_answer_of(ja).generation == 1);
  BOOST_TEST(d.g.members().size() == 2u);
  BOOST_TEST(d.g.next_deadline().value() == 30000);
}

BOOST_AUTO_TEST_SUITE_END()
