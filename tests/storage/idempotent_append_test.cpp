// The partition log's idempotent-producer checks (partition_log.hpp, Kafka's
// ProducerStateManager): retries answered with the original offsets and not written again,
// gaps and old epochs refused, the state kept across a crash, a roll's snapshot and a clean
// close, followed by followers, cut by truncation and dropped after producer.id.expiration.ms.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"
#include "storage/errc.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;

namespace {

// `records` records of producer 7 at `epoch`, sequences from `first_seq`.
std::vector<char> batch_of_producer(int16_t epoch, int32_t first_seq, int records = 2, int64_t timestamp = 1000) {
  protocol::batch_options opts;
  opts.producer_id = 7;
  opts.producer_epoch = epoch;
  opts.base_sequence = first_seq;
  protocol::batch_builder b{opts};
  for (int i = 0; i < records; ++i)
    b.add(protocol::record{std::nullopt, std::string(300, 'v'), {}, timestamp});
  return b.build();
}

std::unique_ptr<partition_log> open_log(const std::string& dir, const log_config& cfg, bool clean = false,
                                        int64_t now = 1000) {
  auto log = partition_log::open(dir, cfg, 0, clean, now);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

append_info leader_append(partition_log& log, std::vector<char> batch) {
  auto info = log.append(batch, 1000, 0);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
  return *info;
}

} // namespace

BOOST_AUTO_TEST_SUITE(idempotent_appends)

BOOST_AUTO_TEST_CASE(a_retry_is_answered_with_the_original_offsets_and_not_written) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  auto first = leader_append(*log, batch_of_producer(0, 0));
  auto second = leader_append(*log, batch_of_producer(0, 2));
  BOOST_TEST(second.first_offset == 2);
  auto retry = leader_append(*log, batch_of_producer(0, 0));
  BOOST_TEST(retry.duplicate);
  BOOST_TEST(retry.first_offset == first.first_offset);
  BOOST_TEST(retry.last_offset == first.last_offset);
  BOOST_TEST(log->log_end_offset() == 4);
  auto gap = batch_of_producer(0, 9);
  BOOST_TEST((log->append(gap, 1000, 0).error() == errc::out_of_order_sequence));
  // A bump to epoch 1 (sequences from 0) fences epoch 0.
  BOOST_TEST(leader_append(*log, batch_of_producer(1, 0)).first_offset == 4);
  auto fenced = batch_of_producer(0, 4);
  BOOST_TEST((log->append(fenced, 1000, 0).error() == errc::invalid_producer_epoch));
  // An idempotent batch must come alone (Kafka: one batch per partition and request).
  auto two = batch_of_producer(1, 2);
  auto more = batch_of_producer(1, 4);
  two.insert(two.end(), more.begin(), more.end());
  BOOST_TEST((log->append(two, 1000, 0).error() == protocol::errc::bad_record));
}

BOOST_AUTO_TEST_CASE(the_state_survives_a_crash_a_roll_and_a_clean_close) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 1500; // about two batches a segment: rolls write snapshots
  auto log = open_log(dir.path(), cfg);
  for (int32_t seq = 0; seq < 20; seq += 2)
    leader_append(*log, batch_of_producer(0, seq));
  auto bases = log->segment_base_offsets();
  BOOST_REQUIRE(bases.size() > 2u);
  BOOST_TEST(test::file_exists(segment_file_path(dir.path(), bases.back(), segment_file::snapshot)));
  log.reset(); // killed
  log = open_log(dir.path(), cfg);
  BOOST_TEST(leader_append(*log, batch_of_producer(0, 18)).duplicate); // rebuilt from a snapshot and the tail
  BOOST_TEST(leader_append(*log, batch_of_producer(0, 20)).first_offset == 20);
  BOOST_REQUIRE(log->close());
  log = open_log(dir.path(), cfg, true);
  BOOST_TEST(leader_append(*log, batch_of_producer(0, 20)).duplicate);
  auto gap = batch_of_producer(0, 30);
  BOOST_TEST((log->append(gap, 1000, 0).error() == errc::out_of_order_sequence));
  // Damaged snapshots are ignored: the state comes from the batches themselves.
  log.reset();
  for (auto base : bases)
    test::write_bytes(segment_file_path(dir.path(), base, segment_file::snapshot), "garbage");
  log = open_log(dir.path(), cfg);
  BOOST_TEST(leader_append(*log, batch_of_producer(0, 20)).duplicate);
}

BOOST_AUTO_TEST_CASE(followers_follow_and_truncation_and_expiry_forget) {
  test::temp_dir leader_dir, follower_dir;
  auto cfg = test::small_log_config();
  auto leader = open_log(leader_dir.path(), cfg);
  auto follower = open_log(follower_dir.path(), cfg);
  for (int32_t seq = 0; seq < 6; seq += 2) {
    auto batch = batch_of_producer(0, seq);
    auto info = leader->append(batch, 1000, 0);
    BOOST_REQUIRE(info);
    BOOST_REQUIRE(follower->append_replicated(batch, 1000)); // the leader's bytes, offsets assigned
  }
  // The follower, now leading, recognises the producer's retry of its last batch.
  BOOST_TEST(leader_append(*follower, batch_of_producer(0, 4)).duplicate);
  // Cutting the last batch: its retry is appended again (at the same offset).
  BOOST_REQUIRE(follower->truncate_to(4));
  BOOST_TEST(leader_append(*follower, batch_of_producer(0, 4)).first_offset == 4);
  // A producer idle for producer.id.expiration.ms is forgotten: any sequence is taken.
  cfg.producer_id_expiration_ms = 1000;
  follower->set_config(cfg);
  BOOST_REQUIRE(follower->apply_retention(1000 + 1000));
  BOOST_TEST(follower->producers().empty());
  BOOST_TEST(leader_append(*follower, batch_of_producer(0, 100)).first_offset == 6);
}

BOOST_AUTO_TEST_SUITE_END()
