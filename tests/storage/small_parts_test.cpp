// Segment names, topic-partition folder names, checkpoints and retention decisions.
#include <boost/test/unit_test.hpp>

#include "storage/checkpoint_file.hpp"
#include "storage/errc.hpp"
#include "storage/retention.hpp"
#include "storage/segment_name.hpp"
#include "storage/topic_partition.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;

BOOST_AUTO_TEST_SUITE(segment_names)

BOOST_AUTO_TEST_CASE(are_twenty_digits_and_a_suffix) {
  BOOST_TEST(segment_file_path("/d", 368769, segment_file::log) == "/d/00000000000000368769.log");
  BOOST_TEST(segment_file_path("/d", 0, segment_file::index) == "/d/00000000000000000000.index");
  BOOST_TEST(segment_file_path("/d", 7, segment_file::timeindex) == "/d/00000000000000000007.timeindex");
}

BOOST_AUTO_TEST_CASE(parse_back_and_reject_other_names) {
  BOOST_TEST(*parse_segment_file_name("00000000000000368769.log", segment_file::log) == 368769);
  BOOST_TEST(!parse_segment_file_name("00000000000000368769.index", segment_file::log));
  BOOST_TEST(!parse_segment_file_name("0000000000000036876.log", segment_file::log));
  BOOST_TEST(!parse_segment_file_name("0000000000000036876x.log", segment_file::log));
  BOOST_TEST(!parse_segment_file_name("99999999999999999999.log", segment_file::log)); // > int64
  BOOST_TEST(!parse_segment_file_name(".lock", segment_file::log));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(partition_folders)

BOOST_AUTO_TEST_CASE(split_at_the_last_dash) {
  auto tp = parse_partition_dir_name("my-topic-12");
  BOOST_REQUIRE(tp);
  BOOST_TEST(tp->topic == "my-topic");
  BOOST_TEST(tp->partition == 12);
  BOOST_TEST(partition_dir_name(*tp) == "my-topic-12");
  BOOST_TEST(!parse_partition_dir_name("nodash"));
  BOOST_TEST(!parse_partition_dir_name("topic-"));
  BOOST_TEST(!parse_partition_dir_name("topic-x1"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(checkpoints)

BOOST_AUTO_TEST_CASE(round_trip_in_kafka_format) {
  offset_checkpoint cp{{{"orders", 0}, 1500}, {{"orders", 1}, 1320}};
  auto text = format_checkpoint(cp);
  BOOST_TEST(text == "0\n2\norders 0 1500\norders 1 1320\n");
  auto back = parse_checkpoint(text);
  BOOST_REQUIRE(back);
  BOOST_TEST((*back == cp));
}

BOOST_AUTO_TEST_CASE(reject_damaged_text) {
  for (auto bad : {"", "1\n0\n", "0\n2\norders 0 1500\n", "0\n1\norders x 1\n",
                   "0\n1\norders 0 -5\n", "0\n1\norders 0 5\nextra\n"})
    BOOST_TEST((parse_checkpoint(bad).error() == errc::corrupt_checkpoint), bad);
}

BOOST_AUTO_TEST_CASE(missing_file_is_empty) {
  test::temp_dir dir;
  auto cp = read_checkpoint_file(dir / "nothing");
  BOOST_REQUIRE(cp);
  BOOST_TEST(cp->empty());
  BOOST_REQUIRE(write_checkpoint_file(dir / "cp", {{{"t", 3}, 9}}));
  BOOST_TEST(read_checkpoint_file(dir / "cp")->at({"t", 3}) == 9);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retention_decisions)

std::vector<segment_summary> three_segments() {
  // base, size, newest timestamp; the last one is active.
  return {{0, 100, 1000}, {10, 100, 2000}, {20, 100, 3000}};
}

BOOST_AUTO_TEST_CASE(time_deletes_segments_whose_newest_record_is_too_old) {
  auto d = select_expired_segments(three_segments(), {1500, -1}, 3600);
  BOOST_TEST(d.by_time == 2u); // 3600-1000 and 3600-2000 > 1500; active is kept anyway
  BOOST_TEST(d.by_size == 0u);
  BOOST_TEST(select_expired_segments(three_segments(), {1500, -1}, 3000).by_time == 1u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, -1}, 1000000).total() == 0u);
}

BOOST_AUTO_TEST_CASE(time_stops_at_the_first_young_segment) {
  std::vector<segment_summary> s{{0, 100, 5000}, {10, 100, 1000}, {20, 100, 6000}};
  BOOST_TEST(select_expired_segments(s, {1500, -1}, 6000).by_time == 0u);
}

BOOST_AUTO_TEST_CASE(never_deletes_the_active_segment) {
  BOOST_TEST(select_expired_segments(three_segments(), {0, -1}, 1000000).by_time == 2u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 0}, 0).by_size == 2u);
  BOOST_TEST(select_expired_segments({{0, 100, 0}}, {0, 0}, 1000000).total() == 0u);
}

BOOST_AUTO_TEST_CASE(size_deletes_oldest_while_the_rest_stays_above_the_limit) {
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 300}, 0).by_size == 0u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 250}, 0).by_size == 0u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 200}, 0).by_size == 1u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 150}, 0).by_size == 1u);
  BOOST_TEST(select_expired_segments(three_segments(), {-1, 100}, 0).by_size == 2u);
}

BOOST_AUTO_TEST_CASE(size_counts_what_time_left) {
  auto d = select_expired_segments(three_segments(), {2500, 100}, 3600);
  BOOST_TEST(d.by_time == 1u);
  BOOST_TEST(d.by_size == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
