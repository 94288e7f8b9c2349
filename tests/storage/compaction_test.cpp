// Compaction of a partition log: prepare_clean / clean_job::run / complete_clean keep the last
// value of every key at its offset, passes over a map that is too small converge on the
// same log, tombstones go after delete.retention.ms, aborted transactions go, and a crash at
// any step of the swap leaves the log as before the clean or as after it.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>

#include "fixtures.hpp"
#include "protocol/control_batch.hpp"
#include "protocol/record_batch.hpp"
#include "storage/clean_swap.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"

using namespace cafka;
using namespace cafka::storage;
namespace fs = std::filesystem;

namespace {

constexpr int64_t now = 1'700'000'000'000;

log_config compacted_config() {
  auto cfg = test::small_log_config();
  cfg.cleanup_compact = true;
  cfg.cleanup_delete = false;
  cfg.segment_bytes = 2048;
  cfg.min_cleanable_dirty_ratio = 0.0;
  return cfg;
}

std::unique_ptr<partition_log> open_log(const std::string& dir, bool clean_shutdown = true) {
  auto log = partition_log::open(dir, compacted_config(), 0, clean_shutdown, now);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

// One batch of (key, value) records; a null value is a tombstone.
std::vector<char> keyed_batch(const std::vector<std::pair<std::string, std::optional<std::string>>>& kvs,
                              protocol::compression_codec codec = protocol::compression_codec::none) {
  protocol::batch_options o;
  o.codec = codec;
  protocol::batch_builder b(o);
  for (auto& [k, v] : kvs)
    b.add(protocol::record{k, v, {}, now});
  return b.build();
}

void append(partition_log& log, std::vector<char> batch) {
  auto r = log.append(batch, now);
  BOOST_REQUIRE_MESSAGE(r, r.error().message());
}

struct stored {
  int64_t offset;
  std::string key;
  std::optional<std::string> value;
  friend bool operator==(const stored& a, const stored& b) {
    return a.offset == b.offset && a.key == b.key && a.value == b.value;
  }
};

std::ostream& operator<<(std::ostream& os, const stored& s) {
  return os << s.offset << ':' << s.key << '=' << s.value.value_or("<null>");
}

// Every data record of the log, in order.
std::vector<stored> read_all(partition_log& log) {
  std::vector<stored> out;
  int64_t at = log.log_start_offset();
  while (at < log.log_end_offset()) {
    auto bytes = log.read(at, 1 << 20);
    BOOST_REQUIRE_MESSAGE(bytes, bytes.error().message());
    BOOST_REQUIRE(!bytes->empty());
    size_t pos = 0;
    while (pos < bytes->size()) {
      protocol::bytes_view rest(bytes->data() + pos, bytes->size() - pos);
      auto h = protocol::read_batch_header(rest);
      BOOST_REQUIRE(h);
      if (!h->is_control()) {
        auto st = protocol::for_each_record(rest, 1 << 20, [&](const protocol::record_view& r) {
          if (r.offset >= at)
            out.push_back({r.offset, std::string(r.key.value_or("")),
                           r.value ? std::optional<std::string>{std::string(*r.value)} : std::nullopt});
        });
        BOOST_REQUIRE(st);
      }
      at = h->next_offset();
      pos += h->total_size();
    }
  }
  return out;
}

// What a clean must leave: the last record of every key below `end`, and everything after.
std::vector<stored> compacted(const std::vector<stored>& all, int64_t end, bool drop_tombstones = false) {
  std::map<std::string, int64_t> last;
  for (auto& s : all)
    if (s.offset < end)
      last[s.key] = s.offset;
  std::vector<stored> out;
  for (auto& s : all)
    if (s.offset >= end || (last[s.key] == s.offset && (s.value || !drop_tombstones)))
      out.push_back(s);
  return out;
}

// One whole round; the outcome's deleted files are unlinked.
clean_outcome clean_once(partition_log& log, offset_map& map, int64_t at = now) {
  auto job = log.prepare_clean(log.log_end_offset(), at);
  BOOST_REQUIRE_MESSAGE(job, job.error().message());
  BOOST_REQUIRE(*job);
  auto run = (*job)->run(map);
  BOOST_REQUIRE_MESSAGE(run, run.error().message());
  auto done = log.complete_clean(**job);
  BOOST_REQUIRE_MESSAGE(done, done.error().message());
  BOOST_REQUIRE(delete_files(done->deleted_files));
  return *done;
}

// 40 batches of 5 records over 12 keys (so several segments), the last batch in the active one.
void fill(partition_log& log, unsigned seed = 7) {
  std::mt19937 rng(seed);
  for (int b = 0; b < 40; ++b) {
    std::vector<std::pair<std::string, std::optional<std::string>>> kvs;
    for (int r = 0; r < 5; ++r) {
      auto key = "key-" + std::to_string(rng() % 12);
      kvs.emplace_back(key, "value-" + std::to_string(b) + "-" + std::to_string(r) + std::string(40, 'x'));
    }
    append(log, keyed_batch(kvs, b % 3 == 0 ? protocol::compression_codec::lz4 : protocol::compression_codec::none));
  }
}

// The base offset of the active segment (where a clean stops).
int64_t active_base(const partition_log& log) { return log.segment_base_offsets().back(); }

} // namespace

BOOST_AUTO_TEST_SUITE(compaction)

BOOST_AUTO_TEST_CASE(a_clean_keeps_the_last_value_of_every_key_at_its_offset) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  fill(*log);
  auto before = read_all(*log);
  auto bytes_before = log->size_bytes();
  BOOST_REQUIRE(log->segment_count() > 3);
  auto end = active_base(*log);
  offset_map map(1 << 20);
  auto outcome = clean_once(*log, map);
  BOOST_TEST(outcome.swapped);
  BOOST_TEST(log->cleaner_offset() == end);
  auto expected = compacted(before, end);
  auto after = read_all(*log);
  BOOST_TEST(after == expected, boost::test_tools::per_element());
  BOOST_TEST(log->size_bytes() < bytes_before);
  BOOST_TEST(log->log_start_offset() == 0);
  // Appends go on; a clean and an unclean reopen read the same log.
  append(*log, keyed_batch({{"key-1", std::string("late")}}));
  expected.push_back({log->log_end_offset() - 1, "key-1", std::string("late")});
  BOOST_REQUIRE(log->close());
  log.reset();
  auto reopened = open_log(dir.path());
  BOOST_TEST(read_all(*reopened) == expected, boost::test_tools::per_element());
  reopened.reset();
  auto scanned = open_log(dir.path(), false); // every segment scanned: gaps are no damage here
  BOOST_TEST(scanned->recovery().truncated_bytes == 0u);
  BOOST_TEST(read_all(*scanned) == expected, boost::test_tools::per_element());
  // Nothing is due right after a clean that covered everything cleanable.
  auto again = scanned->prepare_clean(scanned->log_end_offset(), now);
  BOOST_REQUIRE(again);
  BOOST_TEST(!*again);
}

BOOST_AUTO_TEST_CASE(segments_emptied_by_a_clean_stay_and_reads_pass_over_them) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  while (log->segment_count() < 4)
    append(*log, keyed_batch({{"same", std::string(300, 's')}}));
  append(*log, keyed_batch({{"other", std::string("o")}}));
  auto before = read_all(*log);
  auto end = active_base(*log);
  offset_map map(1 << 16);
  clean_once(*log, map);
  auto expected = compacted(before, end);
  BOOST_TEST(read_all(*log) == expected, boost::test_tools::per_element());
  BOOST_TEST(log->log_start_offset() == 0); // the first segment stays, empty
  auto from_start = log->read(0, 1 << 20);
  BOOST_REQUIRE(from_start);
  BOOST_TEST(!from_start->empty()); // a fetch at 0 gets the next batch there is
  log.reset();
  BOOST_TEST(read_all(*open_log(dir.path(), false)) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_map_too_small_cleans_in_several_passes_to_the_same_log) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  fill(*log, 11);
  auto before = read_all(*log);
  auto end = active_base(*log);
  offset_map small(24 * 6); // 6 slots, 5 keys: about one batch per pass
  int passes = 0;
  while (log->cleaner_offset() < end) {
    clean_once(*log, small);
    BOOST_REQUIRE(++passes < 100);
  }
  BOOST_TEST(passes > 3);
  BOOST_TEST(read_all(*log) == compacted(before, end), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(tombstones_stay_for_delete_retention_then_go) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  append(*log, keyed_batch({{"a", std::string("1")}, {"b", std::string("1")}}));
  append(*log, keyed_batch({{"a", std::nullopt}, {"c", std::string("1")}}));
  while (log->segment_count() < 3)
    append(*log, keyed_batch({{"c", std::string(300, 'c')}}));
  auto before = read_all(*log);
  auto end = active_base(*log);
  offset_map map(1 << 16);
  clean_once(*log, map);
  auto first = read_all(*log);
  BOOST_TEST(first == compacted(before, end), boost::test_tools::per_element()); // the tombstone of a stays
  // Another clean within delete.retention.ms keeps it; one after it drops it.
  append(*log, keyed_batch({{"c", std::string(2000, 'c')}})); // new dirty data to clean
  append(*log, keyed_batch({{"d", std::string(10, 'd')}}));
  auto retention = compacted_config().delete_retention_ms;
  auto now_before = read_all(*log);
  clean_once(*log, map, now + retention - 1);
  bool has_tombstone = false;
  for (auto& s : read_all(*log))
    has_tombstone |= s.key == "a";
  BOOST_TEST(has_tombstone);
  append(*log, keyed_batch({{"c", std::string(2000, 'c')}}));
  append(*log, keyed_batch({{"e", std::string(10, 'e')}}));
  clean_once(*log, map, now + retention);
  for (auto& s : read_all(*log))
    BOOST_TEST(s.key != "a");
  (void) now_before;
}

BOOST_AUTO_TEST_CASE(records_of_aborted_transactions_go_and_markers_stay) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  auto txn_batch = [&](int64_t pid, const std::string& key, const std::string& value) {
    protocol::batch_options o;
    o.producer_id = pid;
    o.producer_epoch = 0;
    o.base_sequence = 0;
    o.transactional = true;
    protocol::batch_builder b(o);
    b.add(protocol::record{key, value, {}, now});
    return b.build();
  };
  append(*log, keyed_batch({{"k", std::string("committed")}}));
  append(*log, txn_batch(9, "k", "aborted"));
  auto marker = log->append_txn_marker(9, 0, protocol::txn_marker{protocol::control_type::abort, 0}, now, 0);
  BOOST_REQUIRE(marker);
  while (log->segment_count() < 3)
    append(*log, keyed_batch({{"filler", std::string(300, 'f')}}));
  offset_map map(1 << 16);
  clean_once(*log, map);
  auto after = read_all(*log);
  BOOST_REQUIRE(!after.empty());
  BOOST_TEST(after.front().key == "k");
  BOOST_TEST(*after.front().value == "committed"); // the aborted value did not win
  for (auto& s : after)
    BOOST_TEST(s.value.value_or("") != "aborted");
  // The marker is still there, and the producer's last batch as an empty header.
  auto bytes = log->read(0, 1 << 20);
  BOOST_REQUIRE(bytes);
  bool saw_marker = false, saw_empty = false;
  for (size_t pos = 0; pos < bytes->size();) {
    auto h = protocol::read_batch_header(protocol::bytes_view(bytes->data() + pos, bytes->size() - pos));
    BOOST_REQUIRE(h);
    saw_marker |= h->is_control();
    saw_empty |= h->producer_id == 9 && !h->is_control() && h->record_count == 0;
    pos += h->total_size();
  }
  BOOST_TEST(saw_marker);
  BOOST_TEST(saw_empty);
}

BOOST_AUTO_TEST_CASE(a_crash_at_any_step_of_the_swap_leaves_the_log_before_or_after) {
  test::temp_dir root;
  auto pristine = root / "pristine";
  std::vector<stored> before, after;
  std::vector<swap_range> ranges;
  {
    auto log = open_log(pristine);
    fill(*log, 5);
    before = read_all(*log);
    BOOST_REQUIRE(log->close());
  }
  {
    // The outcome of a whole clean, on a copy.
    auto whole = root / "whole";
    fs::copy(pristine, whole);
    auto log = open_log(whole);
    offset_map map(1 << 20);
    clean_once(*log, map);
    after = read_all(*log);
    BOOST_REQUIRE(!(after == before));
  }
  // Step 1 done (cleaned/ written) in a copy: every later state is made from it by hand.
  auto staged = root / "staged";
  fs::copy(pristine, staged);
  {
    auto log = open_log(staged);
    auto job = log->prepare_clean(log->log_end_offset(), now);
    BOOST_REQUIRE(job && *job);
    offset_map map(1 << 20);
    BOOST_REQUIRE((*job)->run(map));
    ranges = (*job)->ranges();
    log.reset(); // as a kill: no close
  }
  auto reopened_reads = [&](const std::string& dir) {
    auto log = open_log(dir, false);
    BOOST_TEST(!fs::exists(clean_stage_dir(dir, clean_stage::cleaned)));
    BOOST_TEST(!fs::exists(clean_stage_dir(dir, clean_stage::swap)));
    BOOST_TEST(!fs::exists(clean_stage_dir(dir, clean_stage::moving)));
    return read_all(*log);
  };
  auto copy_of_staged = [&](const std::string& name) {
    auto dir = root / name;
    fs::copy(staged, dir, fs::copy_options::recursive);
    return dir;
  };
  // The old segments' files in the ranges, in the order a swap renames them.
  auto old_files = [&](const std::string& dir) {
    std::vector<std::string> files;
    for (auto& e : fs::directory_iterator(dir))
      for (auto kind : {segment_file::log, segment_file::index, segment_file::timeindex, segment_file::txnindex})
        if (auto base = parse_segment_file_name(e.path().filename().string(), kind))
          for (auto& r : ranges)
            if (*base >= r.base && *base < r.end)
              files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
  };
  BOOST_REQUIRE(!ranges.empty());
  // After step 1: as before.
  BOOST_TEST(reopened_reads(copy_of_staged("s1")) == before, boost::test_tools::per_element());
  // After step 2, and after each rename of step 3: as after.
  auto count = old_files(staged).size();
  BOOST_REQUIRE(count >= 3 * ranges.size());
  for (size_t renamed = 0; renamed <= count; ++renamed) {
    auto dir = copy_of_staged("s2-" + std::to_string(renamed));
    BOOST_REQUIRE(start_swap(dir));
    auto files = old_files(dir);
    for (size_t k = 0; k < renamed; ++k)
      fs::rename(files[k], files[k] + ".deleted");
    if (renamed == count)
      BOOST_REQUIRE(old_segments_gone(dir));
    BOOST_TEST(reopened_reads(dir) == after, boost::test_tools::per_element());
  }
  // During step 4: after each file moved in.
  std::vector<std::string> moving_files;
  {
    auto probe = copy_of_staged("probe");
    for (auto& e : fs::directory_iterator(clean_stage_dir(probe, clean_stage::cleaned)))
      if (e.path().filename() != "manifest")
        moving_files.push_back(e.path().filename().string());
    std::sort(moving_files.begin(), moving_files.end());
  }
  BOOST_REQUIRE(moving_files.size() >= 3 * ranges.size());
  for (size_t moved = 0; moved <= moving_files.size(); ++moved) {
    auto dir = copy_of_staged("s4-" + std::to_string(moved));
    BOOST_REQUIRE(start_swap(dir));
    for (auto& f : old_files(dir))
      fs::rename(f, f + ".deleted");
    BOOST_REQUIRE(old_segments_gone(dir));
    auto moving = clean_stage_dir(dir, clean_stage::moving);
    for (size_t k = 0; k < moved; ++k)
      fs::rename(moving + '/' + moving_files[k], dir + '/' + moving_files[k]);
    BOOST_TEST(reopened_reads(dir) == after, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(a_clean_is_dropped_when_the_log_changed_meanwhile) {
  test::temp_dir dir;
  auto log = open_log(dir.path());
  fill(*log);
  auto before = read_all(*log);
  auto job = log->prepare_clean(log->log_end_offset(), now);
  BOOST_REQUIRE(job && *job);
  offset_map map(1 << 20);
  BOOST_REQUIRE((*job)->run(map));
  // A follower truncation into the cleaned range (an unclean election) meanwhile; the batch
  // holding the offset goes whole.
  auto cut = log->segment_base_offsets()[1];
  BOOST_REQUIRE(log->truncate_to(cut + 1));
  auto done = log->complete_clean(**job);
  BOOST_REQUIRE(done);
  BOOST_TEST(!done->swapped);
  std::vector<stored> kept;
  for (auto& s : before)
    if (s.offset < cut)
      kept.push_back(s);
  BOOST_TEST(read_all(*log) == kept, boost::test_tools::per_element());
  BOOST_TEST(log->cleaner_offset() == -1);
}

BOOST_AUTO_TEST_SUITE_END()
