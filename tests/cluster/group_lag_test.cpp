// cafka-consumer-groups' logic: the --describe table and the --reset-offsets plan.

#include <boost/test/unit_test.hpp>

#include "cluster/group_lag.hpp"
#include "protocol/wire/consumer_protocol.hpp"

using namespace cafka::cluster;

namespace {

group_bytes assignment_of(const std::vector<cafka::wire::consumer_topic_partitions>& parts) {
  cafka::wire::consumer_assignment a;
  a.assigned_partitions = parts;
  std::vector<char> bytes;
  cafka::wire::byte_writer w{bytes};
  encode_consumer_assignment(a, w);
  return bytes;
}

group_description stable_group() {
  group_description g;
  g.state = group_phase::stable;
  g.protocol_type = "consumer";
  g.protocol = "range";
  g.members = {{"m-a", std::nullopt, "client-a", "/127.0.0.1", {}, assignment_of({{"t", {0, 1}}})},
               {"m-b", std::nullopt, "client-b", "/127.0.0.2", {}, assignment_of({{"t", {2}}, {"u", {0}}})}};
  return g;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_lag_table)

BOOST_AUTO_TEST_CASE(rows_join_commits_owners_and_log_ends) {
  std::map<topic_partition, int64_t> committed{{{"t", 0}, 10}, {{"t", 2}, 7}, {{"old", 0}, 3}};
  std::map<topic_partition, partition_bounds> bounds{
    {{"t", 0}, {0, 15}}, {{"t", 1}, {0, 4}}, {{"t", 2}, {0, 7}}, {{"u", 0}, {2, 9}}};
  auto rows = group_lag(stable_group(), committed, bounds);
  BOOST_REQUIRE(rows.size() == 5u);
  // Sorted by topic, then partition: old-0, t-0, t-1, t-2, u-0.
  BOOST_TEST(rows[0].tp.topic == "old");
  BOOST_TEST(rows[0].member_id.empty());
  BOOST_TEST(!rows[0].log_end.has_value()); // the topic is gone: no end, no lag
  BOOST_TEST(!rows[0].lag.has_value());
  BOOST_TEST(rows[1].tp.partition == 0);
  BOOST_TEST(*rows[1].committed == 10);
  BOOST_TEST(*rows[1].lag == 5);
  BOOST_TEST(rows[1].member_id == "m-a");
  BOOST_TEST(rows[1].client_id == "client-a");
  BOOST_TEST(!rows[2].committed.has_value()); // held but never committed
  BOOST_TEST(*rows[2].log_end == 4);
  BOOST_TEST(!rows[2].lag.has_value());
  BOOST_TEST(*rows[3].lag == 0);
  BOOST_TEST(rows[3].member_id == "m-b");
  BOOST_TEST(rows[4].tp.topic == "u");
  BOOST_TEST(rows[4].client_host == "/127.0.0.2");
}

BOOST_AUTO_TEST_CASE(foreign_protocols_and_undecodable_assignments_hold_nothing) {
  auto g = stable_group();
  g.members[0].assignment = {'\x00'}; // truncated
  BOOST_TEST(partition_owners(g).size() == 2u);
  g.protocol_type = "connect";
  BOOST_TEST(partition_owners(g).empty());
}

BOOST_AUTO_TEST_CASE(only_empty_and_dead_groups_are_inactive) {
  BOOST_TEST(is_inactive(group_phase::empty));
  BOOST_TEST(is_inactive(group_phase::dead));
  BOOST_TEST(!is_inactive(group_phase::stable));
  BOOST_TEST(!is_inactive(group_phase::preparing_rebalance));
  BOOST_TEST(!is_inactive(group_phase::completing_rebalance));
}

BOOST_AUTO_TEST_CASE(resets_go_to_the_start_the_end_or_a_clamped_offset) {
  std::map<topic_partition, partition_bounds> bounds{{{"t", 0}, {5, 20}}, {{"t", 1}, {0, 3}}};
  std::vector<topic_partition> parts{{"t", 0}, {"t", 1}, {"gone", 0}};
  auto earliest = plan_reset(parts, bounds, {reset_target::earliest, 0});
  BOOST_TEST(earliest.offsets.at({"t", 0}) == 5);
  BOOST_TEST(earliest.offsets.at({"t", 1}) == 0);
  BOOST_REQUIRE(earliest.unknown.size() == 1u);
  BOOST_TEST(earliest.unknown[0].topic == "gone");
  auto latest = plan_reset(parts, bounds, {reset_target::latest, 0});
  BOOST_TEST(latest.offsets.at({"t", 0}) == 20);
  BOOST_TEST(latest.offsets.at({"t", 1}) == 3);
  auto at = plan_reset(parts, bounds, {reset_target::offset, 10});
  BOOST_TEST(at.offsets.at({"t", 0}) == 10);
  BOOST_TEST(at.offsets.at({"t", 1}) == 3); // above the end: the end
  auto low = plan_reset(parts, bounds, {reset_target::offset, 1});
  BOOST_TEST(low.offsets.at({"t", 0}) == 5); // below the start: the start
}

BOOST_AUTO_TEST_SUITE_END()
