#include <boost/test/unit_test.hpp>

#include "protocol/crc32.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

BOOST_AUTO_TEST_SUITE(crc32_suite)

BOOST_AUTO_TEST_CASE(check_value_of_123456789_is_cbf43926) {
  BOOST_TEST(crc32("123456789", 9) == 0xCBF43926u);
}

BOOST_AUTO_TEST_CASE(known_values_match_zlib) {
  BOOST_TEST(crc32("", 0) == 0u);
  BOOST_TEST(crc32("a", 1) == 0xE8B7BE43u);
  BOOST_TEST(crc32("The quick brown fox jumps over the lazy dog", 43) == 0x414FA339u);
}

BOOST_AUTO_TEST_CASE(continuing_over_split_buffers_equals_one_shot) {
  auto data = random_bytes(5000);
  uint32_t whole = crc32(data.data(), data.size());
  for (size_t cut : {0u, 1u, 17u, 2500u, 4999u, 5000u})
    BOOST_TEST(crc32(data.data() + cut, data.size() - cut, crc32(data.data(), cut)) == whole);
}

BOOST_AUTO_TEST_SUITE_END()
