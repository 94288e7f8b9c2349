// The partition and retention-cleaner actors under the deterministic scheduler.
#include <boost/test/unit_test.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/partition_actor.hpp"
#include "actors/retention_cleaner.hpp"
#include "actors/routing_table.hpp"
#include "protocol/record_batch.hpp"
#include "storage/partition_log.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

std::vector<char> batch_of(int records, int64_t timestamp) {
  std::vector<protocol::record> rs;
  for (int i = 0; i < records; ++i)
    rs.push_back({std::string("k"), std::string(200, 'v'), {}, timestamp});
  return protocol::build_batch(rs);
}

// Under the test scheduler an I/O worker must not run on a thread of its own.
caf::behavior inline_io_worker(caf::event_based_actor*) {
  return {[](io_job& job) -> caf::result<void> {
    if (auto ec = job.run())
      return to_caf_error(ec);
    return caf::unit;
  }};
}

struct partition_fixture : test::deterministic_fixture {
  test::temp_folder dir;
  topic_partition tp{"t", 0};
  std::shared_ptr<storage::partition_log> log;
  caf::actor io = sys.spawn(inline_io_worker);
  partition_actor partition;

  explicit partition_fixture(storage::log_config cfg = {}) {
    log = std::shared_ptr<storage::partition_log>(
      std::move(*storage::partition_log::open(dir.path + "/t-0", cfg, 0, false, now)));
    partition = spawn_partition(sys, log, partition_context{tp, io, clock()});
    run();
  }

  ~partition_fixture() {
    auto closed = self->request(partition, caf::infinite, caf::close_atom_v);
    run();
    expect_reply(closed, [](int64_t) {});
    caf::anon_send_exit(io, caf::exit_reason::user_shutdown);
    run_all();
  }

  produce_result produce(std::vector<char> batch) {
    auto req = self->request(partition, caf::infinite, produce_atom_v, produce_request{1, std::move(batch)});
    run();
    produce_result out;
    expect_reply(req, [&](produce_result& r) { out = r; });
    return out;
  }
};

storage::log_config retention_config() {
  storage::log_config cfg;
  cfg.segment_bytes = 4096;
  cfg.retention_ms = 60'000;
  return cfg;
}

} // namespace

BOOST_AUTO_TEST_SUITE(partition_actor_behaviour)

BOOST_FIXTURE_TEST_CASE(a_parked_fetch_wakes_on_the_next_append, partition_fixture) {
  auto fetch = self->request(partition, caf::infinite, fetch_atom_v, fetch_request{0, 1 << 20, 1, 10'000});
  run();
  BOOST_TEST(self->mailbox().empty()); // parked: nothing to read yet
  BOOST_TEST(sched.has_pending_timeout());
  auto produced = self->request(partition, caf::infinite, produce_atom_v, produce_request{1, batch_of(3, now)});
  run();
  expect_reply(fetch, [&](fetch_result& r) {
    BOOST_TEST(r.high_watermark == 3);
    BOOST_TEST(r.records.size() > 0u);
  });
  expect_reply(produced, [&](produce_result& r) { BOOST_TEST(r.base_offset == 0); });
}

BOOST_FIXTURE_TEST_CASE(a_parked_fetch_is_answered_empty_when_max_wait_ends, partition_fixture) {
  auto fetch = self->request(partition, caf::infinite, fetch_atom_v, fetch_request{0, 1 << 20, 1, 500});
  run();
  BOOST_TEST(self->mailbox().empty());
  advance(499ms);
  BOOST_TEST(self->mailbox().empty());
  advance(1ms);
  expect_reply(fetch, [&](fetch_result& r) {
    BOOST_TEST(r.records.empty());
    BOOST_TEST(r.high_watermark == 0);
  });
}

BOOST_FIXTURE_TEST_CASE(min_bytes_keeps_a_fetch_parked_until_enough_arrived, partition_fixture) {
  auto one = batch_of(1, now);
  auto fetch = self->request(partition, caf::infinite, fetch_atom_v,
                             fetch_request{0, 1 << 20, static_cast<int32_t>(one.size() * 2), 10'000});
  run();
  produce(one);
  BOOST_TEST(self->mailbox().empty()); // one batch is not min_bytes
  auto second = self->request(partition, caf::infinite, produce_atom_v, produce_request{1, batch_of(1, now)});
  run();
  expect_reply(fetch, [&](fetch_result& r) { BOOST_TEST(r.records.size() >= one.size() * 2); });
  expect_reply(second, [&](produce_result& r) { BOOST_TEST(r.base_offset == 1); });
}

BOOST_FIXTURE_TEST_CASE(errors_are_typed, partition_fixture) {
  produce(batch_of(2, now));
  auto beyond = self->request(partition, caf::infinite, fetch_atom_v, fetch_request{7, 1 << 20, 1, 0});
  run();
  expect_error<fetch_result>(beyond, [](caf::error& e) { BOOST_TEST((to_kafka_error(e) == kafka_error::offset_out_of_range)); });
  auto corrupt = batch_of(1, now);
  corrupt.back() ^= 1;
  auto bad = self->request(partition, caf::infinite, produce_atom_v, produce_request{1, corrupt});
  run();
  expect_error<produce_result>(bad, [](caf::error& e) { BOOST_TEST((to_kafka_error(e) == kafka_error::corrupt_message)); });
}

BOOST_FIXTURE_TEST_CASE(list_offsets_answers_earliest_latest_and_timestamps, partition_fixture) {
  produce(batch_of(2, 1000));
  produce(batch_of(2, 2000));
  auto ask = [&](int64_t ts) {
    offset_answer out;
    auto req = self->request(partition, caf::infinite, list_offsets_atom_v, ts);
    run();
    expect_reply(req, [&](offset_answer& a) { out = a; });
    return out;
  };
  BOOST_TEST(ask(earliest_timestamp).offset == 0);
  BOOST_TEST(ask(latest_timestamp).offset == 4);
  BOOST_TEST(ask(1500).offset == 2);
  BOOST_TEST(ask(1500).timestamp == 2000);
  BOOST_TEST(ask(3000).offset == -1);
}

namespace {

std::vector<char> txn_batch_of(int64_t pid, int32_t seq, int records, int64_t timestamp) {
  protocol::batch_options opts;
  opts.producer_id = pid;
  opts.producer_epoch = 0;
  opts.base_sequence = seq;
  opts.transactional = true;
  protocol::batch_builder b{opts};
  for (int i = 0; i < records; ++i)
    b.add(protocol::record{std::string("k"), std::string(50, 'v'), {}, timestamp});
  return b.build();
}

} // namespace

// read_committed stops at the last stable offset and lists the aborted transactions the data
// overlaps; the coordinator's markers move it; ListOffsets at isolation level 1 answers it.
BOOST_FIXTURE_TEST_CASE(read_committed_fetches_stop_at_the_last_stable_offset, partition_fixture) {
  produce(txn_batch_of(7, 0, 2, now)); // 0-1, producer 7's transaction
  produce(batch_of(1, now));           // 2
  auto fetch = [&](int64_t offset, bool committed) {
    fetch_result out;
    fetch_request req{offset, 1 << 20, 1, 0};
    req.read_committed = committed;
    auto f = self->request(partition, caf::infinite, fetch_atom_v, req);
    run();
    expect_reply(f, [&](fetch_result& r) { out = std::move(r); });
    return out;
  };
  auto latest = [&](bool committed) {
    offset_answer out;
    auto req = self->request(partition, caf::infinite, list_offsets_atom_v, latest_timestamp, int32_t{-1}, committed);
    run();
    expect_reply(req, [&](offset_answer& a) { out = a; });
    return out.offset;
  };
  auto open = fetch(0, true);
  BOOST_TEST(open.records.empty());
  BOOST_TEST(open.last_stable_offset == 0);
  BOOST_TEST(fetch(0, false).records.size() > 0u);
  BOOST_TEST(latest(true) == 0);
  BOOST_TEST(latest(false) == 3);
  auto marker = [&](bool commit, int16_t epoch) {
    caf::expected<produce_result> out{produce_result{}};
    auto req = self->request(partition, caf::infinite, txn_marker_atom_v, txn_marker_request{7, epoch, commit, 0, 1000});
    run();
    BOOST_REQUIRE(!self->mailbox().empty());
    req.receive([&](produce_result& r) { out = r; }, [&](caf::error& e) { out = e; });
    return out;
  };
  auto aborted = marker(false, 0); // 3
  BOOST_REQUIRE(aborted);
  BOOST_TEST(aborted->base_offset == 3);
  auto after = fetch(0, true);
  BOOST_TEST(after.last_stable_offset == 4);
  BOOST_TEST(after.records.size() > 0u);
  BOOST_REQUIRE(after.aborted.size() == 1u);
  BOOST_TEST(after.aborted[0].producer_id == 7);
  BOOST_TEST(after.aborted[0].first_offset == 0);
  BOOST_TEST(fetch(0, false).aborted.empty()); // read_uncommitted lists none
  BOOST_TEST(latest(true) == 4);
  // A marker of an older epoch than the producer's is refused.
  produce(txn_batch_of(7, 2, 1, now)); // the producer's next transaction, its sequences going on
  auto fenced = marker(true, -1);
  BOOST_REQUIRE(!fenced);
  BOOST_TEST((to_kafka_error(fenced.error()) == kafka_error::invalid_producer_epoch));
  // DescribeProducers: producer 7, its new transaction open at offset 4.
  auto described = self->request(partition, caf::infinite, describe_producers_atom_v);
  run();
  expect_reply(described, [&](std::vector<producer_description>& producers) {
    BOOST_REQUIRE(producers.size() == 1u);
    BOOST_TEST(producers[0].producer_id == 7);
    BOOST_TEST(producers[0].last_sequence == 2);
    BOOST_TEST(producers[0].current_txn_start_offset == 4);
  });
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retention_cleaner_behaviour)

BOOST_AUTO_TEST_CASE(the_timer_deletes_expired_segments) {
  partition_fixture f{retention_config()};
  auto routes = std::make_shared<routing_table>();
  routes->publish({{f.tp, f.partition}});
  // Old records fill a few segments; one fresh batch keeps the active segment young.
  for (int i = 0; i < 20; ++i)
    f.produce(batch_of(4, f.now - 120'000));
  f.produce(batch_of(1, f.now));
  auto segments_before = f.log->segment_count();
  BOOST_REQUIRE(segments_before > 3u);
  auto cleaner = spawn_retention_cleaner(f.sys, retention_cleaner_config{routes, 1000ms, f.clock()});
  f.run();
  BOOST_TEST(f.log->segment_count() == segments_before); // nothing before the first tick
  f.advance(1000ms); // tick -> retention request -> reply
  f.run();
  // Every segment but the active one (which holds the fresh batch) was old enough.
  BOOST_TEST(f.log->segment_count() == 1u);
  BOOST_TEST(f.log->log_start_offset() > 0);
  BOOST_TEST(f.log->log_start_offset() == f.log->segment_base_offsets().back());
  caf::anon_send_exit(cleaner, caf::exit_reason::user_shutdown);
  f.run();
}

BOOST_AUTO_TEST_SUITE_END()
