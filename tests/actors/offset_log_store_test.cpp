// The persistent committed-offsets store: __consumer_offsets replayed at reopen, tombstones
// of expired offsets, groups spread over offsets.topic.num.partitions partitions, compaction
// of superseded records (also with commits arriving meanwhile), and the expirer's timer and
// group probe in simulated time.
#include <boost/test/unit_test.hpp>

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "actors/group_actor.hpp"
#include "actors/group_registry.hpp"
#include "actors/offset_log_store.hpp"
#include "actors/offsets_expirer.hpp"
#include "actors/persistent_group_offsets.hpp"
#include "cluster/offsets_partition.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

constexpr int64_t t0 = 1'700'000'000'000;
constexpr int64_t minute_ms = 60'000;

// A log dir with the store open in it; reopen() closes both and opens them again.
struct open_store {
  std::string root;
  std::unique_ptr<storage::log_directory> dir;
  std::shared_ptr<offset_log_store> store;

  storage::log_config cfg;
  offset_log_store::blocking_runner runner;
  offset_store_options options;

  explicit open_store(std::string path, storage::log_config c = {}, offset_log_store::blocking_runner r = nullptr,
                      offset_store_options o = {})
      : root(std::move(path)), cfg(c), runner(std::move(r)), options(o) {
    open();
  }
  ~open_store() { close(); }

  void open() {
    auto d = storage::log_directory::open(root);
    BOOST_REQUIRE(d);
    dir = std::move(*d);
    auto s = offset_log_store::open(*dir, cfg, t0, runner, options);
    BOOST_REQUIRE_MESSAGE(s, s.error().message());
    store = *s;
  }
  void close() {
    if (!store)
      return;
    BOOST_CHECK(store->close());
    store.reset();
    dir.reset();
  }
  void reopen() {
    close();
    open();
  }
};

group_offset offset_of(const std::string& topic, int32_t partition, int64_t offset, std::string metadata = "",
                       int32_t epoch = -1) {
  return group_offset{storage::topic_partition{topic, partition}, offset, epoch, std::move(metadata)};
}

std::vector<group_offset> fetch_all(offset_log_store& s, const std::string& group) {
  return s.fetch(group, group_offset_query{true, {}});
}

void check_same(const std::vector<group_offset>& got, const std::vector<group_offset>& want) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    BOOST_CHECK(got[i].tp == want[i].tp);
    BOOST_CHECK_EQUAL(got[i].offset, want[i].offset);
    BOOST_CHECK_EQUAL(got[i].leader_epoch, want[i].leader_epoch);
    BOOST_CHECK_EQUAL(got[i].metadata, want[i].metadata);
  }
}

cluster::group_expiry_state always_empty(const std::string&) { return {true, std::nullopt}; }

} // namespace

BOOST_AUTO_TEST_SUITE(offset_log_store_suite)

BOOST_AUTO_TEST_CASE(committed_offsets_survive_a_reopen_and_the_last_commit_wins) {
  test::temp_folder tmp;
  open_store s{tmp.path};
  BOOST_CHECK(s.store->commit("g", {offset_of("t", 0, 5, "meta", 3), offset_of("t", 1, 7)}, t0)
              == protocol::kafka_error::none);
  BOOST_CHECK(s.store->commit("g", {offset_of("t", 0, 9)}, t0 + 1) == protocol::kafka_error::none);
  BOOST_CHECK(s.store->commit("h", {offset_of("u", 2, 1)}, t0 + 2) == protocol::kafka_error::none);
  BOOST_CHECK(std::filesystem::exists(tmp.path + "/__consumer_offsets-0"));

  s.reopen();
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 9), offset_of("t", 1, 7)});
  check_same(fetch_all(*s.store, "h"), {offset_of("u", 2, 1)});
  check_same(s.store->fetch("g", group_offset_query{false, {{"t", 1}, {"t", 4}}}), {offset_of("t", 1, 7)});
  BOOST_CHECK_EQUAL(s.store->log_records(), 4u); // every record replayed, the superseded one too
  BOOST_CHECK_EQUAL(s.store->size(), 3u);
}

BOOST_AUTO_TEST_CASE(commits_after_a_reopen_append_after_the_replayed_records) {
  test::temp_folder tmp;
  open_store s{tmp.path};
  s.store->commit("g", {offset_of("t", 0, 1)}, t0);
  s.reopen();
  s.store->commit("g", {offset_of("t", 0, 2, "second")}, t0 + 5);
  s.reopen();
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 2, "second")});
}

BOOST_AUTO_TEST_CASE(expired_offsets_become_tombstones_that_a_reopen_replays) {
  test::temp_folder tmp;
  open_store s{tmp.path};
  s.store->commit("old", {offset_of("t", 0, 1), offset_of("t", 1, 2)}, t0);
  s.store->commit("new", {offset_of("t", 0, 3)}, t0 + 10 * minute_ms);
  auto expired = s.store->expire(t0 + 15 * minute_ms, 10 * minute_ms, always_empty);
  BOOST_REQUIRE(expired);
  BOOST_CHECK_EQUAL(*expired, 2u);
  BOOST_CHECK(fetch_all(*s.store, "old").empty());
  BOOST_CHECK(s.store->groups() == std::vector<std::string>{"new"});

  s.reopen();
  BOOST_CHECK(fetch_all(*s.store, "old").empty()); // the tombstones are in the log
  check_same(fetch_all(*s.store, "new"), {offset_of("t", 0, 3)});
  BOOST_CHECK_EQUAL(s.store->log_records(), 5u); // 3 commits + 2 tombstones
}

BOOST_AUTO_TEST_CASE(a_group_with_members_keeps_its_offsets) {
  test::temp_folder tmp;
  open_store s{tmp.path};
  s.store->commit("busy", {offset_of("t", 0, 1)}, t0);
  auto expired = s.store->expire(t0 + 100 * minute_ms, minute_ms, [](const std::string&) {
    return cluster::group_expiry_state{false, std::nullopt};
  });
  BOOST_REQUIRE(expired);
  BOOST_CHECK_EQUAL(*expired, 0u);
  check_same(fetch_all(*s.store, "busy"), {offset_of("t", 0, 1)});
}

BOOST_AUTO_TEST_CASE(a_group_actor_commits_through_the_store) {
  test::temp_folder tmp;
  open_store s{tmp.path};
  persistent_group_offsets view{"g", s.store, [] { return t0; }};
  protocol::kafka_error answer = protocol::kafka_error::unknown_server_error;
  view.commit({offset_of("t", 0, 42, "m")}, 0, [&](protocol::kafka_error e) { answer = e; });
  BOOST_CHECK(answer == protocol::kafka_error::none);
  s.reopen();
  persistent_group_offsets again{"g", s.store, [] { return t0; }};
  std::vector<group_offset> found;
  again.fetch(group_offset_query{false, {{"t", 0}}}, [&](std::vector<group_offset> f) { found = std::move(f); });
  check_same(found, {offset_of("t", 0, 42, "m")});
}

BOOST_AUTO_TEST_CASE(flush_messages_hands_the_fsync_to_the_runner_and_advances_the_recovery_point) {
  test::temp_folder tmp;
  storage::log_config cfg;
  cfg.flush_interval_messages = 2;
  int jobs = 0;
  // Inline, as the node's runner before the I/O worker exists: must not deadlock.
  open_store s{tmp.path, cfg, [&](std::function<std::error_code()> job) {
                 ++jobs;
                 BOOST_CHECK(!job());
               }};
  s.store->commit("g", {offset_of("t", 0, 1)}, t0);
  BOOST_CHECK_EQUAL(jobs, 0);
  BOOST_CHECK_EQUAL(s.store->log()->recovery_point(), 0);
  s.store->commit("g", {offset_of("t", 0, 2)}, t0);
  BOOST_CHECK_EQUAL(jobs, 1);
  BOOST_CHECK_EQUAL(s.store->log()->recovery_point(), 2);
}

// --- partitions ------------------------------------------------------------------------

namespace {

namespace fs = std::filesystem;

std::string offsets_dir(const std::string& root, int32_t p) {
  return root + "/__consumer_offsets-" + std::to_string(p);
}

// The __consumer_offsets-K folders (exactly those names) in `root`.
std::set<std::string> offsets_folders(const std::string& root) {
  std::set<std::string> out;
  for (auto& e : fs::directory_iterator(root)) {
    auto name = e.path().filename().string();
    if (name.rfind("__consumer_offsets", 0) == 0)
      out.insert(name);
  }
  return out;
}

uint64_t log_bytes(const offset_log_store& s, int32_t p) {
  auto log = s.log(p);
  BOOST_REQUIRE(log);
  return log->size_bytes();
}

// Runs blocking jobs only when the test says so (a clean "in flight").
struct queued_runner {
  std::shared_ptr<std::deque<std::function<std::error_code()>>> jobs =
    std::make_shared<std::deque<std::function<std::error_code()>>>();
  offset_log_store::blocking_runner runner() {
    auto q = jobs;
    return [q](std::function<std::error_code()> job) { q->push_back(std::move(job)); };
  }
  void run_all() {
    for (int i = 0; i < 100 && !jobs->empty(); ++i) {
      auto job = std::move(jobs->front());
      jobs->pop_front();
      BOOST_CHECK(!job());
    }
    BOOST_CHECK(jobs->empty());
  }
};

// Small segments, so that the cleaner gets sealed segments to clean after a few dozen commits.
storage::log_config clean_early() {
  storage::log_config c;
  c.segment_bytes = 4096;
  return c;
}

} // namespace

BOOST_AUTO_TEST_CASE(groups_go_to_their_partition_and_only_used_partitions_get_a_folder) {
  test::temp_folder tmp;
  offset_store_options o;
  o.partitions = 7;
  open_store s{tmp.path, {}, nullptr, o};
  BOOST_CHECK(offsets_folders(tmp.path).empty()); // nothing created before the first commit
  std::map<int32_t, int64_t> records_per_partition;
  std::set<std::string> expected_folders;
  for (int i = 0; i < 20; ++i) {
    auto group = "group-" + std::to_string(i);
    auto p = cluster::offsets_partition_for(group, 7);
    BOOST_CHECK_EQUAL(s.store->partition_for(group), p);
    BOOST_CHECK(s.store->commit(group, {offset_of("t", 0, i), offset_of("t", 1, 100 + i)}, t0 + i)
                == protocol::kafka_error::none);
    records_per_partition[p] += 2;
    expected_folders.insert("__consumer_offsets-" + std::to_string(p));
  }
  BOOST_CHECK(records_per_partition.size() >= 3u); // 20 groups do spread
  BOOST_CHECK(offsets_folders(tmp.path) == expected_folders);
  for (auto& [p, n] : records_per_partition)
    BOOST_CHECK_EQUAL(s.store->log(p)->log_end_offset(), n); // each group's records in its partition only

  s.reopen();
  BOOST_CHECK_EQUAL(s.store->size(), 40u);
  for (int i = 0; i < 20; ++i)
    check_same(fetch_all(*s.store, "group-" + std::to_string(i)), {offset_of("t", 0, i), offset_of("t", 1, 100 + i)});
  for (auto& [p, n] : records_per_partition)
    BOOST_CHECK_EQUAL(s.store->log(p)->log_end_offset(), n); // reopening appends nothing
}

BOOST_AUTO_TEST_CASE(a_changed_partition_count_moves_groups_home_and_loses_nothing) {
  test::temp_folder tmp;
  std::vector<std::string> groups;
  for (int i = 0; i < 12; ++i)
    groups.push_back("g" + std::to_string(i));
  {
    offset_store_options o;
    o.partitions = 5;
    open_store s{tmp.path, {}, nullptr, o};
    for (size_t i = 0; i < groups.size(); ++i)
      s.store->commit(groups[i], {offset_of("t", 0, static_cast<int64_t>(i))}, t0);
  }
  for (int32_t n : {3, 3, 1, 9}) { // fewer, the same again, one, more partitions than on disk
    offset_store_options o;
    o.partitions = n;
    open_store s{tmp.path, {}, nullptr, o};
    BOOST_CHECK_EQUAL(s.store->size(), groups.size()); // each key live in exactly one partition
    for (size_t i = 0; i < groups.size(); ++i) {
      check_same(fetch_all(*s.store, groups[i]), {offset_of("t", 0, static_cast<int64_t>(i))});
      auto home = s.store->log(cluster::offsets_partition_for(groups[i], n));
      BOOST_CHECK(home != nullptr);
    }
    BOOST_CHECK(s.store->groups() == [&] {
      auto sorted = groups;
      std::sort(sorted.begin(), sorted.end());
      return sorted;
    }());
  }
  // A commit after the move lands in the home partition and wins over the moved one.
  offset_store_options o;
  o.partitions = 9;
  open_store s{tmp.path, {}, nullptr, o};
  s.store->commit("g3", {offset_of("t", 0, 333)}, t0 + 1);
  s.reopen();
  check_same(fetch_all(*s.store, "g3"), {offset_of("t", 0, 333)});
}

BOOST_AUTO_TEST_CASE(a_bad_partition_count_is_refused) {
  test::temp_folder tmp;
  auto d = storage::log_directory::open(tmp.path);
  BOOST_REQUIRE(d);
  offset_store_options o;
  o.partitions = 0;
  BOOST_CHECK(!offset_log_store::open(**d, {}, t0, nullptr, o));
}

// --- compaction -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(superseded_records_are_cleaned_away_and_a_reopen_gives_the_latest_offsets) {
  test::temp_folder tmp;
  open_store s{tmp.path, clean_early()};
  s.store->commit("other", {offset_of("u", 0, 7, "kept")}, t0);
  uint64_t largest = 0;
  for (int i = 1; i <= 500; ++i) {
    s.store->commit("g", {offset_of("t", 0, i), offset_of("t", 1, 2 * i)}, t0 + i);
    largest = std::max(largest, log_bytes(*s.store, 0));
  }
  BOOST_CHECK(s.store->cleans() >= 5u);
  auto log = s.store->log(0);
  BOOST_CHECK(log->size_bytes() < largest);
  BOOST_CHECK(largest < 8 * 4096u); // the dirty part never grows far beyond the clean part
  BOOST_CHECK_EQUAL(log->log_start_offset(), 0); // compaction keeps offsets and the log start
  BOOST_CHECK_EQUAL(log->log_end_offset(), 1001);
  BOOST_CHECK(offsets_folders(tmp.path) == std::set<std::string>{"__consumer_offsets-0"});

  s.reopen();
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 500), offset_of("t", 1, 1000)});
  check_same(fetch_all(*s.store, "other"), {offset_of("u", 0, 7, "kept")});
  BOOST_CHECK(s.store->log_records() < 300u); // the replay read the compacted log
  s.store->commit("g", {offset_of("t", 0, 501)}, t0 + 501);
  s.reopen();
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 501), offset_of("t", 1, 1000)});
}

BOOST_AUTO_TEST_CASE(a_log_of_one_segment_is_not_cleaned) {
  test::temp_folder tmp;
  open_store s{tmp.path}; // default: segments of 1 GiB
  for (int i = 0; i < 200; ++i)
    s.store->commit("g", {offset_of("t", 0, i)}, t0 + i);
  BOOST_CHECK_EQUAL(s.store->cleans(), 0u);
  BOOST_CHECK_EQUAL(s.store->log_records(), 200u);
}

BOOST_AUTO_TEST_CASE(commits_while_a_clean_is_in_flight_survive_it) {
  test::temp_folder tmp;
  queued_runner q;
  open_store s{tmp.path, clean_early(), q.runner()};
  s.store->commit("old", {offset_of("t", 0, 1)}, t0);
  int i = 0;
  while (q.jobs->empty() && i < 1000) { // until the clean is handed to the I/O worker
    ++i;
    s.store->commit("g", {offset_of("t", 0, i)}, t0 + i);
  }
  BOOST_REQUIRE_EQUAL(q.jobs->size(), 1u);
  // Meanwhile: the same key again, a new key, a new group; and a tombstone by expiry.
  s.store->commit("g", {offset_of("t", 0, 5000, "during")}, t0 + 5000);
  s.store->commit("g", {offset_of("t", 9, 9)}, t0 + 5001);
  s.store->commit("late", {offset_of("v", 0, 1)}, t0 + 5002);
  auto expired = s.store->expire(t0 + 1000 + 10 * minute_ms, 10 * minute_ms, [](const std::string& g) {
    return cluster::group_expiry_state{g != "g" && g != "late", std::nullopt};
  });
  BOOST_REQUIRE(expired);
  BOOST_CHECK_EQUAL(*expired, 1u); // "old"
  q.run_all();
  BOOST_CHECK(s.store->cleans() >= 1u);
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 5000, "during"), offset_of("t", 9, 9)});
  s.reopen();
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, 5000, "during"), offset_of("t", 9, 9)});
  check_same(fetch_all(*s.store, "late"), {offset_of("v", 0, 1)});
  BOOST_CHECK(fetch_all(*s.store, "old").empty());
  BOOST_CHECK(s.store->log_records() < static_cast<size_t>(i)); // the replay read a compacted log
}

BOOST_AUTO_TEST_CASE(commits_from_another_thread_during_cleans_are_kept) {
  test::temp_folder tmp;
  queued_runner q;
  open_store s{tmp.path, clean_early(), q.runner()};
  int i = 0;
  while (q.jobs->empty() && i < 1000) {
    ++i;
    s.store->commit("g", {offset_of("t", 0, i)}, t0 + i);
  }
  BOOST_REQUIRE_EQUAL(q.jobs->size(), 1u);
  auto job = std::move(q.jobs->front());
  q.jobs->pop_front();
  std::error_code job_error;
  std::thread io{[&job, &job_error] { job_error = job(); }}; // the I/O worker
  for (int k = 0; k < 300; ++k) // commits on "scheduler threads" while the job runs
    s.store->commit("h" + std::to_string(k % 3), {offset_of("t", k % 5, k)}, t0 + 2000 + k);
  io.join();
  BOOST_CHECK(!job_error);
  BOOST_CHECK(s.store->cleans() >= 1u);
  q.run_all(); // the cleans the commits above started
  s.reopen();
  for (int g = 0; g < 3; ++g) {
    std::vector<group_offset> want;
    for (int p = 0; p < 5; ++p) {
      int last = -1;
      for (int k = 0; k < 300; ++k)
        if (k % 3 == g && k % 5 == p)
          last = k;
      want.push_back(offset_of("t", p, last));
    }
    check_same(fetch_all(*s.store, "h" + std::to_string(g)), want);
  }
  check_same(fetch_all(*s.store, "g"), {offset_of("t", 0, i)});
}

// The expirer in simulated time: nothing expires before offsets.retention.minutes after the
// commit, then the offsets of a group without an actor do, and of a group whose actor has
// no members too.
struct expirer_fixture : test::deterministic_fixture {
  test::temp_folder tmp;
  open_store s{tmp.path};
  std::shared_ptr<group_registry> groups;
  offsets_expirer_actor expirer;

  expirer_fixture() {
    now = t0;
    groups = std::make_shared<group_registry>([this](const std::string& id) {
      return spawn_group(sys, group_context{id, cluster::group_config{},
                                            std::make_shared<persistent_group_offsets>(id, s.store, clock())});
    });
    expirer = spawn_offsets_expirer(sys, offsets_expirer_config{s.store, groups, 1000ms, 10 * minute_ms, clock()});
    run();
  }
  ~expirer_fixture() {
    for (auto& g : groups->close())
      caf::anon_send_exit(g, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(expirer, caf::exit_reason::user_shutdown);
    run();
  }
};

BOOST_FIXTURE_TEST_CASE(the_expirer_removes_offsets_after_the_retention, expirer_fixture) {
  s.store->commit("gone", {offset_of("t", 0, 1)}, now);
  BOOST_REQUIRE(groups->find_or_spawn("idle"));
  s.store->commit("idle", {offset_of("t", 0, 2)}, now);
  run();
  for (int i = 0; i < 9 * 60; ++i) // 9 minutes of 1 s ticks
    advance(1000ms);
  BOOST_CHECK_EQUAL(s.store->size(), 2u);
  for (int i = 0; i < 61 + 1; ++i)
    advance(1000ms);
  BOOST_CHECK_EQUAL(s.store->size(), 0u);
  s.reopen();
  BOOST_CHECK_EQUAL(s.store->size(), 0u);
}

BOOST_AUTO_TEST_SUITE_END()
