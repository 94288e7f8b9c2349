#include <boost/test/unit_test.hpp>

#include <limits>
#include <stdexcept>

#include "protocol/endian.hpp"
#include "protocol/record_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

constexpr size_t limit = 64 << 20;

std::vector<record> mixed_records() {
  return {
      {str("key-0"), str("value-0"), {}, 1'700'000'000'000},
      {std::nullopt, str("no key"), {}, 1'700'000'000'005},
      {str("tombstone"), std::nullopt, {}, 1'699'999'999'990},
      {str(""), str(""), {}, 1'700'000'000'001}, // empty, which is not null
      {str("with headers"),
       str("v"),
       {{"trace-id", str("abc123")}, {"null-header", std::nullopt}, {"", str("")}},
       1'700'000'000'002},
      {std::nullopt, std::nullopt, {}, 1'700'000'000'003},
  };
}

void check_same(const std::vector<decoded_record>& got, const std::vector<record>& want,
                int64_t base_offset = 0) {
  BOOST_REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_CONTEXT("record " << i) {
      BOOST_TEST(got[i].offset == base_offset + static_cast<int64_t>(i));
      BOOST_TEST(got[i].timestamp == want[i].timestamp);
      BOOST_CHECK(got[i].key == want[i].key);
      BOOST_CHECK(got[i].value == want[i].value);
      BOOST_CHECK(got[i].headers == want[i].headers);
    }
  }
}

/// Rewrites a header field and fixes the CRC, to make structurally odd but valid batches.
template <class T>
void patch(std::vector<char>& batch, size_t at, T value) {
  store_be(batch.data() + at, value);
  update_crc(batch.data(), batch.size());
}

} // namespace

BOOST_AUTO_TEST_SUITE(record_batch_suite)

BOOST_AUTO_TEST_CASE(uncompressed_round_trip_keeps_keys_values_headers_and_nulls) {
  auto batch = build_batch(mixed_records());
  auto h = validate_batch(view(batch));
  BOOST_REQUIRE(h);
  BOOST_TEST(h->record_count == 6);
  BOOST_TEST(h->last_offset_delta == 5);
  BOOST_TEST(h->base_timestamp == 1'700'000'000'000);
  BOOST_TEST(h->max_timestamp == 1'700'000'000'005);
  auto records = read_records(view(batch), limit);
  BOOST_REQUIRE(records);
  check_same(*records, mixed_records());
}

BOOST_AUTO_TEST_CASE(lz4_round_trip_keeps_everything_and_compresses_the_records_as_one_frame) {
  auto records = mixed_records();
  for (int i = 0; i < 200; ++i)
    records.push_back({str("key"), std::string(500, static_cast<char>('a' + i % 26)), {}, 1'700'000'000'100 + i});
  auto batch = build_batch(records, compression_codec::lz4);
  auto h = validate_batch(view(batch));
  BOOST_REQUIRE(h);
  BOOST_TEST((h->codec() == compression_codec::lz4));
  BOOST_TEST(h->record_count == static_cast<int32_t>(records.size()));
  BOOST_TEST(to_hex(view(batch).substr(batch_layout::header_size, 7)) == "04224d18604082");
  BOOST_TEST(batch.size() < build_batch(records).size() / 4);
  auto got = read_records(view(batch), limit);
  BOOST_REQUIRE(got);
  check_same(*got, records);
}

BOOST_AUTO_TEST_CASE(lz4_batch_larger_than_one_block_round_trips) {
  std::vector<record> records;
  auto payload = compressible_bytes(300'000);
  for (size_t i = 0; i < 30; ++i)
    records.push_back({std::nullopt, std::string(payload.begin() + i * 10'000, payload.begin() + (i + 1) * 10'000), {}, 5});
  auto batch = build_batch(records, compression_codec::lz4);
  auto got = read_records(view(batch), limit);
  BOOST_REQUIRE(got);
  check_same(*got, records);
}

BOOST_AUTO_TEST_CASE(decompressed_size_above_the_limit_is_too_large) {
  std::vector<record> records{{std::nullopt, std::string(100'000, 'z'), {}, 0}};
  auto batch = build_batch(records, compression_codec::lz4);
  BOOST_TEST(read_records(view(batch), 50'000).error() == err(errc::too_large));
  BOOST_TEST(static_cast<bool>(read_records(view(batch), 200'000)));
}

BOOST_AUTO_TEST_CASE(builder_options_land_in_the_header) {
  batch_options o;
  o.base_offset = 1000;
  o.leader_epoch = 7;
  o.producer_id = 4242;
  o.producer_epoch = 3;
  o.base_sequence = 17;
  o.transactional = true;
  batch_builder b(o);
  b.add({str("k"), str("v"), {}, 10});
  b.add(11, bytes_view{"k2"}, std::nullopt);
  auto batch = b.build();
  auto h = validate_batch(view(batch));
  BOOST_REQUIRE(h);
  BOOST_TEST(h->base_offset == 1000);
  BOOST_TEST(h->leader_epoch == 7);
  BOOST_TEST(h->producer_id == 4242);
  BOOST_TEST(h->producer_epoch == 3);
  BOOST_TEST(h->base_sequence == 17);
  BOOST_TEST((h->attributes & batch_attributes::transactional) != 0);
  auto got = read_records(view(batch), limit);
  BOOST_REQUIRE(got);
  BOOST_TEST((*got)[1].offset == 1001);
  BOOST_CHECK((*got)[1].key == str("k2"));
}

BOOST_AUTO_TEST_CASE(log_append_time_gives_every_record_the_batch_max_timestamp) {
  batch_options o;
  o.log_append_time = 99'999;
  batch_builder b(o);
  b.add(1, std::nullopt, bytes_view{"a"});
  b.add(2, std::nullopt, bytes_view{"b"});
  auto batch = b.build();
  auto h = validate_batch(view(batch));
  BOOST_REQUIRE(h);
  BOOST_TEST((h->attributes & batch_attributes::log_append_time) != 0);
  BOOST_TEST(h->max_timestamp == 99'999);
  auto got = read_records(view(batch), limit);
  BOOST_REQUIRE(got);
  BOOST_TEST((*got)[0].timestamp == 99'999);
  BOOST_TEST((*got)[1].timestamp == 99'999);
}

BOOST_AUTO_TEST_CASE(extreme_timestamps_round_trip) {
  std::vector<record> records{{std::nullopt, str("a"), {}, std::numeric_limits<int64_t>::max()},
                              {std::nullopt, str("b"), {}, std::numeric_limits<int64_t>::min()},
                              {std::nullopt, str("c"), {}, -1}};
  auto got = read_records(view(build_batch(records)), limit);
  BOOST_REQUIRE(got);
  check_same(*got, records);
}

BOOST_AUTO_TEST_CASE(builder_is_empty_and_reusable_after_build) {
  batch_builder b;
  BOOST_CHECK_THROW(b.build(), std::logic_error);
  b.add(1, bytes_view{"k"}, bytes_view{"v"});
  BOOST_TEST(b.record_count() == 1);
  auto first = b.build();
  BOOST_TEST(b.empty());
  b.add(1, bytes_view{"k"}, bytes_view{"v"});
  BOOST_TEST((b.build() == first));
}

BOOST_AUTO_TEST_CASE(builder_rejects_undefined_codecs) {
  batch_options o;
  o.codec = static_cast<compression_codec>(5);
  BOOST_CHECK_THROW(batch_builder{o}, std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(for_each_record_visits_views_and_returns_the_header) {
  auto batch = build_batch(mixed_records(), compression_codec::lz4);
  std::vector<int64_t> offsets;
  size_t headers = 0;
  auto h = for_each_record(view(batch), limit, [&](const record_view& r) {
    offsets.push_back(r.offset);
    BOOST_TEST(r.offset_delta == r.offset);
    headers += r.headers.size();
  });
  BOOST_REQUIRE(h);
  BOOST_TEST(h->record_count == 6);
  BOOST_TEST(offsets == (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  BOOST_TEST(headers == 3u);
}

BOOST_AUTO_TEST_CASE(undefined_codecs_are_unsupported) {
  for (int16_t codec : {5, 6, 7}) {
    auto batch = build_batch(mixed_records());
    patch(batch, batch_layout::attributes, codec);
    BOOST_TEST_CONTEXT("codec " << codec) {
      BOOST_TEST(read_records(view(batch), limit).error() == err(errc::unsupported_compression));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_record_count_that_disagrees_with_the_records_is_bad_record) {
  auto batch = build_batch(mixed_records());
  patch(batch, batch_layout::record_count, int32_t{5});
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_record));
  patch(batch, batch_layout::record_count, int32_t{7});
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_record));
  patch(batch, batch_layout::record_count, std::numeric_limits<int32_t>::max());
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(an_offset_delta_beyond_last_offset_delta_is_bad_record) {
  auto batch = build_batch(mixed_records());
  patch(batch, batch_layout::last_offset_delta, int32_t{4});
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(a_record_length_running_past_the_batch_is_truncated) {
  // One record; make its length prefix (the first records byte) claim 63 bytes.
  auto batch = build_batch({{std::nullopt, str("v"), {}, 0}});
  batch[batch_layout::header_size] = 0x7e;
  update_crc(batch.data(), batch.size());
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(a_record_whose_fields_overrun_its_length_is_bad_record) {
  // Key length 1 -> 50: the key now runs past the record's own length.
  auto batch = build_batch({{str("k"), str("v"), {}, 0}});
  size_t key_length_at = batch_layout::header_size + 4; // length, attributes, ts, offset
  BOOST_REQUIRE(batch[key_length_at] == 0x02);
  batch[key_length_at] = 0x64;
  update_crc(batch.data(), batch.size());
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(an_lz4_records_section_cut_short_is_compression_failed) {
  // A consistent, CRC-correct batch whose frame lacks its last bytes (the end mark).
  auto batch = build_batch(mixed_records(), compression_codec::lz4);
  batch.resize(batch.size() - 3);
  patch(batch, batch_layout::batch_length, static_cast<int32_t>(batch.size() - batch_layout::log_overhead));
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(validation_errors_come_first) {
  auto batch = build_batch(mixed_records());
  batch.back() ^= 1;
  BOOST_TEST(read_records(view(batch), limit).error() == err(errc::bad_crc));
  BOOST_TEST(read_records(view(batch).substr(0, 30), limit).error() == err(errc::truncated));
}

BOOST_AUTO_TEST_SUITE_END()
