#include <boost/test/unit_test.hpp>

#include "protocol/batch_header.hpp"
#include "protocol/endian.hpp"
#include "golden_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

struct golden_fixture {
  std::vector<char> batch = from_hex(golden_batch_hex);

  bytes_view bytes() const { return view(batch); }
  /// Overwrites a header field, leaving the CRC stale.
  template <class T>
  void poke(size_t at, T value) { store_be(batch.data() + at, value); }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(batch_header_suite, golden_fixture)

BOOST_AUTO_TEST_CASE(reads_every_header_field) {
  auto h = read_batch_header(bytes());
  BOOST_REQUIRE(h);
  BOOST_TEST(h->base_offset == 0);
  BOOST_TEST(h->batch_length == 83);
  BOOST_TEST(h->leader_epoch == 0);
  BOOST_TEST(h->magic == 2);
  BOOST_TEST(h->crc == 0x1dcc55a7u);
  BOOST_TEST(h->attributes == 0);
  BOOST_TEST(h->last_offset_delta == 2);
  BOOST_TEST(h->base_timestamp == 1000);
  BOOST_TEST(h->max_timestamp == 1005);
  BOOST_TEST(h->producer_id == -1);
  BOOST_TEST(h->producer_epoch == -1);
  BOOST_TEST(h->base_sequence == -1);
  BOOST_TEST(h->record_count == 3);
  BOOST_TEST(h->total_size() == 95u);
  BOOST_TEST(h->next_offset() == 3);
  BOOST_TEST((h->codec() == compression_codec::none));
}

BOOST_AUTO_TEST_CASE(validate_accepts_a_correct_batch_and_ignores_bytes_after_it) {
  batch.push_back('x');
  BOOST_TEST(static_cast<bool>(validate_batch(bytes())));
}

BOOST_AUTO_TEST_CASE(fewer_than_61_bytes_is_truncated) {
  BOOST_TEST(read_batch_header(bytes().substr(0, 60)).error() == err(errc::truncated));
  BOOST_TEST(read_batch_header(bytes_view{}).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(a_magic_other_than_2_is_bad_magic) {
  poke(batch_layout::magic, int8_t{1});
  BOOST_TEST(read_batch_header(bytes()).error() == err(errc::bad_magic));
}

BOOST_AUTO_TEST_CASE(a_batch_length_below_49_is_bad_length) {
  poke(batch_layout::batch_length, int32_t{48});
  BOOST_TEST(read_batch_header(bytes()).error() == err(errc::bad_length));
  poke(batch_layout::batch_length, int32_t{-1});
  BOOST_TEST(read_batch_header(bytes()).error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(a_negative_last_offset_delta_or_record_count_is_bad_length) {
  poke(batch_layout::last_offset_delta, int32_t{-1});
  BOOST_TEST(read_batch_header(bytes()).error() == err(errc::bad_length));
  poke(batch_layout::last_offset_delta, int32_t{2});
  poke(batch_layout::record_count, int32_t{-3});
  BOOST_TEST(read_batch_header(bytes()).error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(validate_reports_a_batch_shorter_than_its_length_as_truncated) {
  BOOST_TEST(static_cast<bool>(read_batch_header(bytes().substr(0, 94))));
  BOOST_TEST(validate_batch(bytes().substr(0, 94)).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(validate_reports_changed_bytes_under_the_crc_as_bad_crc) {
  batch[80] ^= 1;
  BOOST_TEST(validate_batch(bytes()).error() == err(errc::bad_crc));
}

BOOST_AUTO_TEST_CASE(base_offset_and_leader_epoch_can_be_rewritten_without_a_new_crc) {
  set_base_offset(batch.data(), 1'000'000'007);
  set_leader_epoch(batch.data(), 42);
  auto h = validate_batch(bytes());
  BOOST_REQUIRE(h);
  BOOST_TEST(h->base_offset == 1'000'000'007);
  BOOST_TEST(h->leader_epoch == 42);
  BOOST_TEST(h->last_offset() == 1'000'000'009);
}

BOOST_AUTO_TEST_CASE(update_crc_makes_a_modified_batch_valid_again) {
  poke(batch_layout::max_timestamp, int64_t{2000});
  BOOST_TEST(validate_batch(bytes()).error() == err(errc::bad_crc));
  update_crc(batch.data(), batch.size());
  auto h = validate_batch(bytes());
  BOOST_REQUIRE(h);
  BOOST_TEST(h->max_timestamp == 2000);
}

BOOST_AUTO_TEST_CASE(set_log_append_time_sets_the_attribute_and_max_timestamp) {
  set_log_append_time(batch.data(), batch.size(), 77'000);
  auto h = validate_batch(bytes());
  BOOST_REQUIRE(h);
  BOOST_TEST((h->attributes & batch_attributes::log_append_time) != 0);
  BOOST_TEST(h->max_timestamp == 77'000);
  BOOST_TEST(h->base_timestamp == 1000); // untouched: records keep their deltas
}

BOOST_AUTO_TEST_CASE(whole_batches_within_a_limit_keep_at_least_the_first) {
  std::vector<char> three;
  for (int i = 0; i < 3; ++i)
    three.insert(three.end(), batch.begin(), batch.end());
  auto one = batch.size();
  BOOST_TEST(whole_batches_within(view(three), 3 * one) == 3 * one);
  BOOST_TEST(whole_batches_within(view(three), 2 * one + 5) == 2 * one);
  BOOST_TEST(whole_batches_within(view(three), 10) == one); // the first even when larger
  BOOST_TEST(whole_batches_within(view(three), 0) == one);
  three.resize(2 * one + 20); // a torn third batch is never counted
  BOOST_TEST(whole_batches_within(view(three), 10 * one) == 2 * one);
  BOOST_TEST(whole_batches_within(bytes_view{three.data(), 11}, 100) == 0u);
}

BOOST_AUTO_TEST_CASE(count_records_reads_record_counts_of_whole_entries) {
  poke<int32_t>(batch_layout::record_count, 7);
  std::vector<char> two;
  for (int i = 0; i < 2; ++i)
    two.insert(two.end(), batch.begin(), batch.end());
  BOOST_TEST(count_records(view(two)) == 14u);
  BOOST_TEST(count_records(bytes_view{two.data(), two.size() - 1}) == 7u); // a torn batch counts nothing
  two[batch.size() + batch_layout::magic] = 1;                              // a legacy entry counts one
  BOOST_TEST(count_records(view(two)) == 8u);
  BOOST_TEST(count_records(bytes_view{}) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
