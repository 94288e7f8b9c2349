// Leader epochs: the cache's rules (Kafka's LeaderEpochFileCacheTest examples), its
// checkpoint file, and how partition_log keeps it through appends, follower appends,
// truncation, retention and reopening. Also the high watermark checkpoint of a log dir.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "protocol/batch_header.hpp"
#include "protocol/errc.hpp"
#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/leader_epoch_cache.hpp"
#include "storage/listed_offsets.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
using test::make_batch;

namespace {

constexpr int64_t now = 1000;

using entries = std::vector<epoch_entry>;

leader_epoch_cache cache_of(entries es) {
  return leader_epoch_cache{std::move(es)};
}

// Kafka's example cache: epochs 2, 3, 4 starting at 6, 8, 11.
leader_epoch_cache kafka_example() {
  leader_epoch_cache c;
  c.assign(2, 6);
  c.assign(3, 8);
  c.assign(4, 11);
  return c;
}

std::unique_ptr<partition_log> open_log(const std::string& dir, int64_t recovery_point = 0,
                                        bool clean = false, const log_config& cfg = test::small_log_config()) {
  auto log = partition_log::open(dir, cfg, recovery_point, clean, now);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

// A batch of `records` records whose partition_leader_epoch field says `epoch`.
std::vector<char> batch_with_epoch(int records, int32_t epoch, size_t value_size = 1500) {
  auto b = make_batch(records, value_size, now);
  protocol::set_leader_epoch(b.data(), epoch);
  return b;
}

void append(partition_log& log, std::vector<char> batch, int32_t epoch) {
  auto info = log.append(batch, now, epoch);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
}

int32_t stored_epoch(const char* batch) {
  auto h = protocol::read_batch_header(protocol::bytes_view(batch, protocol::batch_layout::header_size));
  BOOST_REQUIRE(h);
  return h->leader_epoch;
}

// Every batch of the log, in order, as one read per batch.
std::vector<std::vector<char>> all_batches(partition_log& log) {
  std::vector<std::vector<char>> out;
  for (int64_t at = log.log_start_offset(); at < log.log_end_offset();) {
    auto b = log.read(at, 1);
    BOOST_REQUIRE(b);
    BOOST_REQUIRE(!b->empty());
    auto h = protocol::validate_batch(protocol::bytes_view(b->data(), b->size()));
    BOOST_REQUIRE(h);
    at = h->next_offset();
    out.push_back(std::move(*b));
  }
  return out;
}

// The .log files of a folder: name -> contents.
std::map<std::string, std::string> segment_files(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    auto name = e.path().filename().string();
    if (e.path().extension() == ".log")
      out[name] = *read_whole_file(e.path().string());
  }
  return out;
}

leader_epoch_cache epoch_file_of(const partition_log& log) {
  auto c = read_leader_epoch_file(log.dir() + '/' + leader_epoch_file_name);
  BOOST_REQUIRE_MESSAGE(c, c.error().message());
  return *c;
}

// The epochs of the 10 batches of 2 records (about 3 KB each) that write_epochs()
// appends: the small config puts 5 in a segment, so the second segment starts at offset
// 10, inside epoch 2.
constexpr int32_t batch_epochs[] = {1, 1, 2, 2, 2, 2, 5, 5, 5, 7};

leader_epoch_cache write_epochs(partition_log& log) {
  for (int32_t e : batch_epochs)
    append(log, batch_with_epoch(2, 0), e);
  BOOST_REQUIRE((log.segment_base_offsets() == std::vector<int64_t>{0, 10}));
  return cache_of({{1, 0}, {2, 4}, {5, 12}, {7, 18}});
}

} // namespace

BOOST_AUTO_TEST_SUITE(leader_epoch_caches)

BOOST_AUTO_TEST_CASE(assign_adds_an_epoch_once) {
  leader_epoch_cache c;
  BOOST_TEST(!c.latest_epoch());
  BOOST_TEST(c.assign(2, 6));
  BOOST_TEST(!c.assign(2, 10)); // Kafka: an assigned start is not overwritten by a later one
  BOOST_TEST(c.assign(3, 8));
  BOOST_TEST((c.entries() == entries{{2, 6}, {3, 8}}));
  BOOST_TEST(*c.latest_epoch() == 3);
  BOOST_TEST(!c.assign(-1, 20)); // unstamped batches
  BOOST_TEST(!c.assign(4, -1));
  BOOST_TEST(c.entries().size() == 2u);
}

BOOST_AUTO_TEST_CASE(assign_of_the_latest_epoch_earlier_moves_its_start) {
  auto c = cache_of({{2, 6}});
  BOOST_TEST(c.assign(2, 5));
  BOOST_TEST((c.entries() == entries{{2, 5}}));
}

BOOST_AUTO_TEST_CASE(assign_removes_entries_it_contradicts) {
  // Kafka's shouldNotLetEpochGoBackwardsEvenIfMessageEpochsDo.
  leader_epoch_cache c;
  c.assign(1, 5);
  c.assign(2, 6);
  BOOST_TEST(c.assign(1, 7));
  BOOST_TEST(*c.latest_epoch() == 1);
  BOOST_TEST((c.end_offset_for(1, 8) == epoch_end_offset{1, 8}));
  BOOST_TEST((c.end_offset_for(2, 8) == epoch_end_offset{-1, -1}));
  BOOST_TEST((c.entries() == entries{{1, 7}}));
  // shouldEnforceMonotonicallyIncreasingStartOffsets.
  auto d = cache_of({{2, 1}});
  BOOST_TEST(d.assign(3, 0));
  BOOST_TEST((d.entries() == entries{{3, 0}}));
}

BOOST_AUTO_TEST_CASE(constructed_from_entries_assigns_them_in_order) {
  BOOST_TEST((cache_of({{1, 0}, {3, 5}, {2, 9}, {4, -1}}).entries() == entries{{1, 0}, {2, 9}}));
}

BOOST_AUTO_TEST_CASE(end_offset_for_follows_kafka) {
  leader_epoch_cache empty;
  BOOST_TEST((empty.end_offset_for(-1, 0) == epoch_end_offset{-1, -1}));
  BOOST_TEST((empty.end_offset_for(0, 0) == epoch_end_offset{-1, -1}));
  leader_epoch_cache c;
  c.assign(0, 10);
  c.assign(2, 13);
  c.assign(4, 17);
  BOOST_TEST((c.end_offset_for(-1, 20) == epoch_end_offset{-1, -1}));
  BOOST_TEST((c.end_offset_for(0, 20) == epoch_end_offset{0, 13}));
  BOOST_TEST((c.end_offset_for(1, 20) == epoch_end_offset{0, 13})); // no epoch 1: the one before
  BOOST_TEST((c.end_offset_for(2, 20) == epoch_end_offset{2, 17}));
  BOOST_TEST((c.end_offset_for(3, 20) == epoch_end_offset{2, 17}));
  BOOST_TEST((c.end_offset_for(4, 20) == epoch_end_offset{4, 20})); // latest: the log end
  BOOST_TEST((c.end_offset_for(5, 20) == epoch_end_offset{-1, -1}));
  // shouldReturnFirstEpochIfRequestedEpochLessThanFirstEpoch.
  auto d = cache_of({{5, 11}, {6, 12}});
  BOOST_TEST((d.end_offset_for(4, 20) == epoch_end_offset{4, 11}));
}

BOOST_AUTO_TEST_CASE(start_offset_of_finds_an_epoch) {
  auto c = kafka_example();
  BOOST_TEST(*c.start_offset_of(3) == 8);
  BOOST_TEST(!c.start_offset_of(1));
}

BOOST_AUTO_TEST_CASE(epoch_for_offset_is_the_last_epoch_starting_at_or_before) {
  auto c = kafka_example(); // 2@6, 3@8, 4@11
  BOOST_TEST(!c.epoch_for_offset(5));
  BOOST_TEST(*c.epoch_for_offset(6) == 2);
  BOOST_TEST(*c.epoch_for_offset(7) == 2);
  BOOST_TEST(*c.epoch_for_offset(8) == 3);
  BOOST_TEST(*c.epoch_for_offset(10) == 3);
  BOOST_TEST(*c.epoch_for_offset(11) == 4);
  BOOST_TEST(*c.epoch_for_offset(1000) == 4);
  BOOST_TEST(!leader_epoch_cache{}.epoch_for_offset(0));
}

BOOST_AUTO_TEST_CASE(truncate_from_end_drops_epochs_starting_at_or_after) {
  auto c = kafka_example();
  BOOST_TEST(!c.truncate_from_end(12));
  BOOST_TEST(c.truncate_from_end(11));
  BOOST_TEST((c.entries() == entries{{2, 6}, {3, 8}}));
  BOOST_TEST(c.truncate_from_end(7));
  BOOST_TEST((c.entries() == entries{{2, 6}}));
  BOOST_TEST(c.truncate_from_end(0));
  BOOST_TEST(c.entries().empty());
}

BOOST_AUTO_TEST_CASE(truncate_from_start_keeps_the_epoch_holding_the_new_start) {
  auto c = kafka_example();
  BOOST_TEST(!c.truncate_from_start(1)); // before every epoch
  BOOST_TEST(!c.truncate_from_start(6)); // at the first epoch's start
  BOOST_TEST((c.entries() == kafka_example().entries()));
  BOOST_TEST(c.truncate_from_start(9)); // between epochs
  BOOST_TEST((c.entries() == entries{{3, 9}, {4, 11}}));
  auto d = kafka_example();
  BOOST_TEST(d.truncate_from_start(11)); // at the latest epoch's start
  BOOST_TEST((d.entries() == entries{{4, 11}}));
  auto e = kafka_example();
  BOOST_TEST(e.truncate_from_start(15)); // past every start
  BOOST_TEST((e.entries() == entries{{4, 15}}));
  e.clear();
  BOOST_TEST(!e.truncate_from_start(20));
}

BOOST_AUTO_TEST_SUITE_END()

// ListOffsets at a leader (storage/listed_offsets.hpp), on Kafka's example cache: the log
// holds offsets 6..14, the current epoch 4 began at 11.
BOOST_AUTO_TEST_SUITE(listed_offsets)

offsets_at_leader leader_at(const leader_epoch_cache& c, int64_t hw, int32_t epoch = 4) {
  return offsets_at_leader{6, 15, hw, epoch, &c};
}

BOOST_AUTO_TEST_CASE(earliest_is_the_log_start_with_its_epoch) {
  auto c = kafka_example();
  auto l = list_offset(leader_at(c, 15), earliest_timestamp, std::nullopt);
  BOOST_TEST(l->offset == 6);
  BOOST_TEST(l->leader_epoch == 2);
  BOOST_TEST(list_offset(leader_at(c, 9), earliest_timestamp, std::nullopt).has_value()); // never refused
}

BOOST_AUTO_TEST_CASE(latest_is_the_high_watermark_with_the_current_epoch) {
  auto c = kafka_example();
  auto l = list_offset(leader_at(c, 13), latest_timestamp, std::nullopt);
  BOOST_TEST(l->offset == 13);
  BOOST_TEST(l->timestamp == -1);
  BOOST_TEST(l->leader_epoch == 4);
}

BOOST_AUTO_TEST_CASE(latest_is_not_available_while_the_high_watermark_is_below_the_epoch_start) {
  auto c = kafka_example();
  BOOST_TEST(!list_offset(leader_at(c, 10), latest_timestamp, std::nullopt));
  BOOST_TEST(list_offset(leader_at(c, 11), latest_timestamp, std::nullopt).has_value());
  // A new epoch with nothing appended yet starts at the log end (15).
  BOOST_TEST(!list_offset(leader_at(c, 14, 5), latest_timestamp, std::nullopt));
  BOOST_TEST(list_offset(leader_at(c, 15, 5), latest_timestamp, std::nullopt)->leader_epoch == 5);
}

BOOST_AUTO_TEST_CASE(a_timestamp_finds_a_record_below_the_high_watermark_with_its_epoch) {
  auto c = kafka_example();
  auto l = list_offset(leader_at(c, 13), 500, record_at{9, 510});
  BOOST_TEST(l->offset == 9);
  BOOST_TEST(l->timestamp == 510);
  BOOST_TEST(l->leader_epoch == 3);
  // At or above the high watermark: not visible yet.
  auto none = list_offset(leader_at(c, 13), 500, record_at{13, 520});
  BOOST_TEST(none->offset == -1);
  BOOST_TEST(none->leader_epoch == -1);
  BOOST_TEST(list_offset(leader_at(c, 13), 500, std::nullopt)->offset == -1);
  // Not found while the high watermark lags: OFFSET_NOT_AVAILABLE; found below it: the record.
  BOOST_TEST(!list_offset(leader_at(c, 10), 500, record_at{12, 520}));
  BOOST_TEST(list_offset(leader_at(c, 10), 500, record_at{7, 505})->offset == 7);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(leader_epoch_checkpoints)

BOOST_AUTO_TEST_CASE(round_trip_in_kafka_format) {
  auto c = cache_of({{0, 0}, {2, 1200}, {5, 1733}});
  auto text = format_leader_epoch_checkpoint(c);
  BOOST_TEST(text == "0\n3\n0 0\n2 1200\n5 1733\n");
  auto back = parse_leader_epoch_checkpoint(text);
  BOOST_REQUIRE(back);
  BOOST_TEST((back->entries() == c.entries()));
  BOOST_TEST(format_leader_epoch_checkpoint(leader_epoch_cache{}) == "0\n0\n");
  BOOST_TEST(parse_leader_epoch_checkpoint("0\n0\n")->entries().empty());
}

BOOST_AUTO_TEST_CASE(reject_malformed_text) {
  for (auto bad : {"", "0", "0\n", "1\n0\n", "0\n1\n", "0\n2\n1 0\n", "0\n1\n1 0", "0\n1\n1 0 5\n",
                   "0\n1\n1  0\n", "0\n1\n 1 0\n", "0\n1\n1\t0\n", "0\n1\n-1 0\n", "0\n1\n1 -5\n",
                   "0\n1\n1 x\n", "0\n1\n+1 0\n", "0\n1\n1 0\nextra\n", "0\n0\n\n", "0 \n0\n", "x\n0\n",
                   "0\n2\n3 10\n2 20\n", "0\n2\n2 10\n3 10\n", "0\n2\n2 10\n2 20\n",
                   "0\n1\n1 99999999999999999999\n", "0\n1\n9999999999 0\n"})
    BOOST_TEST((parse_leader_epoch_checkpoint(bad).error() == errc::corrupt_checkpoint), bad);
}

BOOST_AUTO_TEST_CASE(files_round_trip_and_a_missing_one_is_empty) {
  test::temp_dir dir;
  auto missing = read_leader_epoch_file(dir / leader_epoch_file_name);
  BOOST_REQUIRE(missing);
  BOOST_TEST(missing->entries().empty());
  auto c = cache_of({{1, 0}, {4, 77}});
  BOOST_REQUIRE(write_leader_epoch_file(dir / leader_epoch_file_name, c));
  BOOST_TEST(*read_whole_file(dir / leader_epoch_file_name) == "0\n2\n1 0\n4 77\n");
  BOOST_TEST(!test::file_exists(dir / (std::string(leader_epoch_file_name) + ".tmp")));
  BOOST_TEST((read_leader_epoch_file(dir / leader_epoch_file_name)->entries() == c.entries()));
  test::write_bytes(dir / leader_epoch_file_name, "0\n2\n1 0\n");
  BOOST_TEST((read_leader_epoch_file(dir / leader_epoch_file_name).error() == errc::corrupt_checkpoint));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_epochs)

BOOST_AUTO_TEST_CASE(append_with_an_epoch_stamps_every_batch_and_the_cache) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto buf = batch_with_epoch(2, -1);
  auto second = batch_with_epoch(3, 9); // whatever the producer wrote is overwritten
  buf.insert(buf.end(), second.begin(), second.end());
  BOOST_REQUIRE(log->append(buf, now, 3));
  BOOST_TEST(stored_epoch(buf.data()) == 3); // stamped in the caller's buffer too
  append(*log, batch_with_epoch(1, 0), 5);
  auto batches = all_batches(*log);
  BOOST_REQUIRE_EQUAL(batches.size(), 3u);
  std::vector<int32_t> epochs;
  for (auto& b : batches) {
    BOOST_TEST(bool(protocol::validate_batch(protocol::bytes_view(b.data(), b.size())))); // CRC unaffected
    epochs.push_back(stored_epoch(b.data()));
  }
  BOOST_TEST((epochs == std::vector<int32_t>{3, 3, 5}));
  auto expected = cache_of({{3, 0}, {5, 5}});
  BOOST_TEST((log->epoch_cache() == expected));
  BOOST_TEST((epoch_file_of(*log) == expected)); // written at once (fsynced by the next flush)
}

BOOST_AUTO_TEST_CASE(append_without_an_epoch_keeps_the_bytes_and_assigns_their_epochs) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto b = batch_with_epoch(2, 7);
  BOOST_REQUIRE(log->append(b, now));
  auto unstamped = batch_with_epoch(2, -1);
  BOOST_REQUIRE(log->append(unstamped, now, -1));
  BOOST_TEST(stored_epoch(all_batches(*log)[1].data()) == -1);
  BOOST_TEST((log->epoch_cache() == cache_of({{7, 0}})));
}

BOOST_AUTO_TEST_CASE(assign_leader_epoch_starts_an_epoch_at_the_log_end) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  append(*log, batch_with_epoch(3, 0), 1);
  BOOST_TEST(log->assign_leader_epoch(2));
  BOOST_TEST(!log->assign_leader_epoch(2));
  BOOST_TEST((log->epoch_cache() == cache_of({{1, 0}, {2, 3}})));
  BOOST_TEST((log->epoch_cache().end_offset_for(1, log->log_end_offset()) == epoch_end_offset{1, 3}));
  BOOST_TEST((epoch_file_of(*log) == log->epoch_cache()));
}

BOOST_AUTO_TEST_CASE(append_replicated_keeps_the_leaders_bytes) {
  test::temp_dir leader_dir, follower_dir, bulk_dir;
  auto leader = open_log(leader_dir.path());
  auto expected = write_epochs(*leader);
  BOOST_REQUIRE(leader->segment_count() > 1u);
  auto follower = open_log(follower_dir.path());
  for (auto& b : all_batches(*leader)) {
    auto copy = b;
    auto info = follower->append_replicated(copy, now);
    BOOST_REQUIRE_MESSAGE(info, info.error().message());
    BOOST_TEST((copy == b)); // nothing rewritten, not even in the buffer
  }
  BOOST_TEST(follower->log_end_offset() == leader->log_end_offset());
  BOOST_TEST((follower->epoch_cache() == expected));
  BOOST_TEST((epoch_file_of(*follower) == expected));
  BOOST_TEST((segment_files(follower_dir.path()) == segment_files(leader_dir.path())));
  // Several batches in one buffer (a fetch response) are taken as well.
  std::vector<char> all;
  std::string leader_bytes;
  for (auto& [name, bytes] : segment_files(leader_dir.path()))
    leader_bytes += bytes;
  all.assign(leader_bytes.begin(), leader_bytes.end());
  auto bulk = open_log(bulk_dir.path());
  auto info = bulk->append_replicated(all, now);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
  BOOST_TEST(info->first_offset == 0);
  BOOST_TEST(info->last_offset == leader->log_end_offset() - 1);
  BOOST_TEST(info->batches == 10u);
  std::string bulk_bytes;
  for (auto& [name, bytes] : segment_files(bulk_dir.path()))
    bulk_bytes += bytes;
  BOOST_TEST((bulk_bytes == leader_bytes));
  BOOST_TEST((bulk->epoch_cache() == expected));
}

BOOST_AUTO_TEST_CASE(append_replicated_refuses_a_gap_or_an_overlap_and_writes_nothing) {
  test::temp_dir leader_dir, follower_dir;
  auto leader = open_log(leader_dir.path());
  write_epochs(*leader);
  auto batches = all_batches(*leader); // offsets 0, 2, 4, ...
  auto follower = open_log(follower_dir.path());
  auto first = batches[0];
  BOOST_REQUIRE(follower->append_replicated(first, now));
  auto check_refused = [&](std::vector<std::vector<char>> parts, std::error_code why) {
    std::vector<char> buf;
    for (auto& p : parts)
      buf.insert(buf.end(), p.begin(), p.end());
    auto before = buf;
    BOOST_TEST((follower->append_replicated(buf, now).error() == why));
    BOOST_TEST((buf == before));
    BOOST_TEST(follower->log_end_offset() == 2);
    BOOST_TEST(follower->size_bytes() == batches[0].size());
    BOOST_TEST((follower->epoch_cache() == cache_of({{1, 0}})));
  };
  check_refused({batches[2]}, errc::non_contiguous_offsets);             // gap: 4 after 2
  check_refused({batches[0]}, errc::non_contiguous_offsets);             // overlap: 0 again
  check_refused({batches[1], batches[3]}, errc::non_contiguous_offsets); // gap inside the buffer
  check_refused({batches[1], batches[1]}, errc::non_contiguous_offsets); // overlap inside
  auto damaged = batches[2];
  damaged.back() ^= 1;
  check_refused({batches[1], damaged}, protocol::errc::bad_crc);
  std::vector<char> empty;
  BOOST_TEST((follower->append_replicated(empty, now).error() == errc::empty_append));
  auto cfg = test::small_log_config();
  cfg.max_message_bytes = 100;
  follower->set_config(cfg);
  check_refused({batches[1]}, errc::batch_too_large);
}

BOOST_AUTO_TEST_CASE(truncate_to_drops_the_epochs_after_the_new_end) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log); // {1,0} {2,4} {5,12} {7,18}, batches of 2
  BOOST_REQUIRE(log->truncate_to(19)); // inside the epoch-7 batch: it goes whole
  BOOST_TEST((log->epoch_cache() == cache_of({{1, 0}, {2, 4}, {5, 12}})));
  BOOST_REQUIRE(log->truncate_to(10));
  BOOST_TEST((log->epoch_cache() == cache_of({{1, 0}, {2, 4}})));
  BOOST_TEST((epoch_file_of(*log) == log->epoch_cache()));
  // At or past the log end, an epoch assigned without records still goes (Kafka).
  BOOST_REQUIRE(log->assign_leader_epoch(8));
  BOOST_REQUIRE(log->truncate_to(50));
  BOOST_TEST((log->epoch_cache() == cache_of({{1, 0}, {2, 4}})));
  BOOST_REQUIRE(log->truncate_to(0));
  BOOST_TEST(log->epoch_cache().entries().empty());
  BOOST_TEST(epoch_file_of(*log).entries().empty());
}

BOOST_AUTO_TEST_CASE(truncate_fully_and_start_at_empties_log_and_epochs) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log);
  BOOST_REQUIRE(log->truncate_fully_and_start_at(500));
  BOOST_TEST(log->log_start_offset() == 500);
  BOOST_TEST(log->log_end_offset() == 500);
  BOOST_TEST(log->epoch_cache().entries().empty());
  BOOST_TEST(epoch_file_of(*log).entries().empty());
  append(*log, batch_with_epoch(2, 0), 9);
  BOOST_TEST((log->epoch_cache() == cache_of({{9, 500}})));
  BOOST_TEST((log->truncate_fully_and_start_at(-1).error() == errc::offset_out_of_range));
  log.reset();
  log = open_log(dir.path());
  BOOST_TEST(log->log_start_offset() == 500);
  BOOST_TEST((log->epoch_cache() == cache_of({{9, 500}})));
}

BOOST_AUTO_TEST_CASE(retention_moves_the_first_epoch_to_the_log_start) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 7000; // two batches per segment
  cfg.retention_bytes = 0;   // all but the active one go
  auto log = open_log(dir.path(), 0, false, cfg);
  for (int32_t e : batch_epochs)
    append(*log, batch_with_epoch(2, 0), e);
  auto deleted = log->apply_retention(now);
  BOOST_REQUIRE(deleted);
  BOOST_TEST(deleted->size() == 4u);
  BOOST_TEST(log->log_start_offset() == 16);
  auto expected = cache_of({{5, 16}, {7, 18}});
  BOOST_TEST((log->epoch_cache() == expected));
  BOOST_TEST((epoch_file_of(*log) == expected));
}

BOOST_AUTO_TEST_CASE(reopen_after_a_clean_close_gives_the_same_cache) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto expected = write_epochs(*log);
  BOOST_REQUIRE(log->close());
  auto end = log->log_end_offset();
  log.reset();
  log = open_log(dir.path(), end, true);
  BOOST_TEST(log->recovery().recovered_segments == 0u);
  BOOST_TEST((log->epoch_cache() == expected));
}

BOOST_AUTO_TEST_CASE(reopen_after_a_crash_gives_the_same_cache) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto expected = write_epochs(*log);
  BOOST_REQUIRE(log->assign_leader_epoch(9)); // no records yet: does not survive a reopen
  log.reset(); // killed: no flush, no close
  log = open_log(dir.path());
  BOOST_TEST(log->recovery().recovered_segments > 1u);
  BOOST_TEST((log->epoch_cache() == expected));
  BOOST_TEST((epoch_file_of(*log) == expected));
}

BOOST_AUTO_TEST_CASE(a_torn_tail_takes_its_epochs_along) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log);
  log.reset();
  auto path = segment_file_path(dir.path(), 10, segment_file::log);
  test::cut_file(path, test::file_size(path) - 1); // the epoch-7 batch is torn
  log = open_log(dir.path());
  BOOST_TEST(log->log_end_offset() == 18);
  BOOST_TEST((log->epoch_cache() == cache_of({{1, 0}, {2, 4}, {5, 12}})));
  BOOST_TEST((epoch_file_of(*log) == log->epoch_cache()));
}

BOOST_AUTO_TEST_CASE(a_lost_or_damaged_file_is_rebuilt_from_a_full_scan) {
  for (bool damaged : {false, true}) {
    test::temp_dir dir;
    auto log = open_log(dir.path());
    auto expected = write_epochs(*log);
    log.reset();
    auto file = dir / leader_epoch_file_name;
    if (damaged)
      test::write_bytes(file, "0\n4\n1 0\n");
    else
      std::filesystem::remove(file);
    log = open_log(dir.path()); // recovery point 0: everything is scanned
    BOOST_TEST((log->epoch_cache() == expected));
    BOOST_TEST((epoch_file_of(*log) == expected));
  }
}

BOOST_AUTO_TEST_CASE(a_lost_file_is_rebuilt_only_where_the_log_was_scanned) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log);
  log.reset();
  std::filesystem::remove(dir / leader_epoch_file_name);
  log = open_log(dir.path(), 12); // the segment at 10 holds the recovery point: scanned from 10
  BOOST_TEST(log->recovery().recovered_segments == 1u);
  // Epoch 2 seems to start at 10; epoch 1 and epoch 2's true start were never scanned.
  BOOST_TEST((log->epoch_cache() == cache_of({{2, 10}, {5, 12}, {7, 18}})));
}

BOOST_AUTO_TEST_CASE(a_stale_file_is_corrected_by_the_scan) {
  // The file of an earlier state (as a power loss could leave it): epoch 7 at 18.
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log);
  auto stale = *read_whole_file(dir / leader_epoch_file_name);
  BOOST_REQUIRE(log->truncate_to(18));
  append(*log, batch_with_epoch(2, 0), 6); // a lower epoch than the stale entry, at 18
  auto expected = log->epoch_cache();
  BOOST_TEST((expected == cache_of({{1, 0}, {2, 4}, {5, 12}, {6, 18}})));
  log.reset();
  test::write_bytes(dir / leader_epoch_file_name, stale);
  log = open_log(dir.path(), 12);
  BOOST_TEST((log->epoch_cache() == expected));
}

BOOST_AUTO_TEST_CASE(a_damaged_file_after_a_clean_close_is_dropped) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  write_epochs(*log);
  BOOST_REQUIRE(log->close());
  auto end = log->log_end_offset();
  log.reset();
  test::write_bytes(dir / leader_epoch_file_name, "garbage");
  test::write_bytes(dir / (std::string(leader_epoch_file_name) + ".tmp"), "left over");
  log = open_log(dir.path(), end, true); // nothing scanned: nothing to rebuild from
  BOOST_TEST(log->epoch_cache().entries().empty());
  BOOST_TEST(epoch_file_of(*log).entries().empty());
  BOOST_TEST(!test::file_exists(dir / (std::string(leader_epoch_file_name) + ".tmp")));
  append(*log, batch_with_epoch(1, 0), 8);
  BOOST_TEST((log->epoch_cache() == cache_of({{8, end}})));
}

BOOST_AUTO_TEST_CASE(a_flush_makes_the_file_durable_and_keeps_it) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto expected = write_epochs(*log);
  auto job = log->prepare_flush();
  BOOST_REQUIRE(job);
  BOOST_REQUIRE(log->assign_leader_epoch(9)); // while the job runs: synced by the next one
  BOOST_REQUIRE(job->run());
  log->complete_flush(*job);
  BOOST_REQUIRE(log->flush());
  expected.assign(9, log->log_end_offset());
  BOOST_TEST((epoch_file_of(*log) == expected));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(high_watermark_checkpoints)

BOOST_AUTO_TEST_CASE(round_trip_per_log_dir) {
  test::temp_dir dir;
  auto d = log_directory::open(dir.path());
  BOOST_REQUIRE(d);
  auto none = (*d)->read_high_watermarks();
  BOOST_REQUIRE(none);
  BOOST_TEST(none->empty());
  offset_checkpoint hw{{{"orders", 0}, 1532}, {{"orders", 1}, 977}};
  BOOST_REQUIRE((*d)->write_high_watermarks(hw));
  BOOST_TEST(*read_whole_file(dir / "replication-offset-checkpoint") == "0\n2\norders 0 1532\norders 1 977\n");
  BOOST_TEST((*(*d)->read_high_watermarks() == hw));
  BOOST_TEST((*d)->partitions_on_disk()->empty());
  test::write_bytes(dir / "replication-offset-checkpoint", "0\n3\n");
  BOOST_TEST(((*d)->read_high_watermarks().error() == errc::corrupt_checkpoint));
}

BOOST_AUTO_TEST_SUITE_END()
