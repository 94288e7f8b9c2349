// offset_map: the cleaner's fixed-memory key -> latest offset map.
#include <boost/test/unit_test.hpp>

#include <string>

#include "storage/offset_map.hpp"

using namespace cafka::storage;

BOOST_AUTO_TEST_SUITE(offset_map_suite)

BOOST_AUTO_TEST_CASE(the_last_put_of_a_key_wins) {
  offset_map m(1 << 16);
  BOOST_TEST(m.get("a") == -1);
  BOOST_TEST(m.put("a", 1));
  BOOST_TEST(m.put("b", 2));
  BOOST_TEST(m.put("a", 3));
  BOOST_TEST(m.get("a") == 3);
  BOOST_TEST(m.get("b") == 2);
  BOOST_TEST(m.get("") == -1);
  BOOST_TEST(m.put("", 4)); // the empty key is a key
  BOOST_TEST(m.get("") == 4);
  BOOST_TEST(m.size() == 3u);
  m.clear();
  BOOST_TEST(m.size() == 0u);
  BOOST_TEST(m.get("a") == -1);
}

BOOST_AUTO_TEST_CASE(its_memory_stays_within_the_budget_and_a_full_map_refuses_new_keys) {
  const size_t budget = 24 * 1000;
  offset_map m(budget, 0.9);
  BOOST_TEST(m.memory_bytes() <= budget);
  BOOST_TEST(m.slots() == 1000u);
  BOOST_TEST(m.capacity() == 900u);
  size_t i = 0;
  while (m.put("key-" + std::to_string(i), static_cast<int64_t>(i)))
    ++i;
  BOOST_TEST(i == 900u);
  BOOST_TEST(m.full());
  // Known keys still move; every one kept its latest offset.
  BOOST_TEST(m.put("key-5", 5000));
  BOOST_TEST(m.get("key-5") == 5000);
  for (size_t k = 0; k < 900; ++k)
    if (k != 5)
      BOOST_TEST(m.get("key-" + std::to_string(k)) == static_cast<int64_t>(k));
  BOOST_TEST(m.get("key-900") == -1);
}

BOOST_AUTO_TEST_CASE(murmur3_matches_its_reference_values) {
  // MurmurHash3_x64_128, seed 0 (the reference implementation's output, as two
  // little-endian 64-bit words).
  auto empty = hash_key("");
  BOOST_TEST(empty.low == 0u);
  BOOST_TEST(empty.high == 0u);
  auto hello = hash_key("hello");
  BOOST_TEST(hello.low == 0xcbd8a7b341bd9b02ULL);
  BOOST_TEST(hello.high == 0x5b1e906a48ae1d19ULL);
  auto fox = hash_key("The quick brown fox jumps over the lazy dog"); // whole blocks and a tail
  BOOST_TEST(fox.low == 0xe34bbc7bbc071b6cULL);
  BOOST_TEST(fox.high == 0x7a433ca9c49a9347ULL);
}

BOOST_AUTO_TEST_SUITE_END()
