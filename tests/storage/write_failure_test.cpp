// Storage faults (issue 15 point 5): a write that fails half way (here EFBIG from a real
// write(2) under RLIMIT_FSIZE, as ENOSPC does on a full disk) leaves no torn batch, takes the
// log's directory offline (every log of that log_directory refuses appends, reads go on),
// and loses nothing appended before it, also across a reopen.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>

#include <csignal>
#include <string>

#include "storage/errc.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
using test::make_batch;

namespace {

// Files of this process may not grow beyond `bytes` while it lives; write(2) beyond that
// fails with EFBIG (SIGXFSZ ignored), after writing what fits.
struct file_size_limit {
  rlimit saved{};
  void (*old_handler)(int);
  explicit file_size_limit(rlim_t bytes) {
    old_handler = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit limited{bytes, saved.rlim_max};
    BOOST_REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~file_size_limit() {
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
  }
};

std::string first_segment(const std::string& dir) { return segment_file_path(dir, 0, segment_file::log); }

} // namespace

BOOST_AUTO_TEST_SUITE(storage_write_failures)

BOOST_AUTO_TEST_CASE(a_torn_write_is_cut_and_takes_the_log_dir_offline) {
  test::temp_dir root;
  auto dir = log_directory::open(root.path());
  BOOST_REQUIRE(dir);
  auto cfg = log_config{};
  auto a = (*dir)->open_log({"a", 0}, cfg, 1000);
  auto b = (*dir)->open_log({"b", 0}, cfg, 1000);
  BOOST_REQUIRE(a && b);
  auto& log = **a;
  for (uint32_t tag = 1; tag <= 3; ++tag) {
    auto batch = make_batch(10, 100, 1000, tag);
    BOOST_REQUIRE(log.append(batch, 1000));
  }
  auto path = (*dir)->partition_path({"a", 0});
  auto size_before = test::file_size(first_segment(path));
  auto end_before = log.log_end_offset();
  {
    file_size_limit limit{size_before + 500}; // half of the next batch fits
    auto big = make_batch(10, 100, 1000, 4);
    auto failed = log.append(big, 1000);
    BOOST_REQUIRE(!failed);
    BOOST_TEST(failed.error() == std::error_code(EFBIG, std::system_category()), failed.error().message());
  }
  BOOST_TEST(test::file_size(first_segment(path)) == size_before); // no torn batch left
  BOOST_TEST((*dir)->health().offline());
  BOOST_TEST((*dir)->health().reason() == std::error_code(EFBIG, std::system_category()));
  // Every log of the directory refuses writes now, though the disk would take them again.
  auto again = make_batch(1, 10, 1000, 5);
  BOOST_TEST(log.append(again, 1000).error() == make_error_code(errc::log_dir_offline));
  auto other = make_batch(1, 10, 1000, 6);
  BOOST_TEST((*b)->append(other, 1000).error() == make_error_code(errc::log_dir_offline));
  // Reads go on: everything appended before the failure.
  BOOST_TEST(log.log_end_offset() == end_before);
  auto read = log.read(0, 1 << 20);
  BOOST_REQUIRE(read);
  BOOST_TEST(test::batch_tag(read->data(), read->size()) == 1u);
  BOOST_TEST(read->size() == size_before);
  // A restart (here: reopening without a clean close) recovers all of it and cuts nothing.
  a->reset();
  b->reset();
  dir->reset();
  auto reopened = partition_log::open(path, cfg, 0, false, 2000);
  BOOST_REQUIRE(reopened);
  BOOST_TEST((*reopened)->log_end_offset() == end_before);
  BOOST_TEST((*reopened)->recovery().truncated_bytes == 0u);
  auto next = make_batch(1, 10, 2000, 7);
  BOOST_TEST((*reopened)->append(next, 2000).has_value()); // online again after the restart
}

BOOST_AUTO_TEST_SUITE_END()
