// The cluster's offsets store (actors/replicated_offsets.hpp) against one partition actor
// under the deterministic scheduler: a load from the partition's batches, commits produced
// to the partition with acks=all and applied once answered, and the generations that keep
// a dropped or reloaded partition from taking old answers.
#include <boost/test/unit_test.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/partition_actor.hpp"
#include "actors/replicated_offsets.hpp"
#include "cluster/offset_records.hpp"
#include "storage/partition_log.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

caf::behavior inline_io_worker(caf::event_based_actor*) {
  return {[](io_job& job) -> caf::result<void> {
    if (auto ec = job.run())
      return to_caf_error(ec);
    return caf::unit;
  }};
}

const topic_partition events{"events", 0};

struct offsets_fixture : test::deterministic_fixture {
  test::temp_folder dir;
  topic_partition tp{"__consumer_offsets", 0};
  std::shared_ptr<storage::partition_log> log;
  caf::actor io = sys.spawn(inline_io_worker);
  partition_actor partition;
  int32_t group_partition = 0; ///< what partition_of answers
  std::shared_ptr<replicated_offsets> store;

  offsets_fixture() {
    log = std::shared_ptr<storage::partition_log>(
      std::move(*storage::partition_log::open(dir.path + "/__consumer_offsets-0", {}, 0, false, now)));
    partition = spawn_partition(sys, log, partition_context{tp, io, clock()}); // the only replica: leader
    store = std::make_shared<replicated_offsets>(
      sys, [this](const std::string&) { return group_partition; }, 5000, 1 << 20);
    run();
  }

  ~offsets_fixture() {
    auto closed = self->request(partition, caf::infinite, caf::close_atom_v);
    run();
    expect_reply(closed, [](int64_t) {});
    caf::anon_send_exit(io, caf::exit_reason::user_shutdown);
    run_all();
  }

  // Appends a commit of `group` to the partition directly, as an earlier leader did.
  void append_commit(const std::string& group, int64_t offset) {
    cluster::committed_offset value;
    value.offset = offset;
    value.commit_timestamp_ms = now;
    auto batch = cluster::encode_offset_batches({{cluster::offset_key{group, events.topic, events.partition}, value}},
                                                now, 1 << 20);
    auto req = self->request(partition, caf::infinite, produce_atom_v, produce_request{1, batch});
    run();
    expect_reply(req, [](produce_result&) {});
  }

  // Reads the whole replica into the store (what node_offsets.cpp does).
  void load(uint64_t generation) {
    int64_t offset = 0;
    for (;;) {
      std::vector<char> bytes;
      auto req = self->request(partition, caf::infinite, offsets_load_atom_v, offset, int32_t{1 << 20});
      run();
      expect_reply(req, [&](fetch_result& r) { bytes = std::move(r.records); });
      if (bytes.empty())
        return;
      auto next = store->load(0, generation, bytes);
      BOOST_REQUIRE(next);
      offset = *next;
    }
  }

  protocol::kafka_error commit(const std::string& group, int64_t offset) {
    auto answer = std::make_shared<std::optional<protocol::kafka_error>>();
    store->commit(group, {{events, offset, -1, "m"}}, now, [answer](protocol::kafka_error e) { *answer = e; });
    run();
    BOOST_REQUIRE_MESSAGE(answer->has_value(), "the commit was not answered");
    return **answer;
  }

  int64_t committed(const std::string& group) {
    auto found = store->fetch(group, group_offset_query{true, {}});
    return found.size() == 1 ? found[0].offset : -1;
  }

  int64_t log_end() {
    auto req = self->request(partition, caf::infinite, caf::get_atom_v);
    run();
    int64_t out = -1;
    expect_reply(req, [&](partition_status& s) { out = s.log_end_offset; });
    return out;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(replicated_offsets_store)

BOOST_FIXTURE_TEST_CASE(a_load_reads_the_replica_and_commits_append_to_it, offsets_fixture) {
  append_commit("g", 5);
  append_commit("g", 7); // the later commit wins
  auto generation = store->begin_load(0);
  BOOST_TEST(!store->serves(0));
  load(generation);
  BOOST_TEST(store->finish_load(0, generation, partition));
  BOOST_TEST(store->serves(0));
  BOOST_TEST(committed("g") == 7);
  BOOST_TEST((store->groups() == std::vector<std::string>{"g"}));

  auto before = log_end();
  BOOST_TEST((commit("g", 9) == protocol::kafka_error::none));
  BOOST_TEST(committed("g") == 9);
  BOOST_TEST(log_end() == before + 1); // in the partition's log, not only in the table

  // Another leader of the same partition later: it loads what this one appended.
  auto again = store->begin_load(0);
  BOOST_TEST(committed("g") == -1);
  load(again);
  BOOST_TEST(store->finish_load(0, again, partition));
  BOOST_TEST(committed("g") == 9);
}

BOOST_FIXTURE_TEST_CASE(commits_of_a_partition_not_served_are_refused, offsets_fixture) {
  BOOST_TEST((commit("g", 1) == protocol::kafka_error::not_coordinator)); // never loaded
  auto generation = store->begin_load(0);
  BOOST_TEST((commit("g", 1) == protocol::kafka_error::not_coordinator)); // still loading
  load(generation);
  BOOST_TEST(store->finish_load(0, generation, partition));
  BOOST_TEST((commit("g", 1) == protocol::kafka_error::none));
  store->drop(0); // leadership lost
  BOOST_TEST(!store->serves(0));
  BOOST_TEST(committed("g") == -1);
  BOOST_TEST((commit("g", 2) == protocol::kafka_error::not_coordinator));
  group_partition = -1; // no __consumer_offsets in the view
  BOOST_TEST((commit("g", 3) == protocol::kafka_error::coordinator_not_available));
}

BOOST_FIXTURE_TEST_CASE(a_load_of_an_older_generation_is_not_served, offsets_fixture) {
  auto first = store->begin_load(0);
  BOOST_TEST(store->still_loading(0, first)); // a timed-out step is asked again
  store->drop(0); // lost before the load finished
  BOOST_TEST(!store->still_loading(0, first)); // ... and then no more
  BOOST_TEST(!store->finish_load(0, first, partition));
  auto second = store->begin_load(0);
  auto third = store->begin_load(0); // lost and gained again
  BOOST_TEST(!store->finish_load(0, second, partition));
  BOOST_TEST(!store->still_loading(0, second));
  BOOST_TEST(store->finish_load(0, third, partition));
  BOOST_TEST(!store->still_loading(0, third)); // finished
}

BOOST_FIXTURE_TEST_CASE(a_commit_answered_after_a_drop_is_not_applied_to_the_next_term, offsets_fixture) {
  auto generation = store->begin_load(0);
  load(generation);
  BOOST_TEST(store->finish_load(0, generation, partition));
  auto answer = std::make_shared<std::optional<protocol::kafka_error>>();
  store->commit("g", {{events, 4, -1, ""}}, now, [answer](protocol::kafka_error e) { *answer = e; });
  // The next term begins before the partition answered (nothing ran yet).
  auto next = store->begin_load(0);
  run();
  BOOST_REQUIRE(answer->has_value());
  BOOST_TEST((**answer == protocol::kafka_error::none)); // it is in the log: stored
  BOOST_TEST(store->size() == 0u);                       // but not in the new term's table ...
  load(next);
  BOOST_TEST(store->finish_load(0, next, partition));
  BOOST_TEST(committed("g") == 4); // ... until it loads it from the log
}

BOOST_AUTO_TEST_SUITE_END()
