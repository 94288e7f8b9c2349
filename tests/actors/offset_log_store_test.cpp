// The persistent committed-offsets store: __consumer_offsets-0 replayed at reopen, tombstones
// of expired offsets, and the expirer's timer and group probe in simulated time.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "actors/group_actor.hpp"
#include "actors/group_registry.hpp"
#include "actors/offset_log_store.hpp"
#include "actors/offsets_expirer.hpp"
#include "actors/persistent_group_offsets.hpp"
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

  explicit open_store(std::string path, storage::log_config c = {}, offset_log_store::blocking_runner r = nullptr)
      : root(std::move(path)), cfg(c), runner(std::move(r)) {
    open();
  }
  ~open_store() { close(); }

  void open() {
    auto d = storage::log_directory::open(root);
    BOOST_REQUIRE(d);
    dir = std::move(*d);
    auto s = offset_log_store::open(*dir, cfg, t0, runner);
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
