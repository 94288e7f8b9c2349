#include <boost/test/unit_test.hpp>

#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include "protocol/crc32c.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

using crc_fn = uint32_t (*)(const void*, size_t, uint32_t) noexcept;

/// Every implementation this machine can run, with a name for messages.
std::vector<std::pair<const char*, crc_fn>> implementations() {
  std::vector<std::pair<const char*, crc_fn>> impls{{"portable", crc32c_portable},
                                                    {"dispatching", crc32c}};
  if (crc32c_hardware_available()) impls.emplace_back("hardware", crc32c_hardware);
  else BOOST_TEST_MESSAGE("no SSE4.2 on this CPU: hardware CRC-32C not tested");
  return impls;
}

std::vector<unsigned char> iota_bytes(unsigned char first, int step) {
  std::vector<unsigned char> v(32);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<unsigned char>(first + step * static_cast<int>(i));
  return v;
}

} // namespace

BOOST_AUTO_TEST_SUITE(crc32c_suite)

BOOST_AUTO_TEST_CASE(check_value_of_123456789_is_e3069283) {
  for (auto [name, f] : implementations()) {
    BOOST_TEST_CONTEXT(name) { BOOST_TEST(f("123456789", 9, 0) == 0xE3069283u); }
  }
}

BOOST_AUTO_TEST_CASE(rfc3720_b4_vectors) {
  std::vector<unsigned char> zeros(32, 0x00), ones(32, 0xFF);
  auto ascending = iota_bytes(0, 1), descending = iota_bytes(31, -1);
  for (auto [name, f] : implementations()) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(f(zeros.data(), 32, 0) == 0x8A9136AAu);
      BOOST_TEST(f(ones.data(), 32, 0) == 0x62A8AB43u);
      BOOST_TEST(f(ascending.data(), 32, 0) == 0x46DD794Eu);
      BOOST_TEST(f(descending.data(), 32, 0) == 0x113FDB5Cu);
    }
  }
}

BOOST_AUTO_TEST_CASE(empty_input_leaves_crc_unchanged) {
  for (auto [name, f] : implementations()) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(f(nullptr, 0, 0) == 0u);
      BOOST_TEST(f("", 0, 0xE3069283u) == 0xE3069283u);
    }
  }
}

BOOST_AUTO_TEST_CASE(hardware_and_portable_agree_on_all_lengths_and_alignments) {
  if (!crc32c_hardware_available()) {
    BOOST_TEST_MESSAGE("skipped: no SSE4.2");
    return;
  }
  auto data = random_bytes(100'000 + 16);
  // Every length up to 1100 (crossing all lane sizes and tails), then a spread of longer
  // ones up to 100000, each at several misalignments.
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 1100; ++n) lengths.push_back(n);
  std::mt19937 gen(3);
  for (int i = 0; i < 300; ++i) lengths.push_back(gen() % 100'001);
  for (size_t n : {6143u, 6144u, 6145u, 12288u, 16384u, 16385u, 65536u, 100000u}) lengths.push_back(n);
  for (size_t n : lengths)
    for (size_t offset : {0u, 1u, 3u, 7u, 8u, 13u}) {
      const char* p = data.data() + offset;
      uint32_t hw = crc32c_hardware(p, n, 0), sw = crc32c_portable(p, n, 0);
      if (hw != sw) BOOST_FAIL("mismatch at length " << n << " offset " << offset);
    }
}

BOOST_AUTO_TEST_CASE(continuing_over_split_buffers_equals_one_shot) {
  auto data = random_bytes(20'000, 9);
  std::mt19937 gen(11);
  for (auto [name, f] : implementations()) {
    BOOST_TEST_CONTEXT(name) {
      uint32_t whole = f(data.data(), data.size(), 0);
      for (int trial = 0; trial < 50; ++trial) {
        // Three pieces at random cut points.
        size_t a = gen() % data.size(), b = gen() % data.size();
        if (a > b) std::swap(a, b);
        uint32_t c = f(data.data(), a, 0);
        c = f(data.data() + a, b - a, c);
        c = f(data.data() + b, data.size() - b, c);
        BOOST_TEST(c == whole);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(single_bit_flips_change_the_crc) {
  auto data = random_bytes(16384, 5);
  uint32_t good = crc32c(data.data(), data.size());
  for (size_t i = 0; i < data.size(); i += 97) {
    data[i] ^= 0x10;
    BOOST_TEST(crc32c(data.data(), data.size()) != good);
    data[i] ^= 0x10;
  }
}

BOOST_AUTO_TEST_SUITE_END()
