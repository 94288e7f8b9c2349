// DescribeLogDirs' answer (storage/log_dirs_report.hpp): every log dir in order, the
// partitions asked for in the dir that holds them, sorted, with sizes and lags; an offline
// dir as KAFKA_STORAGE_ERROR with nothing listed.
#include <boost/test/unit_test.hpp>

#include "storage/log_dirs_report.hpp"

using namespace cafka::storage;
namespace wire = cafka::wire;

BOOST_AUTO_TEST_SUITE(log_dirs_report_suite)

BOOST_AUTO_TEST_CASE(lists_each_dirs_partitions_and_marks_offline_dirs) {
  std::vector<log_dir_state> dirs{{"/a", false}, {"/b", false}, {"/c", true}};
  std::vector<replica_on_disk> replicas{{1, {"t", 1}, 300, 10, 12}, {0, {"t", 0}, 100, 5, 5},
                                        {1, {"s", 0}, 50, 7, 3}, {2, {"u", 0}, 9, 1, 1}};
  auto all = log_dirs_report(dirs, replicas, {});
  BOOST_REQUIRE_EQUAL(all.results.size(), 3u);
  BOOST_TEST(all.results[0].log_dir == "/a");
  BOOST_TEST(all.results[0].topics.at(0).partitions.at(0).partition_size == 100);
  auto& b = all.results[1];
  BOOST_REQUIRE_EQUAL(b.topics.size(), 2u);
  BOOST_TEST(b.topics[0].name == "s");                               // by name
  BOOST_TEST(b.topics[0].partitions[0].offset_lag == 0);             // log end above the high watermark
  BOOST_TEST(b.topics[1].partitions[0].offset_lag == 2);             // 12 - 10
  BOOST_TEST(all.results[2].error_code == 56);
  BOOST_TEST(all.results[2].topics.empty());
  wire::describe_log_dirs_request only;
  only.topics = std::vector<wire::log_dirs_topic>{{"t", {1}}};
  auto some = log_dirs_report(dirs, replicas, only);
  BOOST_TEST(some.results[0].topics.empty());
  BOOST_REQUIRE_EQUAL(some.results[1].topics.size(), 1u);
  BOOST_TEST(some.results[1].topics[0].partitions.at(0).partition_index == 1);
}

BOOST_AUTO_TEST_SUITE_END()
