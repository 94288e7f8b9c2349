// SyncGroup, Heartbeat and the OffsetCommit check in cluster/group_state.
#include "cluster/group_state.hpp"

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"

using namespace group_test;

namespace {

/// Members join at 0; at 6000 they have generation 1 and the group awaits the leader's sync.
std::vector<std::string> completing_group(driver& d, const std::vector<std::string>& clients) {
  std::vector<uint64_t> joins;
  for (auto& c : clients)
    joins.push_back(d.join_new(c, 0));
  d.tick(3000);
  d.tick(6000);
  std::vector<std::string> ids;
  for (auto j : joins)
    ids.push_back(d.join_answer_of(j).member_id);
  BOOST_REQUIRE(d.g.phase() == group_phase::completing_rebalance);
  return ids;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_sync)

BOOST_AUTO_TEST_CASE(followers_syncs_are_held_until_the_leaders_arrives) {
  driver d;
  auto ids = completing_group(d, {"a", "b", "c"});
  auto sb = d.sync(ids[1], 1, 6100);
  auto sc = d.sync(ids[2], 1, 6200);
  BOOST_TEST(!d.answered(sb));
  BOOST_TEST(!d.answered(sc));
  // The leader assigns to a and b only: c gets an empty assignment. Unknown ids are ignored.
  auto sa = d.sync(ids[0], 1, 6300,
                   {{ids[0], bytes_of("pa")}, {ids[1], bytes_of("pb")}, {"x", bytes_of("px")}});
  BOOST_TEST(d.sync_answer_of(sa).error == kafka_error::none);
  BOOST_TEST((d.sync_answer_of(sa).assignment == bytes_of("pa")));
  BOOST_TEST(d.sync_answer_of(sb).error == kafka_error::none);
  BOOST_TEST((d.sync_answer_of(sb).assignment == bytes_of("pb")));
  BOOST_TEST(d.sync_answer_of(sc).error == kafka_error::none);
  BOOST_TEST(d.sync_answer_of(sc).assignment.empty());
  BOOST_TEST(d.g.phase() == group_phase::stable);
  // A later sync (a member that syncs after the leader) gets its assignment at once.
  auto again = d.sync(ids[1], 1, 7000);
  BOOST_TEST((d.sync_answer_of(again).assignment == bytes_of("pb")));
  BOOST_TEST(d.heartbeat(ids[1], 1, 7000) == kafka_error::none);
}

BOOST_AUTO_TEST_CASE(a_member_syncing_after_the_leader_gets_its_assignment) {
  driver d;
  auto ids = completing_group(d, {"a", "b"});
  d.sync(ids[0], 1, 6100, {{ids[0], bytes_of("pa")}, {ids[1], bytes_of("pb")}});
  BOOST_TEST(d.g.phase() == group_phase::stable);
  auto sb = d.sync(ids[1], 1, 6200);
  BOOST_TEST((d.sync_answer_of(sb).assignment == bytes_of("pb")));
}

BOOST_AUTO_TEST_CASE(sync_errors) {
  driver d;
  auto ids = completing_group(d, {"a", "b"});
  BOOST_TEST(d.sync_answer_of(d.sync(ids[1], 0, 6100)).error == kafka_error::illegal_generation);
  BOOST_TEST(d.sync_answer_of(d.sync(ids[1], 2, 6100)).error == kafka_error::illegal_generation);
  BOOST_TEST(d.sync_answer_of(d.sync("nobody", 1, 6100)).error
             == kafka_error::unknown_member_id);
  // A member joins: the group prepares a rebalance and syncs are told so.
  d.join_new("c", 6200);
  BOOST_REQUIRE(d.g.phase() == group_phase::preparing_rebalance);
  BOOST_TEST(d.sync_answer_of(d.sync(ids[1], 1, 6300)).error
             == kafka_error::rebalance_in_progress);
}

BOOST_AUTO_TEST_CASE(a_rebalance_answers_held_syncs_with_rebalance_in_progress) {
  driver d;
  auto ids = completing_group(d, {"a", "b"});
  auto sb = d.sync(ids[1], 1, 6100);
  BOOST_TEST(!d.answered(sb));
  d.join_new("c", 6200);
  BOOST_TEST(d.sync_answer_of(sb).error == kafka_error::rebalance_in_progress);
  BOOST_TEST(d.sync_answer_of(sb).assignment.empty());
}

BOOST_AUTO_TEST_CASE(a_second_sync_supersedes_a_held_one) {
  driver d;
  auto ids = completing_group(d, {"a", "b"});
  auto first = d.sync(ids[1], 1, 6100);
  auto second = d.sync(ids[1], 1, 6200);
  BOOST_TEST(d.sync_answer_of(first).error == kafka_error::rebalance_in_progress);
  d.sync(ids[0], 1, 6300, {{ids[1], bytes_of("pb")}});
  BOOST_TEST((d.sync_answer_of(second).assignment == bytes_of("pb")));
}

BOOST_AUTO_TEST_CASE(heartbeat_answers_by_state) {
  driver d;
  auto ids = completing_group(d, {"a", "b"});
  BOOST_TEST(d.heartbeat(ids[1], 1, 6100) == kafka_error::rebalance_in_progress); // completing
  d.sync(ids[0], 1, 6200, {});
  BOOST_TEST(d.heartbeat(ids[1], 1, 6300) == kafka_error::none); // stable
  BOOST_TEST(d.heartbeat(ids[1], 0, 6300) == kafka_error::illegal_generation);
  BOOST_TEST(d.heartbeat(ids[1], 2, 6300) == kafka_error::illegal_generation);
  BOOST_TEST(d.heartbeat("nobody", 1, 6300) == kafka_error::unknown_member_id);
  d.join_new("c", 6400);
  BOOST_TEST(d.heartbeat(ids[1], 1, 6500) == kafka_error::rebalance_in_progress); // preparing
}

BOOST_AUTO_TEST_CASE(heartbeats_on_an_empty_group_are_from_unknown_members) {
  driver d;
  BOOST_TEST(d.heartbeat("a-1", 0, 0) == kafka_error::unknown_member_id);
  BOOST_TEST(d.sync_answer_of(d.sync("a-1", 0, 0)).error == kafka_error::unknown_member_id);
}

BOOST_AUTO_TEST_CASE(offset_commits_follow_kafkas_membership_checks) {
  driver d;
  // An Empty group stores offsets for anyone who does not claim a generation.
  BOOST_TEST(d.g.check_offset_commit("", std::nullopt, -1, 0) == kafka_error::none);
  BOOST_TEST(d.g.check_offset_commit("x", std::nullopt, 1, 0) == kafka_error::unknown_member_id);
  auto ids = completing_group(d, {"a", "b"});
  BOOST_TEST(d.g.check_offset_commit(ids[0], std::nullopt, 1, 6100)
             == kafka_error::rebalance_in_progress);
  BOOST_TEST(d.g.check_offset_commit("", std::nullopt, -1, 6100)
             == kafka_error::unknown_member_id);
  d.sync(ids[0], 1, 6100, {});
  BOOST_TEST(d.g.check_offset_commit(ids[0], std::nullopt, 1, 6200) == kafka_error::none);
  BOOST_TEST(d.g.check_offset_commit(ids[0], std::nullopt, 0, 6200)
             == kafka_error::illegal_generation);
  // While the members rejoin, commits of the last generation still count.
  d.join_new("c", 6300);
  BOOST_TEST(d.g.check_offset_commit(ids[1], std::nullopt, 1, 6400) == kafka_error::none);
}

BOOST_AUTO_TEST_SUITE_END()
