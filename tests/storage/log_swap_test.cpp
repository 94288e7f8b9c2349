// Replacing a partition folder by a rewritten copy (storage/log_swap.hpp): a log created at
// a base offset continues there, a swap puts the copy in place, and every state a crash can
// leave is repaired to one complete log.
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "storage/log_swap.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;
namespace fs = std::filesystem;

namespace {

constexpr int64_t now = 1'700'000'000'000;

// A log in `dir` holding `batches` batches of one record, each tagged with `tag`.
int64_t write_log(const std::string& dir, int batches, uint32_t tag, int64_t base = 0) {
  auto log = create_log_at(dir, log_config{}, base, now);
  BOOST_REQUIRE(log);
  for (int i = 0; i < batches; ++i) {
    auto b = test::make_batch(1, 10, now, tag);
    BOOST_REQUIRE((*log)->append(b, now));
  }
  auto end = (*log)->log_end_offset();
  BOOST_REQUIRE((*log)->close());
  return end;
}

// The tag of the first batch of the log in `dir`, and its offsets.
struct log_view {
  uint32_t tag = 0;
  int64_t start = 0;
  int64_t end = 0;
};
log_view read_log(const std::string& dir) {
  auto log = partition_log::open(dir, log_config{}, 0, false, now);
  BOOST_REQUIRE(log);
  log_view v{0, (*log)->log_start_offset(), (*log)->log_end_offset()};
  auto bytes = (*log)->read(v.start, 1 << 20);
  BOOST_REQUIRE(bytes);
  if (!bytes->empty())
    v.tag = test::batch_tag(bytes->data(), bytes->size());
  BOOST_REQUIRE((*log)->close());
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(log_swap)

BOOST_AUTO_TEST_CASE(a_log_created_at_a_base_offset_continues_there) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  BOOST_TEST(write_log(dir, 3, 7, 1000) == 1003);
  auto v = read_log(dir);
  BOOST_TEST(v.start == 1000);
  BOOST_TEST(v.end == 1003);
  BOOST_TEST(v.tag == 7u);
}

BOOST_AUTO_TEST_CASE(swap_in_puts_the_copy_in_place_and_finish_removes_the_old_log) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  auto end = write_log(dir, 10, 1);
  write_log(cleaned_path(dir), 2, 2, end);
  BOOST_REQUIRE(swap_in(dir));
  BOOST_TEST(fs::exists(deleted_path(dir)));
  BOOST_TEST(!fs::exists(cleaned_path(dir)));
  BOOST_REQUIRE(finish_swap(dir));
  BOOST_TEST(!fs::exists(deleted_path(dir)));
  auto v = read_log(dir);
  BOOST_TEST(v.tag == 2u);
  BOOST_TEST(v.start == 10);
  BOOST_TEST(v.end == 12);
}

BOOST_AUTO_TEST_CASE(a_copy_beside_the_log_is_rolled_back) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  write_log(dir, 5, 1);
  write_log(cleaned_path(dir), 1, 2, 5);
  auto r = repair_interrupted_swap(dir);
  BOOST_REQUIRE(r);
  BOOST_TEST((*r == swap_repair::rolled_back));
  BOOST_TEST(!fs::exists(cleaned_path(dir)));
  BOOST_TEST(read_log(dir).tag == 1u);
}

BOOST_AUTO_TEST_CASE(a_crash_between_the_renames_is_finished) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  write_log(deleted_path(dir), 5, 1);
  write_log(cleaned_path(dir), 1, 2, 5);
  auto r = repair_interrupted_swap(dir);
  BOOST_REQUIRE(r);
  BOOST_TEST((*r == swap_repair::finished));
  BOOST_TEST(!fs::exists(cleaned_path(dir)));
  BOOST_TEST(!fs::exists(deleted_path(dir)));
  BOOST_TEST(read_log(dir).tag == 2u);
}

BOOST_AUTO_TEST_CASE(a_crash_before_the_old_log_was_removed_is_finished) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  write_log(deleted_path(dir), 5, 1);
  write_log(dir, 1, 2, 5);
  auto r = repair_interrupted_swap(dir);
  BOOST_REQUIRE(r);
  BOOST_TEST((*r == swap_repair::finished));
  BOOST_TEST(!fs::exists(deleted_path(dir)));
  BOOST_TEST(read_log(dir).tag == 2u);
}

BOOST_AUTO_TEST_CASE(a_lone_old_log_is_put_back) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  write_log(deleted_path(dir), 5, 1);
  auto r = repair_interrupted_swap(dir);
  BOOST_REQUIRE(r);
  BOOST_TEST((*r == swap_repair::rolled_back));
  BOOST_TEST(read_log(dir).tag == 1u);
}

BOOST_AUTO_TEST_CASE(nothing_to_repair) {
  test::temp_dir tmp;
  auto dir = tmp / "t-0";
  write_log(dir, 1, 1);
  auto r = repair_interrupted_swap(dir);
  BOOST_REQUIRE(r);
  BOOST_TEST((*r == swap_repair::none));
  BOOST_TEST(read_log(dir).tag == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
