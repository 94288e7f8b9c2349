// Robustness of validation and reading against damaged input: every test here must
// finish without a crash or sanitizer report, whatever the bytes.
#include <boost/test/unit_test.hpp>

#include <random>

#include "protocol/endian.hpp"
#include "protocol/record_batch.hpp"
#include "golden_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

constexpr size_t limit = 1 << 20;
constexpr unsigned char masks[] = {0x01, 0x10, 0x80, 0xff};

bool outside_crc(size_t i) {
  // base_offset and partition_leader_epoch: rewritten by the broker, so not covered.
  return i < batch_layout::batch_length ||
         (i >= batch_layout::leader_epoch && i < batch_layout::magic);
}

std::vector<char> lz4_batch() {
  std::vector<record> records;
  for (int i = 0; i < 20; ++i)
    records.push_back({str("key"), "value number " + std::to_string(i), {{"h", str("x")}}, 1000 + i});
  return build_batch(records, compression_codec::lz4);
}

/// Reads the batch and checks the only promise left for arbitrary input: success means
/// exactly record_count records came out.
void read_without_crashing(const std::vector<char>& batch) {
  auto records = read_records(view(batch), limit);
  if (records) {
    auto h = read_batch_header(view(batch));
    BOOST_REQUIRE(h);
    BOOST_TEST(records->size() == static_cast<size_t>(h->record_count));
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(record_batch_mutation_suite)

BOOST_AUTO_TEST_CASE(every_byte_flip_under_the_crc_or_in_the_framing_fails_validation) {
  const auto golden = from_hex(golden_batch_hex);
  for (size_t i = 0; i < golden.size(); ++i)
    for (unsigned char mask : masks) {
      auto batch = golden;
      batch[i] = static_cast<char>(batch[i] ^ mask);
      bool valid = static_cast<bool>(validate_batch(view(batch)));
      BOOST_TEST_CONTEXT("byte " << i << " mask " << int{mask}) {
        BOOST_TEST(valid == outside_crc(i));
        // The reader validates first, so it agrees, and the accepted cases still decode.
        BOOST_TEST(static_cast<bool>(read_records(view(batch), limit)) == valid);
      }
    }
}

BOOST_AUTO_TEST_CASE(every_truncation_fails_validation_and_reading) {
  for (auto batch : {from_hex(golden_batch_hex), lz4_batch()})
    for (size_t n = 0; n < batch.size(); ++n) {
      bytes_view prefix = view(batch).substr(0, n);
      BOOST_TEST(!validate_batch(prefix));
      BOOST_TEST(!read_records(prefix, limit));
    }
}

BOOST_AUTO_TEST_CASE(every_byte_flip_with_a_recomputed_crc_is_survived_by_the_reader) {
  // With the CRC fixed up, the damage reaches the record parser and the LZ4 decoder.
  for (auto original : {from_hex(golden_batch_hex), lz4_batch()})
    for (size_t i = batch_layout::attributes; i < original.size(); ++i)
      for (unsigned char mask : masks) {
        auto batch = original;
        batch[i] = static_cast<char>(batch[i] ^ mask);
        update_crc(batch.data(), batch.size());
        read_without_crashing(batch);
      }
}

BOOST_AUTO_TEST_CASE(random_records_sections_behind_a_valid_header_are_survived) {
  std::mt19937 gen(1234);
  const auto golden = from_hex(golden_batch_hex);
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<char> batch(golden.begin(), golden.begin() + batch_layout::header_size);
    size_t body = gen() % 200;
    for (size_t i = 0; i < body; ++i) batch.push_back(static_cast<char>(gen() % 4 == 0 ? 0x01 : gen()));
    store_be(batch.data() + batch_layout::batch_length, static_cast<int32_t>(batch.size() - batch_layout::log_overhead));
    store_be(batch.data() + batch_layout::attributes, static_cast<int16_t>(trial % 2 ? 3 : 0));
    store_be(batch.data() + batch_layout::record_count, static_cast<int32_t>(gen() % 8));
    store_be(batch.data() + batch_layout::last_offset_delta, static_cast<int32_t>(gen() % 8));
    update_crc(batch.data(), batch.size());
    read_without_crashing(batch);
  }
}

BOOST_AUTO_TEST_SUITE_END()
