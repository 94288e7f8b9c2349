#include <boost/test/unit_test.hpp>

#include <cstring>

#include <lz4frame.h>

#include "protocol/endian.hpp"
#include "protocol/xxhash32.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

/// The content checksum liblz4 writes at the end of a frame: xxh32(content, 0).
uint32_t liblz4_content_checksum(const std::vector<char>& content) {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof prefs);
  prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  std::vector<char> frame(LZ4F_compressFrameBound(content.size(), &prefs));
  size_t n = LZ4F_compressFrame(frame.data(), frame.size(), content.data(), content.size(), &prefs);
  BOOST_REQUIRE(!LZ4F_isError(n));
  return load_le<uint32_t>(frame.data() + n - 4);
}

} // namespace

BOOST_AUTO_TEST_SUITE(xxhash32_suite)

BOOST_AUTO_TEST_CASE(empty_input_with_seed_zero_is_02cc5d05) {
  BOOST_TEST(xxh32("", 0) == 0x02CC5D05u);
}

BOOST_AUTO_TEST_CASE(agrees_with_liblz4_content_checksums) {
  auto data = random_bytes(300, 1);
  // Lengths around the 16-byte stripe and 4-byte word boundaries, and a long one.
  for (size_t n : {1u, 3u, 4u, 5u, 15u, 16u, 17u, 31u, 32u, 33u, 63u, 100u, 299u}) {
    std::vector<char> piece(data.begin(), data.begin() + n);
    BOOST_TEST_CONTEXT("length " << n) { BOOST_TEST(xxh32(piece.data(), n) == liblz4_content_checksum(piece)); }
  }
}

BOOST_AUTO_TEST_CASE(seed_changes_the_hash) {
  BOOST_TEST(xxh32("abc", 3, 0) != xxh32("abc", 3, 1));
}

BOOST_AUTO_TEST_SUITE_END()
