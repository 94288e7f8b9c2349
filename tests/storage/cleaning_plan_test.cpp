// cleanable_range_of and group_segments: what the cleaner may clean, and in which groups.
#include <boost/test/unit_test.hpp>

#include "storage/cleaning_plan.hpp"

using namespace cafka::storage;

namespace {

// Segments at 0, 100, 200, 300 (active), 1000 bytes each; batch timestamps 10x the offsets.
cleaning_inputs four_segments() {
  cleaning_inputs in;
  for (int64_t base : {0, 100, 200, 300})
    in.segments.push_back({base, 1000, base * 10 + 990, base * 10});
  in.log_end_offset = 350;
  in.last_stable_offset = 350;
  in.now_ms = 100000;
  return in;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cleaning_plan)

BOOST_AUTO_TEST_CASE(everything_below_the_active_segment_is_dirty_without_a_checkpoint) {
  auto r = cleanable_range_of(four_segments());
  BOOST_TEST(r.first_dirty == 0);
  BOOST_TEST(r.first_uncleanable == 300);
  BOOST_TEST(r.clean_bytes == 0u);
  BOOST_TEST(r.dirty_bytes == 3000u);
  BOOST_TEST(r.dirty_ratio() == 1.0);
  BOOST_TEST(r.due(0.5));
}

BOOST_AUTO_TEST_CASE(the_checkpoint_splits_clean_from_dirty) {
  auto in = four_segments();
  in.checkpoint = 200;
  auto r = cleanable_range_of(in);
  BOOST_TEST(r.first_dirty == 200);
  BOOST_TEST(r.clean_bytes == 2000u);
  BOOST_TEST(r.dirty_bytes == 1000u);
  BOOST_TEST(!r.due(0.5)); // a third dirty
  BOOST_TEST(r.due(0.3));
  // A checkpoint outside the log (a truncated or replaced log) starts over at the log start.
  in.checkpoint = 400;
  BOOST_TEST(cleanable_range_of(in).first_dirty == 0);
  in.log_start_offset = 50;
  in.checkpoint = 20;
  BOOST_TEST(cleanable_range_of(in).first_dirty == 50);
}

BOOST_AUTO_TEST_CASE(an_open_transaction_and_the_compaction_lag_hold_the_cleaner_back) {
  auto in = four_segments();
  in.last_stable_offset = 150; // inside segment 100: only segment 0 is cleanable
  BOOST_TEST(cleanable_range_of(in).first_uncleanable == 100);
  in.last_stable_offset = 350;
  in.min_compaction_lag_ms = 100000 - 2000; // segment 200's records (up to 2990) are too new
  BOOST_TEST(cleanable_range_of(in).first_uncleanable == 200);
  in.min_compaction_lag_ms = 100000; // every segment is too new
  auto r = cleanable_range_of(in);
  BOOST_TEST(r.first_uncleanable == 0);
  BOOST_TEST(!r.due(0.0));
}

BOOST_AUTO_TEST_CASE(a_dirty_segment_older_than_the_max_lag_makes_the_log_due) {
  auto in = four_segments();
  in.checkpoint = 200;
  in.max_compaction_lag_ms = 100000 - 3000; // segment 200's first batch (at 2000) is older than 3000
  auto r = cleanable_range_of(in);
  BOOST_TEST(r.overdue);
  BOOST_TEST(r.due(0.9));
  in.max_compaction_lag_ms = 100000 - 1000;
  BOOST_TEST(!cleanable_range_of(in).overdue);
}

BOOST_AUTO_TEST_CASE(groups_stay_within_segment_bytes) {
  std::vector<segment_summary> segs{{0, 400}, {10, 400}, {20, 300}, {30, 900}, {40, 2000}, {50, 100}};
  auto groups = group_segments(segs, 60, 1000);
  std::vector<std::pair<size_t, size_t>> expected{{0, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}};
  BOOST_TEST(groups.size() == expected.size());
  for (size_t i = 0; i < std::min(groups.size(), expected.size()); ++i) {
    BOOST_TEST(groups[i].first == expected[i].first);
    BOOST_TEST(groups[i].second == expected[i].second);
  }
}

BOOST_AUTO_TEST_CASE(groups_span_at_most_int32_offsets) {
  int64_t big = int64_t{1} << 31;
  std::vector<segment_summary> segs{{0, 1}, {big / 2, 1}, {big, 1}};
  auto groups = group_segments(segs, big + 10, 1 << 30);
  BOOST_TEST(groups.size() == 2u);
  BOOST_TEST(groups[0].second == 2u); // 0 .. big-1 fits
}

BOOST_AUTO_TEST_SUITE_END()
