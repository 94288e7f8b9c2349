// Transactions in the partition log (partition_log.hpp, Kafka's transactional log): open
// transactions hold the last stable offset back, markers close them, aborted ones are indexed
// for read_committed fetches; all of it rebuilt after a crash and a truncation, and followed
// by followers. And the index's own file format (aborted_txn_index.hpp).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "protocol/control_batch.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"
#include "storage/aborted_txn_index.hpp"
#include "storage/errc.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
using protocol::control_type;

namespace {

// `records` transactional records of producer `pid` at epoch 0, sequences from `seq`.
std::vector<char> txn_batch(int64_t pid, int32_t seq, int records = 2, size_t value_size = 100) {
  protocol::batch_options opts;
  opts.producer_id = pid;
  opts.producer_epoch = 0;
  opts.base_sequence = seq;
  opts.transactional = true;
  protocol::batch_builder b{opts};
  for (int i = 0; i < records; ++i)
    b.add(protocol::record{std::nullopt, std::string(value_size, 'v'), {}, 1000});
  return b.build();
}

std::unique_ptr<partition_log> open_log(const std::string& dir, bool clean = false) {
  auto log = partition_log::open(dir, test::small_log_config(), 0, clean, 1000);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

append_info append(partition_log& log, std::vector<char> batch) {
  auto info = log.append(batch, 1000, 0);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
  return *info;
}

append_info end_txn(partition_log& log, int64_t pid, bool commit, int32_t coordinator_epoch = 0) {
  auto info = log.append_txn_marker(pid, 0, {commit ? control_type::commit : control_type::abort, coordinator_epoch},
                                    1000, 0);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
  return *info;
}

bool same(const std::vector<aborted_range>& a, const std::vector<aborted_range>& b) { return a == b; }

} // namespace

BOOST_AUTO_TEST_SUITE(transactions_in_the_log)

BOOST_AUTO_TEST_CASE(open_transactions_hold_the_last_stable_offset_until_their_marker_is_replicated) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  append(*log, txn_batch(7, 0));        // 0-1
  append(*log, test::make_batch(1, 10, 1000)); // 2, plain
  append(*log, txn_batch(8, 0));        // 3-4
  BOOST_TEST(log->last_stable_offset(5) == 0);
  auto marker = end_txn(*log, 7, true); // 5
  BOOST_TEST(marker.first_offset == 5);
  BOOST_TEST(log->last_stable_offset(5) == 0); // the marker is not below the high watermark yet
  BOOST_TEST(log->last_stable_offset(6) == 3); // now 8's is the earliest
  end_txn(*log, 8, false);              // 6
  BOOST_TEST(log->last_stable_offset(7) == 7);
  BOOST_TEST(log->last_stable_offset(4) == 4); // never above the high watermark
  BOOST_TEST(same(log->aborted_transactions(0, 7), {{8, 3}}));
  BOOST_TEST(same(log->aborted_transactions(7, 8), {}));
}

BOOST_AUTO_TEST_CASE(clients_may_not_write_markers_nor_plain_batches_inside_their_transaction) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto marker = protocol::build_txn_marker_batch(7, 0, {control_type::commit, 0}, 1000);
  auto refused = log->append(marker, 1000, 0);
  BOOST_REQUIRE(!refused);
  BOOST_TEST(refused.error() == make_error_code(protocol::errc::bad_record));
  append(*log, txn_batch(7, 0));
  protocol::batch_options plain;
  plain.producer_id = 7;
  plain.producer_epoch = 0;
  plain.base_sequence = 2;
  protocol::batch_builder b{plain};
  b.add(protocol::record{std::nullopt, std::string("v"), {}, 1000});
  auto batch = b.build();
  auto outside = log->append(batch, 1000, 0);
  BOOST_REQUIRE(!outside);
  BOOST_TEST(outside.error() == make_error_code(errc::invalid_txn_state));
}

BOOST_AUTO_TEST_CASE(markers_from_fenced_producers_or_coordinators_are_refused) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  append(*log, txn_batch(7, 0));
  end_txn(*log, 7, false, 4);
  auto old_coordinator = log->append_txn_marker(7, 0, {control_type::commit, 3}, 1000, 0);
  BOOST_REQUIRE(!old_coordinator);
  BOOST_TEST(old_coordinator.error() == make_error_code(errc::coordinator_fenced));
  BOOST_REQUIRE(log->append_txn_marker(7, 2, {control_type::abort, 4}, 1000, 0)); // a fencing bump
  auto old_epoch = log->append_txn_marker(7, 1, {control_type::abort, 4}, 1000, 0);
  BOOST_REQUIRE(!old_epoch);
  BOOST_TEST(old_epoch.error() == make_error_code(errc::invalid_producer_epoch));
}

// A group coordinator's transactional offset commits (Kafka's origin COORDINATOR): every
// batch starts at sequence 0, which a client's would not get away with; an older epoch than
// the log knows is still refused.
BOOST_AUTO_TEST_CASE(coordinator_batches_skip_the_sequence_check_but_not_the_epoch_check) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto batch_at = [](int16_t epoch) {
    protocol::batch_options opts;
    opts.producer_id = 7;
    opts.producer_epoch = epoch;
    opts.base_sequence = 0;
    opts.transactional = true;
    protocol::batch_builder b{opts};
    b.add(protocol::record{std::nullopt, std::string("offset"), {}, 1000});
    return b.build();
  };
  for (int i = 0; i < 3; ++i) {
    auto batch = batch_at(1);
    auto info = log->append_as_coordinator(batch, 1000, 0);
    BOOST_REQUIRE_MESSAGE(info, info.error().message());
    BOOST_TEST(!info->duplicate);
  }
  auto old = batch_at(0);
  auto refused = log->append_as_coordinator(old, 1000, 0);
  BOOST_REQUIRE(!refused);
  BOOST_TEST((refused.error() == errc::invalid_producer_epoch));
  BOOST_TEST(log->log_end_offset() == 3);
}

BOOST_AUTO_TEST_CASE(the_aborted_index_and_open_transactions_survive_a_crash_and_a_clean_close) {
  test::temp_dir dir;
  std::vector<aborted_range> expected;
  {
    auto log = open_log(dir.path());
    for (int64_t pid = 1; pid <= 12; ++pid) { // small segments: several rolls, snapshots, files
      auto first = append(*log, txn_batch(pid, 0, 3, 2000)).first_offset; // 16 KiB segments
      end_txn(*log, pid, pid % 3 != 0);
      if (pid % 3 != 0)
        continue;
      expected.push_back({pid, first});
    }
    append(*log, txn_batch(99, 0)); // left open
    BOOST_TEST(same(log->aborted_transactions(0, log->log_end_offset()), expected));
    BOOST_TEST(log->segment_count() > 2u);
  } // no close: a crash
  auto end = int64_t{0};
  {
    auto log = open_log(dir.path());
    end = log->log_end_offset();
    BOOST_TEST(same(log->aborted_transactions(0, end), expected));
    BOOST_TEST(log->last_stable_offset(end) == end - 2); // producer 99's transaction
    BOOST_REQUIRE(log->close());
  }
  auto log = open_log(dir.path(), true);
  BOOST_TEST(same(log->aborted_transactions(0, end), expected));
  BOOST_TEST(log->last_stable_offset(end) == end - 2);
  // A fetch from the middle lists only what overlaps what it returns.
  auto from = expected[2].first_offset;
  BOOST_TEST(same(log->aborted_transactions(from, from + 1), {expected[2]}));
}

BOOST_AUTO_TEST_CASE(a_truncation_below_a_marker_reopens_its_transaction) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  append(*log, txn_batch(7, 0)); // 0-1
  auto marker = end_txn(*log, 7, false).first_offset; // 2
  BOOST_TEST(log->aborted_transactions(0, 3).size() == 1u);
  BOOST_REQUIRE(log->truncate_to(marker));
  BOOST_TEST(log->aborted_transactions(0, 3).empty());
  BOOST_TEST(log->last_stable_offset(2) == 0);
  end_txn(*log, 7, true); // the coordinator writes it again, this time a commit
  BOOST_TEST(log->last_stable_offset(3) == 3);
  BOOST_TEST(log->aborted_transactions(0, 3).empty());
}

BOOST_AUTO_TEST_CASE(followers_rebuild_the_same_state_from_the_leaders_bytes) {
  test::temp_dir leader_dir, follower_dir;
  auto leader = open_log(leader_dir.path());
  auto follower = open_log(follower_dir.path());
  append(*leader, txn_batch(7, 0));
  end_txn(*leader, 7, false);
  append(*leader, txn_batch(8, 0));
  auto bytes = leader->read(0, 1 << 20);
  BOOST_REQUIRE(bytes);
  BOOST_REQUIRE(follower->append_replicated(*bytes, 1000));
  BOOST_TEST(same(follower->aborted_transactions(0, 5), {{7, 0}}));
  BOOST_TEST(follower->last_stable_offset(5) == 3);
}

BOOST_AUTO_TEST_CASE(retention_takes_a_segments_index_file_with_it) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.retention_bytes = 1;
  auto opened = partition_log::open(dir.path(), cfg, 0, false, 1000);
  BOOST_REQUIRE(opened);
  auto& log = **opened;
  append(log, txn_batch(7, 0, 20));
  end_txn(log, 7, false);
  BOOST_TEST(test::file_exists(segment_file_path(dir.path(), 0, segment_file::txnindex)));
  while (log.segment_count() < 3)
    append(log, test::make_batch(20, 100, 1000));
  auto deleted = log.apply_retention(1000);
  BOOST_REQUIRE(deleted);
  BOOST_TEST(!test::file_exists(segment_file_path(dir.path(), 0, segment_file::txnindex)));
  bool listed = false;
  for (auto& d : *deleted)
    for (auto& f : d.files)
      listed |= f.find(".txnindex") != std::string::npos;
  BOOST_TEST(listed);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(aborted_txn_index_file)

BOOST_AUTO_TEST_CASE(an_entry_has_kafkas_34_byte_layout) {
  auto bytes = encode_aborted_txn({7, 10, 20, 21});
  BOOST_REQUIRE(bytes.size() == aborted_txn_size);
  std::string expected("\x00\x00", 2);
  for (int64_t v : {7, 10, 20, 21})
    for (int shift = 56; shift >= 0; shift -= 8)
      expected += static_cast<char>((v >> shift) & 0xff);
  BOOST_TEST(bytes == expected);
}

BOOST_AUTO_TEST_CASE(a_torn_or_unsound_tail_is_dropped) {
  auto bytes = encode_aborted_txn({7, 10, 20, 21}) + encode_aborted_txn({8, 15, 25, 26});
  BOOST_TEST(decode_aborted_txns(bytes + "\x00\x00\x01").size() == 2u);
  BOOST_TEST(decode_aborted_txns(bytes + encode_aborted_txn({9, 1, 24, 25})).size() == 2u); // not after 25
  auto bad_version = encode_aborted_txn({9, 30, 40, 41});
  bad_version[1] = 1;
  BOOST_TEST(decode_aborted_txns(bytes + bad_version).size() == 2u);
}

BOOST_AUTO_TEST_CASE(collect_stops_once_an_entry_is_stable_past_the_fetch) {
  test::temp_dir dir;
  aborted_txn_index index{dir.path()};
  BOOST_REQUIRE(index.add(0, {1, 0, 5, 6}));
  BOOST_REQUIRE(index.add(0, {2, 3, 9, 10}));
  BOOST_REQUIRE(index.add(100, {3, 50, 120, 121}));
  BOOST_TEST(same(index.collect(4, 8), {{1, 0}, {2, 3}}));
  BOOST_TEST(same(index.collect(6, 50), {{2, 3}}));
  BOOST_TEST(same(index.collect(6, 51), {{2, 3}, {3, 50}}));
  BOOST_TEST(same(index.collect(121, 200), {}));
  // Reloaded from the files, keeping what lies below 9.
  aborted_txn_index reloaded{dir.path()};
  BOOST_REQUIRE(reloaded.load({0, 100}, 9));
  BOOST_TEST(reloaded.size() == 1u);
  BOOST_TEST(test::file_size(segment_file_path(dir.path(), 0, segment_file::txnindex)) == aborted_txn_size);
  BOOST_TEST(!test::file_exists(segment_file_path(dir.path(), 100, segment_file::txnindex)));
}

BOOST_AUTO_TEST_SUITE_END()
