// Opening a log after crashes: torn tails, corrupt batches, lost or damaged indexes,
// clean shutdowns, and the lock on log.dirs.
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "storage/errc.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
using test::make_batch;

namespace {

constexpr int64_t now = 1000;

std::unique_ptr<partition_log> reopen(const std::string& dir, int64_t recovery_point = 0,
                                      bool clean = false) {
  auto log = partition_log::open(dir, test::small_log_config(), recovery_point, clean, now);
  BOOST_REQUIRE_MESSAGE(log, log.error().message());
  return std::move(*log);
}

// Writes `batches` batches of 2 records (tags 0..n-1) into a fresh log, without a clean
// close (the object is dropped as a killed process would leave it); returns the size of
// each batch.
std::vector<size_t> write_log(const std::string& dir, int batches, size_t value_size = 200) {
  auto log = reopen(dir);
  std::vector<size_t> sizes;
  for (int i = 0; i < batches; ++i) {
    auto b = make_batch(2, value_size, now + i, static_cast<uint32_t>(i));
    sizes.push_back(b.size());
    BOOST_REQUIRE(log->append(b, now));
  }
  return sizes;
}

// Every batch in the log has the tag of its position, and appends continue densely.
void check_log_holds(partition_log& log, int batches) {
  BOOST_REQUIRE_EQUAL(log.log_end_offset(), 2 * batches);
  for (int i = 0; i < batches; ++i) {
    auto read = log.read(2 * i, 1);
    BOOST_REQUIRE(read);
    BOOST_REQUIRE(!read->empty());
    BOOST_TEST(test::batch_tag(read->data(), read->size()) == static_cast<uint32_t>(i));
  }
  auto next = make_batch(2, 10, now, 4242);
  auto info = log.append(next, now);
  BOOST_REQUIRE(info);
  BOOST_TEST(info->first_offset == 2 * batches);
  auto read = log.read(2 * batches, 1);
  BOOST_TEST(test::batch_tag(read->data(), read->size()) == 4242u);
}

} // namespace

BOOST_AUTO_TEST_SUITE(recovery)

BOOST_AUTO_TEST_CASE(a_torn_tail_is_cut_at_the_last_whole_batch_for_every_cut_point) {
  test::temp_dir dir;
  auto sizes = write_log(dir.path(), 5); // one segment
  auto log_path = segment_file_path(dir.path(), 0, segment_file::log);
  auto full = test::file_size(log_path);
  auto last_start = full - sizes.back();
  auto pristine = dir / "pristine";
  std::filesystem::copy_file(log_path, pristine);
  for (uint64_t cut = last_start; cut < full; ++cut) {
    std::filesystem::copy_file(pristine, log_path, std::filesystem::copy_options::overwrite_existing);
    test::cut_file(log_path, cut);
    auto log = reopen(dir.path());
    BOOST_TEST(log->recovery().truncated_bytes == cut - last_start);
    check_log_holds(*log, 4);
  }
}

BOOST_AUTO_TEST_CASE(a_corrupt_batch_in_the_middle_ends_the_log_before_it) {
  test::temp_dir dir;
  auto sizes = write_log(dir.path(), 7);
  auto log_path = segment_file_path(dir.path(), 0, segment_file::log);
  uint64_t third = sizes[0] + sizes[1] + sizes[2];
  auto pristine = dir / "pristine";
  std::filesystem::copy_file(log_path, pristine);
  // Flip every byte position of the fourth batch in turn (header, CRC, records).
  for (uint64_t pos = third; pos < third + sizes[3]; pos += 1) {
    std::filesystem::copy_file(pristine, log_path, std::filesystem::copy_options::overwrite_existing);
    test::flip_byte(log_path, pos);
    auto log = reopen(dir.path());
    // A flip in base offset or leader epoch is outside the CRC: offsets still must grow,
    // so a changed base offset is also caught; a changed leader epoch is harmless.
    bool epoch_byte = pos >= third + 12 && pos < third + 16;
    if (epoch_byte) {
      BOOST_TEST(log->log_end_offset() == 14);
      continue;
    }
    BOOST_TEST(log->log_end_offset() == 6, "flipped byte " << pos - third);
    check_log_holds(*log, 3);
  }
}

BOOST_AUTO_TEST_CASE(damage_in_a_sealed_segment_drops_the_segments_after_it) {
  test::temp_dir dir;
  write_log(dir.path(), 60, 400); // several segments of 16 KiB
  auto log = reopen(dir.path());
  auto bases = log->segment_base_offsets();
  log.reset();
  BOOST_REQUIRE(bases.size() >= 4);
  auto victim = segment_file_path(dir.path(), bases[1], segment_file::log);
  test::flip_byte(victim, test::file_size(victim) - 3); // inside its last batch
  auto recovered = reopen(dir.path());
  BOOST_TEST(recovered->recovery().deleted_segments == bases.size() - 2);
  BOOST_TEST(recovered->segment_count() == 2u);
  BOOST_TEST(recovered->log_end_offset() < bases[2]);
  check_log_holds(*recovered, static_cast<int>(recovered->log_end_offset() / 2));
}

BOOST_AUTO_TEST_CASE(trusts_segments_below_the_recovery_point) {
  test::temp_dir dir;
  write_log(dir.path(), 60, 400);
  auto bases = reopen(dir.path())->segment_base_offsets();
  BOOST_REQUIRE(bases.size() >= 4);
  auto log = reopen(dir.path(), bases[2]);
  // Segments 0 and 1 end below the recovery point: only the rest is scanned.
  BOOST_TEST(log->recovery().recovered_segments == bases.size() - 2);
  auto from_zero = reopen(dir.path(), 0);
  BOOST_TEST(from_zero->recovery().recovered_segments == bases.size());
}

BOOST_AUTO_TEST_CASE(a_clean_shutdown_scans_nothing) {
  test::temp_dir dir;
  write_log(dir.path(), 60, 400);
  {
    auto log = reopen(dir.path());
    BOOST_REQUIRE(log->close());
  }
  auto log = reopen(dir.path(), 120, true);
  BOOST_TEST(log->recovery().recovered_segments == 0u);
  check_log_holds(*log, 60);
}

BOOST_AUTO_TEST_CASE(damage_in_trusted_data_is_never_served) {
  test::temp_dir dir;
  auto sizes = write_log(dir.path(), 5);
  {
    auto log = reopen(dir.path());
    BOOST_REQUIRE(log->close());
  }
  auto log_path = segment_file_path(dir.path(), 0, segment_file::log);
  uint64_t third = sizes[0] + sizes[1] + sizes[2];
  test::flip_byte(log_path, third + sizes[3] - 1); // inside the fourth batch
  auto log = reopen(dir.path(), 10, true);          // clean: nothing is scanned
  auto from_start = log->read(0, 1 << 20);
  BOOST_REQUIRE(from_start);
  BOOST_TEST(from_start->size() == third); // stops before the damaged batch
  BOOST_TEST((log->read(6, 1 << 20).error() == errc::corrupt_batch));
  BOOST_TEST((log->read(7, 1).error() == errc::corrupt_batch));
}

BOOST_AUTO_TEST_CASE(missing_indexes_are_rebuilt) {
  test::temp_dir dir;
  write_log(dir.path(), 60, 400);
  std::vector<int64_t> bases;
  {
    auto log = reopen(dir.path());
    bases = log->segment_base_offsets();
    BOOST_REQUIRE(log->close());
  }
  auto index = segment_file_path(dir.path(), bases[1], segment_file::index);
  auto timeindex = segment_file_path(dir.path(), bases[2], segment_file::timeindex);
  auto index_size = test::file_size(index);
  BOOST_REQUIRE(index_size > 0);
  std::filesystem::remove(index);
  std::filesystem::remove(timeindex);
  auto log = reopen(dir.path(), 120, true);
  BOOST_TEST(log->recovery().rebuilt_indexes == 2u);
  BOOST_TEST(test::file_size(index) == index_size);
  check_log_holds(*log, 60);
}

BOOST_AUTO_TEST_CASE(corrupt_indexes_are_rebuilt_when_first_used) {
  test::temp_dir dir;
  write_log(dir.path(), 60, 400);
  std::vector<int64_t> bases;
  {
    auto log = reopen(dir.path());
    bases = log->segment_base_offsets();
    BOOST_REQUIRE(log->close());
  }
  auto index = segment_file_path(dir.path(), bases[1], segment_file::index);
  auto good_size = test::file_size(index);
  test::write_bytes(index, std::string(good_size, '\x7f'));       // right size, garbage
  auto other = segment_file_path(dir.path(), bases[2], segment_file::index);
  test::write_bytes(other, std::string(13, '\x01'));               // not whole entries
  auto log = reopen(dir.path(), 120, true);
  check_log_holds(*log, 60);
  BOOST_TEST(test::file_size(index) == good_size);
  BOOST_TEST(test::file_size(other) % 8 == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(log_directories)

BOOST_AUTO_TEST_CASE(are_locked_against_a_second_owner) {
  test::temp_dir dir;
  auto first = log_directory::open(dir.path());
  BOOST_REQUIRE(first);
  auto second = log_directory::open(dir.path());
  BOOST_TEST((second.error() == errc::log_dir_locked));
  first->reset();
  auto third = log_directory::open(dir.path());
  BOOST_TEST(static_cast<bool>(third));
}

BOOST_AUTO_TEST_CASE(are_locked_against_another_process) {
  test::temp_dir dir;
  auto owner = log_directory::open(dir.path());
  BOOST_REQUIRE(owner);
  pid_t child = ::fork();
  if (child == 0) { // the second process: must be refused with log_dir_locked
    auto second = log_directory::open(dir.path());
    ::_exit(!second && second.error() == errc::log_dir_locked ? 0 : 1);
  }
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
}

BOOST_AUTO_TEST_CASE(remember_recovery_points_and_clean_shutdowns) {
  test::temp_dir dir;
  topic_partition tp{"orders", 3};
  {
    auto d = log_directory::open(dir.path());
    BOOST_REQUIRE(d);
    BOOST_TEST(!(*d)->previous_shutdown_was_clean());
    auto log = (*d)->open_log(tp, test::small_log_config(), now);
    BOOST_REQUIRE(log);
    for (int i = 0; i < 10; ++i) {
      auto b = make_batch(2, 100, now, static_cast<uint32_t>(i));
      BOOST_REQUIRE((*log)->append(b, now));
    }
    BOOST_REQUIRE((*log)->close());
    BOOST_REQUIRE((*d)->mark_clean_shutdown({{tp, (*log)->recovery_point()}}));
  }
  {
    auto d = log_directory::open(dir.path());
    BOOST_REQUIRE(d);
    BOOST_TEST((*d)->previous_shutdown_was_clean());
    auto on_disk = (*d)->partitions_on_disk();
    BOOST_TEST((on_disk->size() == 1u && on_disk->front() == tp));
    auto log = (*d)->open_log(tp, test::small_log_config(), now);
    BOOST_REQUIRE(log);
    BOOST_TEST((*log)->recovery().recovered_segments == 0u);
    BOOST_TEST((*log)->recovery_point() == 20);
    check_log_holds(**log, 10);
    // No clean close: the next open is after a crash.
  }
  auto d = log_directory::open(dir.path());
  BOOST_TEST(!(*d)->previous_shutdown_was_clean());
  auto log = (*d)->open_log(tp, test::small_log_config(), now);
  BOOST_TEST((*log)->recovery().recovered_segments == 1u);
  BOOST_TEST((*log)->log_end_offset() == 22);
}

BOOST_AUTO_TEST_CASE(refuse_the_clean_marker_for_logs_never_recovered) {
  test::temp_dir dir;
  topic_partition a{"a", 0}, b{"b", 0};
  {
    auto d = log_directory::open(dir.path());
    BOOST_REQUIRE((*d)->open_log(a, test::small_log_config(), now));
    BOOST_REQUIRE((*d)->open_log(b, test::small_log_config(), now));
  } // crash
  {
    auto d = log_directory::open(dir.path());
    BOOST_REQUIRE((*d)->mark_clean_shutdown({{a, 0}})); // b was never opened
  }
  BOOST_TEST(!(*log_directory::open(dir.path()))->previous_shutdown_was_clean());
}

BOOST_AUTO_TEST_SUITE_END()
