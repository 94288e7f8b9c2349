// The partition log: append, read, roll, timestamps, truncation, retention, flushing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstring>

#include "protocol/batch_header.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"
#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
using test::make_batch;

namespace {

std::unique_ptr<partition_log> open_log(const std::string& dir, const log_config& cfg,
                                        int64_t recovery_point = 0, bool clean = false,
                                        int64_t now_ms = 1000) {
  auto log = partition_log::open(dir, cfg, recovery_point, clean, now_ms);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

append_info append(partition_log& log, std::vector<char> batch, int64_t now = 1000) {
  auto info = log.append(batch, now);
  BOOST_REQUIRE_MESSAGE(info, info.error().message());
  return *info;
}

// The base offsets of the batches in a read result.
std::vector<int64_t> batch_offsets(const std::vector<char>& bytes) {
  std::vector<int64_t> out;
  size_t at = 0;
  while (at < bytes.size()) {
    auto h = protocol::validate_batch(protocol::bytes_view(bytes.data() + at, bytes.size() - at));
    BOOST_REQUIRE(h);
    out.push_back(h->base_offset);
    at += h->total_size();
  }
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(partition_log_appends)

BOOST_AUTO_TEST_CASE(assign_dense_offsets_and_return_the_first) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  BOOST_TEST(log->log_end_offset() == 0);
  auto a = append(*log, make_batch(3, 10, 1000));
  BOOST_TEST(a.first_offset == 0);
  BOOST_TEST(a.last_offset == 2);
  auto b = append(*log, make_batch(5, 10, 1000));
  BOOST_TEST(b.first_offset == 3);
  BOOST_TEST(b.last_offset == 7);
  BOOST_TEST(log->log_end_offset() == 8);
  BOOST_TEST(log->log_start_offset() == 0);
}

BOOST_AUTO_TEST_CASE(take_several_batches_in_one_buffer) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  auto buf = make_batch(2, 10, 1000);
  auto second = make_batch(4, 10, 1000);
  buf.insert(buf.end(), second.begin(), second.end());
  auto a = append(*log, buf);
  BOOST_TEST(a.batches == 2u);
  BOOST_TEST(a.records == 6u);
  BOOST_TEST(a.last_offset == 5);
  auto read = log->read(0, 1 << 20);
  BOOST_REQUIRE(read);
  BOOST_TEST((batch_offsets(*read) == std::vector<int64_t>{0, 2}));
}

BOOST_AUTO_TEST_CASE(reject_corrupt_batches_and_write_nothing) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  auto good = make_batch(2, 10, 1000);
  auto bad = make_batch(2, 10, 1000);
  bad[bad.size() - 1] ^= 1;
  auto both = good;
  both.insert(both.end(), bad.begin(), bad.end());
  BOOST_TEST((log->append(both, 0).error() == protocol::errc::bad_crc));
  auto torn = std::vector<char>(good.begin(), good.end() - 1);
  BOOST_TEST((log->append(torn, 0).error() == protocol::errc::truncated));
  std::vector<char> empty;
  BOOST_TEST((log->append(empty, 0).error() == errc::empty_append));
  BOOST_TEST(log->log_end_offset() == 0);
  BOOST_TEST(log->size_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(reject_batches_above_max_message_bytes) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.max_message_bytes = 500;
  auto log = open_log(dir.path(), cfg);
  auto big = make_batch(1, 600, 1000);
  BOOST_TEST((log->append(big, 0).error() == errc::batch_too_large));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_reads)

BOOST_AUTO_TEST_CASE(start_at_the_batch_holding_the_offset) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  for (int i = 0; i < 10; ++i)
    append(*log, make_batch(4, 20, 1000, static_cast<uint32_t>(i)));
  for (int64_t offset = 0; offset < 40; ++offset) {
    auto read = log->read(offset, 1);
    BOOST_REQUIRE(read);
    auto offsets = batch_offsets(*read);
    BOOST_REQUIRE_EQUAL(offsets.size(), 1u); // at least one whole batch
    BOOST_TEST(offsets[0] == offset / 4 * 4);
    BOOST_TEST(test::batch_tag(read->data(), read->size()) == offset / 4);
  }
}

BOOST_AUTO_TEST_CASE(return_whole_batches_within_max_bytes) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  auto one = make_batch(1, 100, 1000);
  for (int i = 0; i < 10; ++i)
    append(*log, one);
  auto read = log->read(2, one.size() * 3 + one.size() / 2);
  BOOST_REQUIRE(read);
  BOOST_TEST((batch_offsets(*read) == std::vector<int64_t>{2, 3, 4}));
  auto capped = log->read(2, 1 << 20, 6);
  BOOST_TEST((batch_offsets(*capped) == std::vector<int64_t>{2, 3, 4, 5}));
}

BOOST_AUTO_TEST_CASE(fail_outside_the_log_and_return_nothing_at_its_end) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  append(*log, make_batch(3, 10, 1000));
  BOOST_TEST((log->read(4, 100).error() == errc::offset_out_of_range));
  BOOST_TEST((log->read(-1, 100).error() == errc::offset_out_of_range));
  auto at_end = log->read(3, 100);
  BOOST_REQUIRE(at_end);
  BOOST_TEST(at_end->empty());
}

BOOST_AUTO_TEST_CASE(cross_segment_boundaries) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  for (int i = 0; i < 100; ++i)
    append(*log, make_batch(2, 500, 1000, static_cast<uint32_t>(i)));
  BOOST_TEST(log->segment_count() > 5u);
  for (int64_t offset = 0; offset < 200; offset += 7) {
    auto read = log->read(offset, 1);
    BOOST_REQUIRE(read);
    BOOST_TEST(test::batch_tag(read->data(), read->size()) == offset / 2);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_rolls)

BOOST_AUTO_TEST_CASE(at_segment_bytes_with_files_named_by_base_offset) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 3000;
  auto log = open_log(dir.path(), cfg);
  auto batch = make_batch(2, 400, 1000); // ~ 900 bytes: three fit in a segment
  for (int i = 0; i < 7; ++i)
    append(*log, batch);
  BOOST_TEST((log->segment_base_offsets() == std::vector<int64_t>{0, 6, 12}));
  for (int64_t base : {0, 6, 12}) {
    BOOST_TEST(test::file_exists(segment_file_path(dir.path(), base, segment_file::log)));
    BOOST_TEST(test::file_exists(segment_file_path(dir.path(), base, segment_file::index)));
    BOOST_TEST(test::file_exists(segment_file_path(dir.path(), base, segment_file::timeindex)));
  }
  for (auto base : log->segment_base_offsets())
    BOOST_TEST(test::file_size(segment_file_path(dir.path(), base, segment_file::log)) <= 3000u);
}

BOOST_AUTO_TEST_CASE(when_the_first_batch_is_older_than_roll_ms) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.roll_ms = 100;
  auto log = open_log(dir.path(), cfg);
  append(*log, make_batch(1, 10, 1000), 1000);
  append(*log, make_batch(1, 10, 1050), 1100);
  BOOST_TEST(log->segment_count() == 1u);
  append(*log, make_batch(1, 10, 1101), 1101);
  BOOST_TEST((log->segment_base_offsets() == std::vector<int64_t>{0, 2}));
}

BOOST_AUTO_TEST_CASE(a_batch_larger_than_a_segment_gets_its_own) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 1000;
  auto log = open_log(dir.path(), cfg);
  append(*log, make_batch(1, 10, 1000));
  append(*log, make_batch(1, 3000, 1000));
  append(*log, make_batch(1, 10, 1000));
  BOOST_TEST((log->segment_base_offsets() == std::vector<int64_t>{0, 1, 2}));
  auto read = log->read(1, 10);
  BOOST_TEST(read->size() > 3000u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_timestamps)

BOOST_AUTO_TEST_CASE(find_the_first_batch_at_or_after_a_timestamp) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  for (int i = 0; i < 200; ++i)
    append(*log, make_batch(2, 100, 10000 + i * 10));
  BOOST_TEST(log->segment_count() > 3u);
  for (int64_t ts : {0, 10000, 10005, 10010, 10995, 11000, 11990}) {
    auto m = log->find_by_timestamp(ts);
    BOOST_REQUIRE(m);
    BOOST_REQUIRE(*m);
    int64_t expected_batch = ts <= 10000 ? 0 : (ts - 10000 + 9) / 10;
    BOOST_TEST((*m)->batch_base_offset == expected_batch * 2, "ts " << ts);
    BOOST_TEST((*m)->batch_max_timestamp >= ts);
  }
  auto none = log->find_by_timestamp(12000);
  BOOST_REQUIRE(none);
  BOOST_TEST(!*none);
}

BOOST_AUTO_TEST_CASE(find_the_exact_record_inside_the_batch) {
  for (auto codec : {protocol::compression_codec::none, protocol::compression_codec::lz4}) {
    test::temp_dir dir;
    auto log = open_log(dir.path(), test::small_log_config());
    append(*log, make_batch(3, 10, 4000)); // offsets 0..2, older
    std::vector<protocol::record> records;
    for (int i = 0; i < 10; ++i) // offsets 3..12, timestamps 5000, 5010, ..., 5090
      records.push_back({std::nullopt, std::string("v"), {}, 5000 + 10 * i});
    append(*log, protocol::build_batch(records, codec));
    auto hit = log->offset_for_timestamp(5031);
    BOOST_REQUIRE(hit);
    BOOST_REQUIRE(*hit);
    BOOST_TEST((*hit)->offset == 7);
    BOOST_TEST((*hit)->timestamp == 5040);
    BOOST_TEST((*log->offset_for_timestamp(4000))->offset == 0);
    BOOST_TEST(!*log->offset_for_timestamp(5091));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_truncation)

BOOST_AUTO_TEST_CASE(removes_whole_batches_from_the_offset_on) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  for (int i = 0; i < 60; ++i)
    append(*log, make_batch(3, 300, 1000, static_cast<uint32_t>(i)));
  auto segments_before = log->segment_count();
  BOOST_REQUIRE(log->truncate_to(90));
  BOOST_TEST(log->log_end_offset() == 90);
  BOOST_TEST(log->segment_count() < segments_before);
  BOOST_REQUIRE(log->truncate_to(50)); // inside the batch 48..50: the batch goes whole
  BOOST_TEST(log->log_end_offset() == 48);
  BOOST_TEST(log->read(48, 10)->empty());
  auto a = append(*log, make_batch(3, 300, 1000, 777));
  BOOST_TEST(a.first_offset == 48);
  auto read = log->read(49, 1);
  BOOST_TEST(test::batch_tag(read->data(), read->size()) == 777u);
}

BOOST_AUTO_TEST_CASE(below_the_start_empties_the_log) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  for (int i = 0; i < 10; ++i)
    append(*log, make_batch(3, 300, 1000));
  BOOST_REQUIRE(log->truncate_to(0));
  BOOST_TEST(log->log_end_offset() == 0);
  BOOST_TEST(log->size_bytes() == 0u);
  BOOST_TEST(append(*log, make_batch(1, 1, 1000)).first_offset == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_retention)

BOOST_AUTO_TEST_CASE(deletes_old_segments_by_time_and_moves_the_start) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 2000;
  cfg.retention_ms = 1000;
  auto log = open_log(dir.path(), cfg);
  for (int i = 0; i < 20; ++i) // two batches per segment, timestamps 0, 100, ...
    append(*log, make_batch(1, 800, i * 100), i * 100);
  auto bases = log->segment_base_offsets();
  BOOST_REQUIRE_EQUAL(bases.size(), 10u);
  auto deleted = log->apply_retention(2000); // newest records older than 1000 ms
  BOOST_REQUIRE(deleted);
  // Segment k holds timestamps 200k and 200k+100: expired when 2000 - (200k+100) > 1000.
  BOOST_TEST(deleted->size() == 5u);
  BOOST_TEST((*deleted)[0].by_time);
  BOOST_TEST(log->log_start_offset() == 10);
  BOOST_TEST(!test::file_exists(segment_file_path(dir.path(), 0, segment_file::log)));
  auto retired = segment_file_path(dir.path(), 0, segment_file::log) + deleted_suffix;
  BOOST_TEST(test::file_exists(retired)); // unlinking is left to the caller
  BOOST_TEST(((*deleted)[0].files.size() == 3u));
  BOOST_REQUIRE(delete_files((*deleted)[0].files));
  BOOST_TEST(!test::file_exists(retired));
  // Leftovers of a crash before the unlink are removed when the log opens again.
  auto leftover = segment_file_path(dir.path(), 2, segment_file::log) + deleted_suffix;
  BOOST_TEST(test::file_exists(leftover));
  log.reset();
  log = open_log(dir.path(), cfg);
  BOOST_TEST(!test::file_exists(leftover));
  BOOST_TEST(log->log_start_offset() == 10);
  BOOST_TEST((log->read(9, 10).error() == errc::offset_out_of_range));
  BOOST_TEST(log->read(10, 10)->size() > 0u);
}

BOOST_AUTO_TEST_CASE(deletes_oldest_segments_by_size_but_never_the_active_one) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 2000;
  cfg.retention_bytes = 0;
  auto log = open_log(dir.path(), cfg);
  for (int i = 0; i < 20; ++i)
    append(*log, make_batch(1, 800, 1000));
  auto deleted = log->apply_retention(1000);
  BOOST_REQUIRE(deleted);
  BOOST_TEST(deleted->size() == 9u);
  BOOST_TEST(!(*deleted)[0].by_time);
  BOOST_TEST(log->segment_count() == 1u);
  BOOST_TEST(log->log_start_offset() == 18);
  BOOST_TEST(log->log_end_offset() == 20);
}

BOOST_AUTO_TEST_SUITE_END()

// What librdkafka writes when the application passes timestamp -1: first timestamp -1,
// max timestamp 0 (with a valid CRC).
int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::vector<char> batch_without_timestamp(int records) {
  auto batch = make_batch(records, 10, protocol::no_timestamp);
  int64_t zero = 0;
  std::memcpy(batch.data() + protocol::batch_layout::max_timestamp, &zero, sizeof zero);
  protocol::update_crc(batch.data(), batch.size());
  return batch;
}

// Kafka's defaults: roll after 7 days, keep 168 hours.
log_config week_long_config() {
  auto cfg = test::small_log_config();
  cfg.roll_ms = 7LL * 24 * 3600 * 1000;
  cfg.retention_ms = 168LL * 3600 * 1000;
  return cfg;
}

BOOST_AUTO_TEST_SUITE(partition_log_missing_timestamps)

BOOST_AUTO_TEST_CASE(a_batch_without_timestamp_is_stored_with_max_timestamp_minus_one) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  auto info = append(*log, batch_without_timestamp(3));
  BOOST_TEST(info.max_timestamp == protocol::no_timestamp);
  auto bytes = log->read(0, 1 << 20);
  BOOST_REQUIRE(bytes);
  auto h = protocol::validate_batch(protocol::bytes_view(bytes->data(), bytes->size())); // CRC holds
  BOOST_REQUIRE(h);
  BOOST_TEST(h->max_timestamp == protocol::no_timestamp);
  BOOST_TEST(h->base_timestamp == protocol::no_timestamp);
}

BOOST_AUTO_TEST_CASE(batches_without_timestamp_neither_roll_per_append_nor_expire) {
  test::temp_dir dir;
  auto cfg = week_long_config();
  auto now = wall_clock_ms();
  auto log = open_log(dir.path(), cfg, 0, false, now);
  for (int i = 0; i < 50; ++i)
    append(*log, batch_without_timestamp(1), now);
  BOOST_TEST(log->segment_count() == 1u);
  auto deleted = log->apply_retention(now + 1000); // files written just now: kept
  BOOST_REQUIRE(deleted);
  BOOST_TEST(deleted->empty());
  BOOST_TEST(log->log_start_offset() == 0);
  // Past roll.ms after the segment's creation, the next append rolls it.
  append(*log, batch_without_timestamp(1), now + cfg.roll_ms + 1);
  BOOST_TEST(log->segment_count() == 2u);
}

BOOST_AUTO_TEST_CASE(old_create_time_records_roll_by_their_own_clock_and_expire) {
  test::temp_dir dir;
  auto cfg = week_long_config();
  auto now = wall_clock_ms();
  auto log = open_log(dir.path(), cfg, 0, false, now);
  for (int i = 0; i < 50; ++i) // from 1970: as old as each other, so no roll between them
    append(*log, make_batch(1, 10, 1000 + i), now);
  BOOST_TEST(log->segment_count() == 1u);
  append(*log, make_batch(1, 10, now), now); // its timestamp is far past roll.ms after 1000
  BOOST_REQUIRE_EQUAL(log->segment_count(), 2u);
  auto deleted = log->apply_retention(now);
  BOOST_REQUIRE(deleted);
  BOOST_TEST(deleted->size() == 1u); // the old records' segment, by their timestamps
  BOOST_TEST(log->log_start_offset() == 50);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_flushing)

BOOST_AUTO_TEST_CASE(is_due_after_flush_interval_messages) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.flush_interval_messages = 5;
  auto log = open_log(dir.path(), cfg);
  append(*log, make_batch(3, 10, 1000));
  BOOST_TEST(!log->flush_due(1000));
  append(*log, make_batch(2, 10, 1000));
  BOOST_TEST(log->flush_due(1000));
  BOOST_TEST(log->recovery_point() == 0);
  BOOST_REQUIRE(log->flush());
  BOOST_TEST(log->recovery_point() == 5);
  BOOST_TEST(!log->flush_due(1000));
}

BOOST_AUTO_TEST_CASE(can_run_its_fsync_elsewhere_while_appends_continue) {
  test::temp_dir dir;
  auto log = open_log(dir.path(), test::small_log_config());
  append(*log, make_batch(3, 10, 1000));
  auto job = log->prepare_flush();
  BOOST_REQUIRE(job);
  append(*log, make_batch(2, 10, 1000)); // arrives while the job runs
  BOOST_REQUIRE(job->run());
  log->complete_flush(*job);
  BOOST_TEST(log->recovery_point() == 3);
  BOOST_TEST(log->flush_due(1000) == false); // default policy: only on demand
  BOOST_REQUIRE(log->flush());
  BOOST_TEST(log->recovery_point() == 5);
}

BOOST_AUTO_TEST_CASE(is_due_after_flush_interval_ms) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.flush_interval_ms = 200;
  auto log = open_log(dir.path(), cfg);
  BOOST_TEST(!log->flush_due(5000)); // nothing unflushed
  append(*log, make_batch(1, 10, 1000), 1000);
  BOOST_TEST(!log->flush_due(1199));
  BOOST_TEST(log->flush_due(1200));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_log_delete_records)

// Ten segments of two single-record batches each (segment k holds offsets 2k, 2k+1).
static std::unique_ptr<partition_log> twenty_records(const std::string& dir, log_config cfg) {
  cfg.segment_bytes = 2000;
  auto log = open_log(dir, cfg);
  for (int i = 0; i < 20; ++i)
    append(*log, make_batch(1, 800, 1000));
  BOOST_REQUIRE_EQUAL(log->segment_base_offsets().size(), 10u);
  return log;
}

BOOST_AUTO_TEST_CASE(moves_the_start_inside_a_segment_and_removes_the_segments_below) {
  test::temp_dir dir;
  auto log = twenty_records(dir.path(), test::small_log_config());
  auto removed = log->advance_log_start(7);
  BOOST_REQUIRE(removed);
  BOOST_TEST(removed->size() == 3u); // offsets 0-5; offset 6 shares the segment with 7
  BOOST_TEST((*removed)[0].below_log_start);
  BOOST_TEST(!(*removed)[0].by_time);
  BOOST_TEST(log->log_start_offset() == 7);
  BOOST_TEST(log->segment_base_offsets().front() == 6);
  BOOST_TEST((log->read(6, 10000).error() == errc::offset_out_of_range));
  BOOST_TEST(batch_offsets(*log->read(7, 10000)).front() == 7);
  // A lower offset changes nothing; one past the log end is refused.
  BOOST_TEST(log->advance_log_start(3)->empty());
  BOOST_TEST(log->log_start_offset() == 7);
  BOOST_TEST((log->advance_log_start(21).error() == errc::offset_out_of_range));
  // The whole log: only the active segment stays, empty from the reader's view.
  BOOST_REQUIRE(log->advance_log_start(20));
  BOOST_TEST(log->log_start_offset() == 20);
  BOOST_TEST(log->read(20, 10000)->empty());
  BOOST_TEST(log->segment_base_offsets().size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_start_survives_reopening_after_a_crash_and_a_clean_close) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  auto log = twenty_records(dir.path(), cfg);
  BOOST_REQUIRE(log->advance_log_start(7));
  log.reset(); // killed: nothing closed or flushed
  log = open_log(dir.path(), cfg);
  BOOST_TEST(log->log_start_offset() == 7);
  BOOST_TEST((log->offset_for_timestamp(0)->value().offset == 7)); // ListOffsets by time skips deleted ones
  BOOST_REQUIRE(log->flush());
  BOOST_REQUIRE(log->close());
  log = open_log(dir.path(), cfg, 0, true);
  BOOST_TEST(log->log_start_offset() == 7);
  // A damaged file only brings deleted records back.
  test::write_bytes(dir / log_start_file_name, "garbage");
  log = open_log(dir.path(), cfg);
  BOOST_TEST(log->log_start_offset() == 6);
}

BOOST_AUTO_TEST_CASE(retention_removes_segments_left_below_the_start_by_a_crash) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  auto log = twenty_records(dir.path(), cfg);
  log.reset();
  // As if the process died between writing the start and retiring the segments.
  test::write_bytes(dir / log_start_file_name, "11\n");
  log = open_log(dir.path(), cfg);
  BOOST_TEST(log->log_start_offset() == 11);
  BOOST_TEST(log->segment_base_offsets().front() == 0);
  auto removed = log->apply_retention(1000);
  BOOST_REQUIRE(removed);
  BOOST_TEST(removed->size() == 5u);
  BOOST_TEST(log->segment_base_offsets().front() == 10);
}

BOOST_AUTO_TEST_CASE(a_follower_emptied_below_the_start_forgets_it) {
  test::temp_dir dir;
  auto cfg = test::small_log_config();
  auto log = twenty_records(dir.path(), cfg);
  BOOST_REQUIRE(log->advance_log_start(15));
  BOOST_REQUIRE(log->truncate_fully_and_start_at(4));
  BOOST_TEST(log->log_start_offset() == 4);
  for (int i = 0; i < 20; ++i)
    append(*log, make_batch(1, 800, 1000));
  log.reset();
  log = open_log(dir.path(), cfg);
  BOOST_TEST(log->log_start_offset() == 4);
}

BOOST_AUTO_TEST_SUITE_END()
