#include <boost/test/unit_test.hpp>

#include <limits>
#include <stdexcept>
#include <string>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

template <class F>
std::string written_hex(F&& write) {
  std::vector<char> out;
  byte_writer w(out);
  write(w);
  return to_hex(view(out));
}

} // namespace

BOOST_AUTO_TEST_SUITE(byte_writer_suite)

BOOST_AUTO_TEST_CASE(fixed_width_integers_are_big_endian) {
  BOOST_TEST(written_hex([](auto& w) { w.write_i8(-2); }) == "fe");
  BOOST_TEST(written_hex([](auto& w) { w.write_i16(0x0102); }) == "0102");
  BOOST_TEST(written_hex([](auto& w) { w.write_i32(-1); }) == "ffffffff");
  BOOST_TEST(written_hex([](auto& w) { w.write_i64(0x0102030405060708); }) == "0102030405060708");
  BOOST_TEST(written_hex([](auto& w) { w.write_u32(0xE3069283u); }) == "e3069283");
}

BOOST_AUTO_TEST_CASE(varints_are_zigzag_encoded_like_protobuf) {
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(0); }) == "00");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(-1); }) == "01");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(1); }) == "02");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(-64); }) == "7f");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(64); }) == "8001");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(300); }) == "d804");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(std::numeric_limits<int32_t>::max()); }) == "feffffff0f");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint(std::numeric_limits<int32_t>::min()); }) == "ffffffff0f");
  BOOST_TEST(written_hex([](auto& w) { w.write_varlong(std::numeric_limits<int64_t>::min()); }) ==
             "ffffffffffffffffff01");
  BOOST_TEST(written_hex([](auto& w) { w.write_uvarint(300); }) == "ac02");
}

BOOST_AUTO_TEST_CASE(encoded_sizes_match_what_is_written) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{63}, int64_t{-65}, int64_t{1} << 20,
                    int64_t{1} << 40, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    std::vector<char> out;
    byte_writer(out).write_varlong(v);
    BOOST_TEST(out.size() == varlong_size(v));
    if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
      out.clear();
      byte_writer(out).write_varint(static_cast<int32_t>(v));
      BOOST_TEST(out.size() == varint_size(static_cast<int32_t>(v)));
    }
  }
}

BOOST_AUTO_TEST_CASE(strings_and_bytes_carry_their_length_prefix_and_null_is_minus_one) {
  BOOST_TEST(written_hex([](auto& w) { w.write_string("ab"); }) == "00026162");
  BOOST_TEST(written_hex([](auto& w) { w.write_nullable_string(std::nullopt); }) == "ffff");
  BOOST_TEST(written_hex([](auto& w) { w.write_bytes("ab"); }) == "000000026162");
  BOOST_TEST(written_hex([](auto& w) { w.write_nullable_bytes(std::nullopt); }) == "ffffffff");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint_bytes(bytes_view{"ab"}); }) == "046162");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint_bytes(std::nullopt); }) == "01");
  BOOST_TEST(written_hex([](auto& w) { w.write_varint_bytes(bytes_view{}); }) == "00");
}

BOOST_AUTO_TEST_CASE(writer_appends_after_existing_content) {
  std::vector<char> out{'x'};
  byte_writer w(out);
  w.write_i16(1);
  BOOST_TEST(w.size() == 3u);
  BOOST_TEST(to_hex(view(out)) == "780001");
}

BOOST_AUTO_TEST_CASE(a_string_longer_than_its_prefix_allows_throws) {
  std::string big(40000, 'x');
  std::vector<char> out;
  BOOST_CHECK_THROW(byte_writer(out).write_string(big), std::length_error);
}

BOOST_AUTO_TEST_CASE(everything_written_reads_back) {
  std::vector<char> out;
  byte_writer w(out);
  w.write_i8(-5);
  w.write_i16(-300);
  w.write_i32(123456789);
  w.write_i64(-9876543210);
  w.write_u32(0xFFFFFFFEu);
  w.write_varint(-123456);
  w.write_varlong(std::numeric_limits<int64_t>::max());
  w.write_uvarint(0xFFFFFFFFu);
  w.write_string("topic");
  w.write_nullable_string(std::nullopt);
  w.write_bytes("raw");
  w.write_nullable_bytes(bytes_view{""});
  w.write_varint_bytes(bytes_view{"key"});

  byte_reader r(view(out));
  BOOST_TEST(r.read_i8() == -5);
  BOOST_TEST(r.read_i16() == -300);
  BOOST_TEST(r.read_i32() == 123456789);
  BOOST_TEST(r.read_i64() == -9876543210);
  BOOST_TEST(r.read_u32() == 0xFFFFFFFEu);
  BOOST_TEST(r.read_varint() == -123456);
  BOOST_TEST(r.read_varlong() == std::numeric_limits<int64_t>::max());
  BOOST_TEST(r.read_uvarint() == 0xFFFFFFFFu);
  BOOST_TEST(r.read_string() == "topic");
  BOOST_TEST(!r.read_nullable_string().has_value());
  BOOST_TEST(r.read_bytes() == "raw");
  auto empty = r.read_nullable_bytes();
  BOOST_TEST((empty.has_value() && empty->empty()));
  BOOST_TEST(r.read_varint_bytes().value_or("null") == "key");
  BOOST_TEST(r.ok());
  BOOST_TEST(r.remaining() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
