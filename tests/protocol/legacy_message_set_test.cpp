#include <boost/test/unit_test.hpp>

#include "protocol/byte_writer.hpp"
#include "protocol/compression.hpp"
#include "protocol/crc32.hpp"
#include "protocol/endian.hpp"
#include "protocol/legacy_message_set.hpp"
#include "protocol/lz4_frame.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/xxhash32.hpp"
#include "golden_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

constexpr int8_t lz4_codec = 3;
constexpr int8_t log_append_time = 0x08;
constexpr int64_t now = 1'600'000'000'000;

// Two messages {key "k", value "v"} and {key null, value "hello"} as kafka-python 2.0.2's
// LegacyRecordBatchBuilder writes them (offsets 0 and 1; magic 1 timestamps 1000, 1007).
constexpr std::string_view kafka_python_magic0 =
    "0000000000000000 00000010 1fecd70a 00 00 00000001 6b 00000001 76"
    "0000000000000001 00000013 87a77ab2 00 00 ffffffff 00000005 68656c6c6f";
constexpr std::string_view kafka_python_magic1 =
    "0000000000000000 00000018 e4e321bc 01 00 00000000000003e8 00000001 6b 00000001 76"
    "0000000000000001 0000001b f1e00981 01 00 00000000000003ef ffffffff 00000005 68656c6c6f";

/// Builds legacy message sets by hand: entries with a correct CRC-32 unless told.
struct legacy_set {
  std::vector<char> bytes;

  legacy_set& add(int8_t magic, std::optional<bytes_view> key, std::optional<bytes_view> value,
                  int64_t timestamp = 0, int8_t attributes = 0, int64_t offset = 0) {
    std::vector<char> message;
    byte_writer m(message);
    m.write_u32(0); // crc, filled in below
    m.write_i8(magic);
    m.write_i8(attributes);
    if (magic == 1) m.write_i64(timestamp);
    m.write_nullable_bytes(key);
    m.write_nullable_bytes(value);
    store_be(message.data(), crc32(message.data() + 4, message.size() - 4));
    byte_writer out(bytes);
    out.write_i64(offset);
    out.write_i32(static_cast<int32_t>(message.size()));
    out.write_raw(view(message));
    return *this;
  }

  /// A compressed wrapper around `inner`, whose value is one LZ4 frame.
  legacy_set& add_lz4_wrapper(int8_t magic, const legacy_set& inner, int64_t timestamp = 0,
                              int8_t extra_attributes = 0, bool broken_hc = false) {
    auto frame = lz4_compress_frame(view(inner.bytes));
    if (broken_hc) frame[6] = static_cast<char>((xxh32(frame.data(), 6) >> 8) & 0xff);
    return add(magic, std::nullopt, view(frame), timestamp,
               static_cast<int8_t>(lz4_codec | extra_attributes));
  }
};

legacy_conversion_options options() {
  legacy_conversion_options o;
  o.now_ms = now;
  return o;
}

/// Converts and reads back; fails the test if either step fails.
std::vector<decoded_record> convert_and_read(bytes_view set,
                                             const legacy_conversion_options& o = options()) {
  auto batch = convert_legacy_message_set(set, o);
  BOOST_REQUIRE_MESSAGE(batch, "conversion failed: " << batch.error().message());
  BOOST_REQUIRE(magic_of(view(*batch)) == 2);
  auto records = read_records(view(*batch), 1 << 20);
  BOOST_REQUIRE_MESSAGE(records, "reading failed: " << records.error().message());
  return *records;
}

std::error_code conversion_error(bytes_view set, const legacy_conversion_options& o = options()) {
  return convert_legacy_message_set(set, o).error();
}

} // namespace

BOOST_AUTO_TEST_SUITE(legacy_message_set_suite)

BOOST_AUTO_TEST_CASE(magic_of_reads_byte_16_of_legacy_and_v2_entries) {
  BOOST_TEST(magic_of(view(from_hex(kafka_python_magic0))) == 0);
  BOOST_TEST(magic_of(view(from_hex(kafka_python_magic1))) == 1);
  BOOST_TEST(magic_of(view(from_hex(golden_batch_hex))) == 2);
  BOOST_TEST(magic_of(bytes_view{"0123456789abcdef"}) == -1); // 16 bytes: no byte 16
}

BOOST_AUTO_TEST_CASE(hand_built_sets_match_kafka_python_byte_for_byte) {
  legacy_set v0, v1;
  v0.add(0, bytes_view{"k"}, bytes_view{"v"}).add(0, std::nullopt, bytes_view{"hello"}, 0, 0, 1);
  v1.add(1, bytes_view{"k"}, bytes_view{"v"}, 1000).add(1, std::nullopt, bytes_view{"hello"}, 1007, 0, 1);
  BOOST_TEST(to_hex(view(v0.bytes)) == to_hex(view(from_hex(kafka_python_magic0))));
  BOOST_TEST(to_hex(view(v1.bytes)) == to_hex(view(from_hex(kafka_python_magic1))));
}

BOOST_AUTO_TEST_CASE(magic_0_messages_get_the_callers_clock_as_timestamp) {
  auto r = convert_and_read(view(from_hex(kafka_python_magic0)));
  BOOST_REQUIRE(r.size() == 2u);
  BOOST_TEST(r[0].offset == 0);
  BOOST_TEST(r[1].offset == 1);
  BOOST_TEST(r[0].timestamp == now);
  BOOST_TEST(r[1].timestamp == now);
  BOOST_CHECK(r[0].key == str("k"));
  BOOST_CHECK(r[0].value == str("v"));
  BOOST_CHECK(!r[1].key);
  BOOST_CHECK(r[1].value == str("hello"));
}

BOOST_AUTO_TEST_CASE(magic_1_messages_keep_their_timestamps) {
  auto r = convert_and_read(view(from_hex(kafka_python_magic1)));
  BOOST_REQUIRE(r.size() == 2u);
  BOOST_TEST(r[0].timestamp == 1000);
  BOOST_TEST(r[1].timestamp == 1007);
  BOOST_CHECK(!r[1].key);
}

BOOST_AUTO_TEST_CASE(offsets_are_renumbered_from_zero_whatever_the_set_says) {
  legacy_set s;
  s.add(1, std::nullopt, bytes_view{"a"}, 5, 0, 900).add(1, std::nullopt, bytes_view{"b"}, 6, 0, 17);
  auto batch = convert_legacy_message_set(view(s.bytes), options());
  BOOST_REQUIRE(batch);
  auto h = validate_batch(view(*batch));
  BOOST_REQUIRE(h);
  BOOST_TEST(h->base_offset == 0);
  BOOST_TEST(h->last_offset_delta == 1);
  BOOST_TEST(h->producer_id == -1);
}

BOOST_AUTO_TEST_CASE(null_and_empty_keys_and_values_stay_distinct) {
  legacy_set s;
  s.add(1, std::nullopt, std::nullopt, 1).add(1, bytes_view{""}, bytes_view{""}, 2);
  auto r = convert_and_read(view(s.bytes));
  BOOST_REQUIRE(r.size() == 2u);
  BOOST_CHECK(!r[0].key);
  BOOST_CHECK(!r[0].value);
  BOOST_CHECK(r[1].key == str(""));
  BOOST_CHECK(r[1].value == str(""));
}

BOOST_AUTO_TEST_CASE(log_append_time_messages_make_a_log_append_time_batch) {
  legacy_set s;
  s.add(1, std::nullopt, bytes_view{"a"}, 3000, log_append_time)
      .add(1, std::nullopt, bytes_view{"b"}, 3005, log_append_time);
  auto batch = convert_legacy_message_set(view(s.bytes), options());
  BOOST_REQUIRE(batch);
  auto h = validate_batch(view(*batch));
  BOOST_REQUIRE(h);
  BOOST_TEST((h->attributes & batch_attributes::log_append_time) != 0);
  BOOST_TEST(h->max_timestamp == 3005);
  auto r = convert_and_read(view(s.bytes));
  BOOST_TEST(r[0].timestamp == 3005);
  BOOST_TEST(r[1].timestamp == 3005);
}

BOOST_AUTO_TEST_CASE(an_lz4_wrapper_is_flattened_with_inner_timestamps) {
  legacy_set inner, outer;
  inner.add(1, bytes_view{"k0"}, bytes_view{"v0"}, 100, 0, 0)
      .add(1, bytes_view{"k1"}, bytes_view{"v1"}, 101, 0, 1)
      .add(1, std::nullopt, bytes_view{"v2"}, 99, 0, 2);
  outer.add_lz4_wrapper(1, inner, 101);
  auto r = convert_and_read(view(outer.bytes));
  BOOST_REQUIRE(r.size() == 3u);
  BOOST_TEST(r[0].timestamp == 100);
  BOOST_TEST(r[2].timestamp == 99);
  BOOST_TEST(r[2].offset == 2);
  BOOST_CHECK(r[1].key == str("k1"));
  BOOST_CHECK(r[2].value == str("v2"));
}

BOOST_AUTO_TEST_CASE(a_log_append_time_wrapper_gives_its_timestamp_to_all_inner_messages) {
  legacy_set inner, outer;
  inner.add(1, std::nullopt, bytes_view{"a"}, 1).add(1, std::nullopt, bytes_view{"b"}, 2);
  outer.add_lz4_wrapper(1, inner, 7777, log_append_time);
  auto r = convert_and_read(view(outer.bytes));
  BOOST_REQUIRE(r.size() == 2u);
  BOOST_TEST(r[0].timestamp == 7777);
  BOOST_TEST(r[1].timestamp == 7777);
}

BOOST_AUTO_TEST_CASE(magic_0_lz4_accepts_the_broken_header_checksum_of_kafka_3160) {
  legacy_set inner;
  inner.add(0, bytes_view{"k"}, bytes_view{"old kafka"});
  legacy_set broken, proper;
  broken.add_lz4_wrapper(0, inner, 0, 0, true);
  proper.add_lz4_wrapper(0, inner, 0, 0, false);
  for (auto* s : {&broken, &proper}) {
    auto r = convert_and_read(view(s->bytes));
    BOOST_REQUIRE(r.size() == 1u);
    BOOST_CHECK(r[0].value == str("old kafka"));
    BOOST_TEST(r[0].timestamp == now);
  }
}

BOOST_AUTO_TEST_CASE(magic_1_lz4_with_the_broken_header_checksum_is_rejected) {
  legacy_set inner, outer;
  inner.add(1, std::nullopt, bytes_view{"x"}, 1);
  outer.add_lz4_wrapper(1, inner, 1, 0, true);
  BOOST_TEST(conversion_error(view(outer.bytes)) == err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(plain_messages_and_wrappers_mix_in_order) {
  legacy_set inner, set;
  inner.add(1, std::nullopt, bytes_view{"b"}, 2).add(1, std::nullopt, bytes_view{"c"}, 3);
  set.add(1, std::nullopt, bytes_view{"a"}, 1).add_lz4_wrapper(1, inner, 3).add(1, std::nullopt, bytes_view{"d"}, 4);
  auto r = convert_and_read(view(set.bytes));
  BOOST_REQUIRE(r.size() == 4u);
  std::string values;
  for (auto& rec : r) values += *rec.value;
  BOOST_TEST(values == "abcd");
  BOOST_TEST(r[3].offset == 3);
}

BOOST_AUTO_TEST_CASE(the_batch_can_be_written_with_lz4) {
  auto o = options();
  o.output_codec = compression_codec::lz4;
  auto batch = convert_legacy_message_set(view(from_hex(kafka_python_magic1)), o);
  BOOST_REQUIRE(batch);
  auto h = validate_batch(view(*batch));
  BOOST_REQUIRE(h);
  BOOST_TEST((h->codec() == compression_codec::lz4));
  BOOST_TEST(convert_and_read(view(from_hex(kafka_python_magic1)), o).size() == 2u);
}

BOOST_AUTO_TEST_CASE(gzip_and_snappy_wrappers_of_kafka_python_are_flattened) {
  // The two messages of kafka_python_magic1/0 in one wrapper each, as kafka-python 2.0.2's
  // LegacyRecordBatchBuilder(magic, compression_type, batch_size) writes them: magic 1
  // gzip, magic 0 snappy (xerial framing, python3-snappy).
  constexpr std::string_view magic1_gzip =
      "0000000000000000 00000054 822879b0 01 01 0000000000000000 ffffffff 0000003e"
      "1f8b0800cd88166b02ff6360800389278f15f7304239cc2f800463368828830a81a4a43f3ee06c84ab79ff1f"
      "08800cd68cd49c9c7c00faf43d974b000000";
  constexpr std::string_view magic0_snappy =
      "0000000000000000 00000054 1bb4addf 00 02 ffffffff 00000046"
      "82534e4150505900 00000001 00000001 00000032"
      "3b0000190110101fecd70a050f18016b0000000176050c640000010000001387a77ab20000ffffffff0000"
      "000568656c6c6f";
  for (auto hex : {magic1_gzip, magic0_snappy})
    BOOST_TEST_CONTEXT(hex.substr(0, 60)) {
      auto r = convert_and_read(view(from_hex(hex)));
      BOOST_REQUIRE(r.size() == 2u);
      bool magic1 = hex == magic1_gzip;
      BOOST_TEST(r[0].timestamp == (magic1 ? 1000 : now));
      BOOST_TEST(r[1].timestamp == (magic1 ? 1007 : now));
      BOOST_CHECK(r[0].key == str("k"));
      BOOST_CHECK(r[0].value == str("v"));
      BOOST_CHECK(!r[1].key);
      BOOST_CHECK(r[1].value == str("hello"));
    }
}

BOOST_AUTO_TEST_CASE(gzip_and_snappy_wrappers_are_flattened_and_zstd_is_unsupported) {
  for (auto codec : {compression_codec::gzip, compression_codec::snappy})
    for (int8_t magic : {0, 1}) {
      legacy_set inner, outer;
      inner.add(magic, bytes_view{"k"}, bytes_view{"a"}, 5).add(magic, std::nullopt, bytes_view{"b"}, 6);
      auto packed = compress(codec, view(inner.bytes));
      BOOST_REQUIRE(packed);
      outer.add(magic, std::nullopt, view(*packed), 6, static_cast<int8_t>(codec));
      BOOST_TEST_CONTEXT("codec " << int(codec) << ", magic " << int(magic)) {
        auto r = convert_and_read(view(outer.bytes));
        BOOST_REQUIRE(r.size() == 2u);
        BOOST_CHECK(r[0].value == str("a"));
        BOOST_CHECK(r[1].value == str("b"));
        BOOST_TEST(r[1].timestamp == (magic == 1 ? 6 : now));
        // A wrapper whose value is not what its codec says is compression_failed.
        legacy_set bad;
        bad.add(magic, std::nullopt, bytes_view{"compressed bytes"}, 0, static_cast<int8_t>(codec));
        BOOST_TEST(conversion_error(view(bad.bytes)) == err(errc::compression_failed));
      }
    }
  // zstd needs magic 2 (Kafka refuses it in older formats); 5..7 are undefined.
  for (int8_t codec : {4, 5, 7}) {
    legacy_set s;
    s.add(1, std::nullopt, bytes_view{"compressed bytes"}, 0, codec);
    BOOST_TEST(conversion_error(view(s.bytes)) == err(errc::unsupported_compression));
  }
}

BOOST_AUTO_TEST_CASE(a_corrupted_crc_is_bad_crc) {
  auto set = from_hex(kafka_python_magic1);
  set[33] ^= 1; // inside the first message's value length (bytes 31..34)
  BOOST_TEST(conversion_error(view(set)) == err(errc::bad_crc));
  set[33] ^= 1;
  set[12] ^= 1; // the stored crc itself
  BOOST_TEST(conversion_error(view(set)) == err(errc::bad_crc));
}

BOOST_AUTO_TEST_CASE(a_set_cut_inside_an_entry_is_truncated) {
  auto set = from_hex(kafka_python_magic1);
  // The first entry is bytes 0..35 and the second 36..74; cutting at 36 would leave a
  // valid one-message set.
  for (size_t cut : {1u, 11u, 12u, 20u, 35u, 37u, 50u, 74u})
    BOOST_TEST_CONTEXT("cut at " << cut) {
      BOOST_TEST(conversion_error(view(set).substr(0, cut)) == err(errc::truncated));
    }
  BOOST_TEST(conversion_error(bytes_view{}) == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(an_unknown_magic_is_bad_magic) {
  BOOST_TEST(conversion_error(view(from_hex(golden_batch_hex))) == err(errc::bad_magic));
  auto set = from_hex(kafka_python_magic0);
  set[16] = 3;
  BOOST_TEST(conversion_error(view(set)) == err(errc::bad_magic));
}

BOOST_AUTO_TEST_CASE(a_message_size_below_the_minimum_is_bad_length) {
  auto set = from_hex(kafka_python_magic0);
  store_be(set.data() + 8, int32_t{13});
  BOOST_TEST(conversion_error(view(set)) == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(a_key_length_that_overruns_the_message_is_bad_record) {
  legacy_set s;
  s.add(0, bytes_view{"k"}, bytes_view{"v"});
  store_be(s.bytes.data() + 18, int32_t{50}); // key length, then fix the CRC
  store_be(s.bytes.data() + 12, crc32(s.bytes.data() + 16, s.bytes.size() - 16));
  BOOST_TEST(conversion_error(view(s.bytes)) == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(nested_wrappers_and_mixed_inner_magic_are_bad_record) {
  legacy_set innermost, middle, nested;
  innermost.add(1, std::nullopt, bytes_view{"x"}, 1);
  middle.add_lz4_wrapper(1, innermost, 1);
  nested.add_lz4_wrapper(1, middle, 1);
  BOOST_TEST(conversion_error(view(nested.bytes)) == err(errc::bad_record));

  legacy_set magic0_inner, mixed;
  magic0_inner.add(0, std::nullopt, bytes_view{"x"});
  mixed.add_lz4_wrapper(1, magic0_inner, 1);
  BOOST_TEST(conversion_error(view(mixed.bytes)) == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(inner_sets_above_the_limit_are_too_large) {
  legacy_set inner, outer;
  std::string big(10'000, 'q');
  for (int i = 0; i < 5; ++i) inner.add(1, std::nullopt, bytes_view{big}, i);
  outer.add_lz4_wrapper(1, inner, 4).add_lz4_wrapper(1, inner, 4);
  auto o = options();
  o.max_uncompressed = inner.bytes.size() + 100; // room for one inner set, not two
  BOOST_TEST(conversion_error(view(outer.bytes), o) == err(errc::too_large));
  o.max_uncompressed = 2 * inner.bytes.size();
  BOOST_TEST(convert_and_read(view(outer.bytes), o).size() == 10u);
}

BOOST_AUTO_TEST_CASE(every_byte_flip_is_survived) {
  legacy_set inner, set;
  inner.add(1, bytes_view{"k"}, bytes_view{"inner value"}, 5).add(1, std::nullopt, bytes_view{"v"}, 6);
  set.add(1, bytes_view{"key"}, bytes_view{"value"}, 1).add_lz4_wrapper(1, inner, 6);
  for (size_t i = 0; i < set.bytes.size(); ++i) {
    auto bad = set.bytes;
    bad[i] ^= 0x41;
    auto batch = convert_legacy_message_set(view(bad), options());
    if (batch) BOOST_TEST(static_cast<bool>(validate_batch(view(*batch))));
  }
}

BOOST_AUTO_TEST_SUITE_END()
