// The partition of __consumer_offsets for a group: Java's String.hashCode over UTF-16 code
// units, Kafka's Utils.abs, modulo the partition count. Expected hashes are Java's.
#include "cluster/offsets_partition.hpp"

#include <limits>

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(offsets_partition)

BOOST_AUTO_TEST_CASE(java_hash_codes_of_ascii_strings) {
  BOOST_TEST(java_string_hash_code("") == 0);
  BOOST_TEST(java_string_hash_code("a") == 97);
  BOOST_TEST(java_string_hash_code("ab") == 97 * 31 + 98);
  BOOST_TEST(java_string_hash_code("my-group") == -1906497762); // wraps past INT_MAX
  BOOST_TEST(java_string_hash_code("console-consumer-12345") == 158455506);
}

BOOST_AUTO_TEST_CASE(non_ascii_groups_hash_their_utf16_code_units) {
  // ü is one code unit (U+00FC) though two UTF-8 bytes.
  BOOST_TEST(java_string_hash_code("gr\xc3\xbcppe") == -1233264812);
  // U+1F600 is the surrogate pair D83D DE00: 103 * 31^2 + 0xD83D * 31 + 0xDE00.
  BOOST_TEST(java_string_hash_code("g\xf0\x9f\x98\x80") == 1871882);
  // ä (2 bytes), € (3 bytes), U+1D11E (4 bytes, a surrogate pair).
  BOOST_TEST(java_string_hash_code("Gruppe-\xc3\xa4\xe2\x82\xac\xf0\x9d\x84\x9e") == 511126244);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_counts_as_the_replacement_character) {
  BOOST_TEST(java_string_hash_code("a\xff") == 97 * 31 + 0xFFFD);
  // A truncated 3-byte sequence is one U+FFFD; the byte after it starts anew.
  BOOST_TEST(java_string_hash_code("\xe2\x82" "a") == 0xFFFD * 31 + 97);
}

BOOST_AUTO_TEST_CASE(kafka_abs_maps_int_min_to_zero) {
  constexpr auto int_min = std::numeric_limits<int32_t>::min();
  BOOST_TEST(kafka_abs(int_min) == 0);
  BOOST_TEST(kafka_abs(-5) == 5);
  BOOST_TEST(kafka_abs(7) == 7);
  BOOST_TEST(kafka_abs(std::numeric_limits<int32_t>::max()) == std::numeric_limits<int32_t>::max());
  // A group whose hash is INT_MIN goes to partition 0, not to a negative partition.
  BOOST_TEST(java_string_hash_code("polygenelubricants") == int_min);
  BOOST_TEST(offsets_partition_for("polygenelubricants", 50) == 0);
  BOOST_TEST(offsets_partition_for("polygenelubricants", 7) == 0);
}

BOOST_AUTO_TEST_CASE(partition_is_abs_hash_modulo_the_count) {
  BOOST_TEST(offsets_partition_for("", 50) == 0);
  BOOST_TEST(offsets_partition_for("a", 50) == 47);
  BOOST_TEST(offsets_partition_for("my-group", 50) == 12); // 1906497762 % 50
  BOOST_TEST(offsets_partition_for("my-group", 7) == 1906497762 % 7);
  BOOST_TEST(offsets_partition_for("g\xf0\x9f\x98\x80", 50) == 32);
  BOOST_TEST(offsets_partition_for("console-consumer-12345", 50) == 6);
  BOOST_TEST(offsets_partition_for("my-group", 1) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
