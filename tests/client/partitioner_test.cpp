#include "client/partitioner.hpp"

#include <set>
#include <string>

#include <boost/test/unit_test.hpp>

using namespace cafka::client;

BOOST_AUTO_TEST_SUITE(partitioner)

// Kafka's UtilsTest.testMurmur2 (the first six), the empty key (as pinned by other
// Kafka-compatible clients), and librdkafka's Java-compatible rdmurmur2 vectors.
BOOST_AUTO_TEST_CASE(murmur2_matches_kafka) {
  BOOST_TEST(murmur2("21") == -973932308);
  BOOST_TEST(murmur2("foobar") == -790332482);
  BOOST_TEST(murmur2("a-little-bit-long-string") == -985981536);
  BOOST_TEST(murmur2("a-little-bit-longer-string") == -1486304829);
  BOOST_TEST(murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971);
  BOOST_TEST(murmur2("abc") == 479470107);
  BOOST_TEST(murmur2("") == 275646681);
  BOOST_TEST(murmur2("kafka") == -798503068);
  BOOST_TEST(murmur2("giberish123456789") == -1890243828);
  BOOST_TEST(murmur2("1234") == -1614185708);
  BOOST_TEST(murmur2("234") == -406844982);
  BOOST_TEST(murmur2("34") == -2026295078);
}

BOOST_AUTO_TEST_CASE(bytes_above_127_are_unsigned) {
  // Java masks each byte with 0xff; a signed-char bug would change these.
  std::string high{"\xff\xfe\x80\x81\x7f", 5};
  BOOST_TEST(murmur2(high) == murmur2(std::string{"\xff\xfe\x80\x81\x7f", 5}));
  BOOST_TEST(murmur2(high) != murmur2(std::string{"\x7f\x7e\x00\x01\x7f", 5}));
}

BOOST_AUTO_TEST_CASE(to_positive_clears_the_sign_bit) {
  BOOST_TEST(to_positive(-1) == 0x7fffffff);
  BOOST_TEST(to_positive(INT32_MIN) == 0);
  BOOST_TEST(to_positive(5) == 5);
}

BOOST_AUTO_TEST_CASE(partition_for_key_matches_kafka) {
  // toPositive(-790332482) = 1357151166; % 50 = 16 (also pinned by other clients).
  BOOST_TEST(partition_for_key("foobar", 50) == 16);
  BOOST_TEST(partition_for_key("21", 4) == (to_positive(-973932308) % 4));
  for (int i = 0; i < 1000; ++i) {
    auto p = partition_for_key("key-" + std::to_string(i), 7);
    BOOST_TEST((p >= 0 && p < 7));
  }
}

BOOST_AUTO_TEST_CASE(sticky_partition_stays_until_a_new_batch) {
  sticky_partitioner sp{42};
  auto first = sp.partition("t", 4);
  for (int i = 0; i < 100; ++i)
    BOOST_TEST(sp.partition("t", 4) == first);
  sp.on_new_batch("t", first, 4);
  auto second = sp.partition("t", 4);
  BOOST_TEST(second != first);
  // A stale notification (for a partition no longer current) changes nothing.
  sp.on_new_batch("t", first, 4);
  BOOST_TEST(sp.partition("t", 4) == second);
}

BOOST_AUTO_TEST_CASE(sticky_partition_visits_every_partition) {
  sticky_partitioner sp{7};
  std::set<int32_t> seen;
  for (int i = 0; i < 200; ++i) {
    auto p = sp.partition("t", 5);
    BOOST_TEST((p >= 0 && p < 5));
    seen.insert(p);
    sp.on_new_batch("t", p, 5);
  }
  BOOST_TEST(seen.size() == 5u);
}

BOOST_AUTO_TEST_CASE(sticky_is_per_topic_and_single_partition_is_zero) {
  sticky_partitioner sp{1};
  BOOST_TEST(sp.partition("one", 1) == 0);
  sp.on_new_batch("one", 0, 1);
  BOOST_TEST(sp.partition("one", 1) == 0);
  auto a = sp.partition("a", 8);
  sp.on_new_batch("b", a, 8); // another topic: no effect on "a"
  BOOST_TEST(sp.partition("a", 8) == a);
}

BOOST_AUTO_TEST_SUITE_END()
