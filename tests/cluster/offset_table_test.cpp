// The in-memory view of committed offsets: updates, lookups, expiry under simulated time,
// superseded records and the snapshot that replaces the log.
#include "cluster/offset_table.hpp"

#include <limits>
#include <map>

#include <boost/test/unit_test.hpp>

#include "protocol/control_batch.hpp"
#include "tests/protocol/test_support.hpp"

using namespace cafka::cluster;
using cafka::protocol::test::view;

namespace {

constexpr int64_t minute_ms = 60 * 1000;
constexpr int64_t retention_ms = 10080 * minute_ms; // offsets.retention.minutes default

committed_offset commit(int64_t offset, int64_t ts, std::string metadata = "") {
  committed_offset c;
  c.offset = offset;
  c.metadata = std::move(metadata);
  c.commit_timestamp_ms = ts;
  return c;
}

offset_update put(std::string group, std::string topic, int32_t partition, int64_t offset,
                  int64_t ts = 0) {
  return {{std::move(group), std::move(topic), partition}, commit(offset, ts)};
}

offset_update remove(std::string group, std::string topic, int32_t partition) {
  return {{std::move(group), std::move(topic), partition}, std::nullopt};
}

/// Group states for expiry, by name; groups not listed are empty with no known time.
struct groups_fixture {
  std::map<std::string, group_expiry_state> states;
  std::map<std::string, int> asked;

  group_expiry_probe probe() {
    return [this](const std::string& g) {
      ++asked[g];
      auto it = states.find(g);
      return it == states.end() ? group_expiry_state{} : it->second;
    };
  }
};

std::vector<offset_key> keys_of(const std::vector<offset_update>& updates) {
  std::vector<offset_key> out;
  for (auto& u : updates) {
    BOOST_TEST(u.is_tombstone());
    out.push_back(u.key);
  }
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(offset_table_lookup)

BOOST_AUTO_TEST_CASE(commits_replace_and_tombstones_delete) {
  offset_table t;
  BOOST_TEST(t.find({"g", "t", 0}) == nullptr);
  t.apply(put("g", "t", 0, 10, 100));
  BOOST_REQUIRE(t.find({"g", "t", 0}) != nullptr);
  BOOST_TEST(t.find({"g", "t", 0})->offset == 10);
  t.apply(put("g", "t", 0, 20, 200));
  BOOST_TEST(t.find({"g", "t", 0})->offset == 20);
  BOOST_TEST(t.find({"g", "t", 0})->commit_timestamp_ms == 200);
  BOOST_TEST(t.find({"g", "t", 1}) == nullptr);
  BOOST_TEST(t.find({"h", "t", 0}) == nullptr);
  t.apply(remove("g", "t", 0));
  BOOST_TEST(t.find({"g", "t", 0}) == nullptr);
  BOOST_TEST(t.empty());
  t.apply(remove("g", "t", 0)); // deleting what is not there is harmless
  BOOST_TEST(t.empty());
}

BOOST_AUTO_TEST_CASE(all_offsets_of_a_group_by_topic_and_partition) {
  offset_table t;
  t.apply({put("g", "b", 1, 11), put("g", "a", 2, 22), put("g", "a", -1, 5),
           put("g2", "a", 0, 99), put("f", "a", 0, 98), put("g", "b", 0, 10)});
  auto offsets = t.group_offsets("g");
  BOOST_REQUIRE(offsets.size() == 4u);
  BOOST_TEST(offsets[0].topic == "a");
  BOOST_TEST(offsets[0].partition == -1);
  BOOST_TEST(offsets[1].topic == "a");
  BOOST_TEST(offsets[1].partition == 2);
  BOOST_TEST(offsets[1].committed.offset == 22);
  BOOST_TEST(offsets[2].topic == "b");
  BOOST_TEST(offsets[2].partition == 0);
  BOOST_TEST(offsets[3].partition == 1);
  BOOST_TEST(t.group_offsets("g2").size() == 1u); // "g2" is not part of "g"
  BOOST_TEST(t.group_offsets("").empty());
  BOOST_TEST(t.group_offsets("x").empty());
}

BOOST_AUTO_TEST_CASE(groups_known) {
  offset_table t;
  BOOST_TEST(t.groups().empty());
  t.apply({put("g2", "a", 0, 1), put("g", "a", 0, 1), put("g", "b", 0, 1), put("", "a", 0, 1)});
  BOOST_TEST((t.groups() == std::vector<std::string>{"", "g", "g2"}));
  BOOST_TEST(t.has_group("g"));
  BOOST_TEST(t.has_group(""));
  BOOST_TEST(!t.has_group("h"));
  t.apply(remove("g2", "a", 0));
  BOOST_TEST(!t.has_group("g2"));
  BOOST_TEST((t.groups() == std::vector<std::string>{"", "g"}));
}

BOOST_AUTO_TEST_CASE(metadata_and_leader_epoch_are_kept) {
  offset_table t;
  offset_update u{{"g", "t", 0}, commit(5, 1, "checkpoint-7")};
  u.value->leader_epoch = 3;
  t.apply(u);
  BOOST_TEST(t.find({"g", "t", 0})->metadata == "checkpoint-7");
  BOOST_TEST(t.find({"g", "t", 0})->leader_epoch == 3);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(offset_table_expiry)

BOOST_AUTO_TEST_CASE(offsets_of_a_group_with_members_never_expire) {
  offset_table t;
  t.apply(put("live", "t", 0, 1, 0));
  groups_fixture groups;
  groups.states["live"] = {false, std::nullopt};
  BOOST_TEST(t.expired(100 * retention_ms, retention_ms, groups.probe()).empty());
  // Even with a known (stale) empty time: members now, so nothing goes.
  groups.states["live"] = {false, 0};
  BOOST_TEST(t.expired(100 * retention_ms, retention_ms, groups.probe()).empty());
}

BOOST_AUTO_TEST_CASE(without_a_known_empty_time_each_offset_expires_after_its_last_commit) {
  offset_table t;
  t.apply({put("g", "t", 0, 1, 1000), put("g", "t", 1, 1, 5000)});
  groups_fixture groups; // "g" unknown: empty, no time (a standalone consumer's commits)
  BOOST_TEST(t.expired(1000 + retention_ms - 1, retention_ms, groups.probe()).empty());
  BOOST_TEST((keys_of(t.expired(1000 + retention_ms, retention_ms, groups.probe()))
              == std::vector<offset_key>{{"g", "t", 0}}));
  // A new commit restarts that partition's clock.
  t.apply(put("g", "t", 0, 2, 2000));
  BOOST_TEST(t.expired(1000 + retention_ms, retention_ms, groups.probe()).empty());
  BOOST_TEST((keys_of(t.expired(5000 + retention_ms, retention_ms, groups.probe()))
              == std::vector<offset_key>{{"g", "t", 0}, {"g", "t", 1}}));
}

BOOST_AUTO_TEST_CASE(an_empty_group_loses_all_offsets_retention_after_it_became_empty) {
  offset_table t;
  // Committed long before and shortly before the group emptied at 50'000.
  t.apply({put("g", "t", 0, 1, 1000), put("g", "t", 1, 1, 49'000), put("other", "t", 0, 1, 0)});
  groups_fixture groups;
  groups.states["g"] = {true, 50'000};
  groups.states["other"] = {false, std::nullopt};
  BOOST_TEST(t.expired(50'000 + retention_ms - 1, retention_ms, groups.probe()).empty());
  auto gone = t.expired(50'000 + retention_ms, retention_ms, groups.probe());
  BOOST_TEST((keys_of(gone) == std::vector<offset_key>{{"g", "t", 0}, {"g", "t", 1}}));
  t.apply(gone);
  BOOST_TEST(!t.has_group("g"));
  BOOST_TEST(t.has_group("other"));
}

BOOST_AUTO_TEST_CASE(an_explicit_expire_timestamp_wins_over_retention) {
  offset_table t;
  offset_update u{{"g", "t", 0}, commit(1, 1000)};
  u.value->expire_timestamp_ms = 3000; // OffsetCommit v2-v4 with retention_time_ms = 2000
  t.apply({u, put("g", "t", 1, 1, 1000)});
  groups_fixture groups;
  BOOST_TEST(t.expired(2999, retention_ms, groups.probe()).empty());
  BOOST_TEST((keys_of(t.expired(3000, retention_ms, groups.probe()))
              == std::vector<offset_key>{{"g", "t", 0}}));
  // Longer than the retention, too: it then outlives the default.
  u.value->expire_timestamp_ms = 1000 + 2 * retention_ms;
  t.apply(u);
  BOOST_TEST((keys_of(t.expired(1000 + retention_ms, retention_ms, groups.probe()))
              == std::vector<offset_key>{{"g", "t", 1}}));
  // But not while the group has members.
  groups.states["g"] = {false, std::nullopt};
  BOOST_TEST(t.expired(1000 + 3 * retention_ms, retention_ms, groups.probe()).empty());
}

BOOST_AUTO_TEST_CASE(simulated_time_expires_each_group_on_schedule) {
  // A periodic check (offsets.retention.check.interval.ms) with a 10-minute retention.
  constexpr int64_t retention = 10 * minute_ms;
  constexpr int64_t interval = minute_ms;
  offset_table t;
  t.apply({put("a", "t", 0, 1, 0), put("b", "t", 0, 1, 3 * minute_ms)});
  groups_fixture groups;
  groups.states["a"] = {true, 2 * minute_ms};
  groups.states["b"] = {true, std::nullopt};
  std::map<std::string, int64_t> removed_at;
  for (int64_t now = 0; now <= 20 * minute_ms; now += interval) {
    auto gone = t.expired(now, retention, groups.probe());
    for (auto& u : gone)
      removed_at[u.key.group] = now;
    t.apply(gone);
  }
  BOOST_TEST(t.empty());
  BOOST_TEST(removed_at["a"] == 12 * minute_ms); // empty since 2 min
  BOOST_TEST(removed_at["b"] == 13 * minute_ms); // last commit at 3 min
}

BOOST_AUTO_TEST_CASE(each_group_is_asked_once) {
  offset_table t;
  t.apply({put("a", "t", 0, 1), put("a", "t", 1, 1), put("a", "u", 0, 1), put("b", "t", 0, 1)});
  groups_fixture groups;
  t.expired(0, retention_ms, groups.probe());
  BOOST_TEST(groups.asked["a"] == 1);
  BOOST_TEST(groups.asked["b"] == 1);
  BOOST_TEST(groups.asked.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_commit_in_the_future_does_not_overflow) {
  offset_table t;
  t.apply(put("g", "t", 0, 1, std::numeric_limits<int64_t>::max()));
  t.apply(put("g", "t", 1, 1, std::numeric_limits<int64_t>::min()));
  groups_fixture groups;
  BOOST_TEST((keys_of(t.expired(0, retention_ms, groups.probe()))
              == std::vector<offset_key>{{"g", "t", 1}}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(offset_table_transactions)

// TxnOffsetCommit's offsets are invisible until their transaction's COMMIT marker and dropped
// by ABORT; each producer's are held apart; replaying the log gives the same table.
BOOST_AUTO_TEST_CASE(pending_commits_appear_with_the_commit_marker_only) {
  offset_table t;
  t.apply(put("g", "t", 0, 5));
  t.add_pending(7, {put("g", "t", 0, 10), put("g", "t", 1, 3)});
  t.add_pending(8, {put("g", "t", 2, 99)});
  BOOST_TEST(t.has_pending());
  BOOST_TEST(t.find({"g", "t", 0})->offset == 5);
  BOOST_TEST(t.find({"g", "t", 1}) == nullptr);
  t.complete_pending(8, false); // aborted
  t.complete_pending(7, true);
  BOOST_TEST(!t.has_pending());
  BOOST_TEST(t.find({"g", "t", 0})->offset == 10);
  BOOST_TEST(t.find({"g", "t", 1})->offset == 3);
  BOOST_TEST(t.find({"g", "t", 2}) == nullptr);
  t.complete_pending(7, true); // a marker of a transaction without offsets here changes nothing
  BOOST_TEST(t.size() == 2u);
  BOOST_TEST(t.log_records() == 4u); // every record counts as written, pending or not
}

// As Kafka's completePendingTxnOffsetCommit: the marker does not bring back a pending offset
// over a plain commit written after it; a plain commit written before it is replaced.
BOOST_AUTO_TEST_CASE(a_plain_commit_after_a_pending_one_wins_over_its_marker) {
  offset_table t;
  t.apply(put("g", "t", 1, 2));                           // before the transaction's commit
  t.add_pending(7, {put("g", "t", 0, 5), put("g", "t", 1, 6)});
  t.apply(put("g", "t", 0, 10));                          // after it: newer
  t.complete_pending(7, true);
  BOOST_TEST(t.find({"g", "t", 0})->offset == 10);
  BOOST_TEST(t.find({"g", "t", 1})->offset == 6);
}

BOOST_AUTO_TEST_CASE(a_replayed_log_applies_markers_in_order) {
  using namespace cafka::protocol;
  std::vector<char> log;
  auto add = [&log](std::vector<char> batch) { log.insert(log.end(), batch.begin(), batch.end()); };
  add(encode_offset_batch({put("g", "t", 0, 1)}, 1));
  add(encode_txn_offset_batch({put("g", "t", 0, 20)}, 7, 0, 2));
  add(encode_txn_offset_batch({put("g", "t", 1, 30)}, 8, 0, 2));
  add(build_txn_marker_batch(8, 0, txn_marker{control_type::abort, 0}, 3));
  add(build_txn_marker_batch(7, 0, txn_marker{control_type::commit, 0}, 4));
  add(encode_txn_offset_batch({put("g", "t", 2, 40)}, 7, 1, 5)); // its next transaction, still open
  auto read = decode_offset_batches({log.data(), log.size()});
  BOOST_REQUIRE(read);
  BOOST_TEST(read->updates.size() == 1u); // the plain commit only
  BOOST_TEST(read->steps.size() == 6u);
  offset_table t;
  t.apply(*read);
  BOOST_TEST(t.find({"g", "t", 0})->offset == 20);
  BOOST_TEST(t.find({"g", "t", 1}) == nullptr);
  BOOST_TEST(t.find({"g", "t", 2}) == nullptr);
  BOOST_TEST(t.has_pending());
}

BOOST_AUTO_TEST_SUITE_END()
