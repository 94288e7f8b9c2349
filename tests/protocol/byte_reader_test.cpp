#include <boost/test/unit_test.hpp>

#include <limits>

#include "protocol/byte_reader.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

BOOST_AUTO_TEST_SUITE(byte_reader_suite)

BOOST_AUTO_TEST_CASE(reads_big_endian_integers) {
  auto bytes = from_hex("fe 0102 ffffffff 0102030405060708");
  byte_reader r(view(bytes));
  BOOST_TEST(r.read_i8() == -2);
  BOOST_TEST(r.read_i16() == 0x0102);
  BOOST_TEST(r.read_i32() == -1);
  BOOST_TEST(r.read_i64() == 0x0102030405060708);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.position() == 15u);
}

BOOST_AUTO_TEST_CASE(reading_past_the_end_fails_with_truncated_and_returns_zero) {
  auto bytes = from_hex("000102");
  byte_reader r(view(bytes));
  BOOST_TEST(r.read_i32() == 0);
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.error() == err(errc::truncated));
  BOOST_TEST(r.remaining() == 0u);
}

BOOST_AUTO_TEST_CASE(the_first_error_sticks_and_later_reads_return_nothing) {
  auto bytes = from_hex("ffff 41414141");
  byte_reader r(view(bytes));
  r.read_string(); // length -1 is not allowed for STRING
  BOOST_TEST(r.error() == err(errc::bad_length));
  BOOST_TEST(r.read_i8() == 0); // the bytes are there, but the reader has stopped
  r.fail(errc::bad_record);
  BOOST_TEST(r.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(nullable_lengths_of_minus_one_are_null_and_below_are_bad_length) {
  auto null_string = from_hex("ffff");
  BOOST_TEST(!byte_reader(view(null_string)).read_nullable_string().has_value());
  auto null_bytes = from_hex("ffffffff");
  BOOST_TEST(!byte_reader(view(null_bytes)).read_nullable_bytes().has_value());
  auto null_varint = from_hex("01");
  BOOST_TEST(!byte_reader(view(null_varint)).read_varint_bytes().has_value());

  auto minus_two = from_hex("fffffffe");
  byte_reader r(view(minus_two));
  r.read_nullable_bytes();
  BOOST_TEST(r.error() == err(errc::bad_length));
  auto varint_minus_two = from_hex("03");
  byte_reader v(view(varint_minus_two));
  v.read_varint_bytes();
  BOOST_TEST(v.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(a_hostile_length_fails_without_reading_or_allocating) {
  auto bytes = from_hex("7fffffff 616263"); // claims 2 GiB, has 3 bytes
  byte_reader r(view(bytes));
  BOOST_TEST(r.read_bytes().empty());
  BOOST_TEST(r.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(strings_are_views_into_the_input) {
  auto bytes = from_hex("0003 616263");
  byte_reader r(view(bytes));
  auto s = r.read_string();
  BOOST_TEST(s == "abc");
  BOOST_TEST(static_cast<const void*>(s.data()) == static_cast<const void*>(bytes.data() + 2));
}

BOOST_AUTO_TEST_CASE(varints_decode_zigzag_values) {
  auto bytes = from_hex("00 01 02 7f 8001 d804 feffffff0f ffffffff0f ffffffffffffffffff01");
  byte_reader r(view(bytes));
  BOOST_TEST(r.read_varint() == 0);
  BOOST_TEST(r.read_varint() == -1);
  BOOST_TEST(r.read_varint() == 1);
  BOOST_TEST(r.read_varint() == -64);
  BOOST_TEST(r.read_varint() == 64);
  BOOST_TEST(r.read_varint() == 300);
  BOOST_TEST(r.read_varint() == 2147483647);
  BOOST_TEST(r.read_varint() == -2147483647 - 1);
  BOOST_TEST(r.read_varlong() == std::numeric_limits<int64_t>::min());
  BOOST_TEST(r.ok());
  BOOST_TEST(r.remaining() == 0u);
}

BOOST_AUTO_TEST_CASE(an_overlong_varint_fails_with_bad_varint) {
  auto six_bytes = from_hex("ffffffffff01");
  byte_reader r(view(six_bytes));
  r.read_varint();
  BOOST_TEST(r.error() == err(errc::bad_varint));
  BOOST_TEST(r.position() == 5u); // stopped after the longest legal encoding

  auto eleven_bytes = from_hex("ffffffffffffffffffff01");
  byte_reader l(view(eleven_bytes));
  l.read_varlong();
  BOOST_TEST(l.error() == err(errc::bad_varint));
}

BOOST_AUTO_TEST_CASE(a_varint_cut_short_fails_with_truncated) {
  auto bytes = from_hex("8080");
  byte_reader r(view(bytes));
  r.read_varint();
  BOOST_TEST(r.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(unsigned_varints_are_not_zigzag) {
  auto bytes = from_hex("01 ac02 ffffffff0f");
  byte_reader r(view(bytes));
  BOOST_TEST(r.read_uvarint() == 1u);
  BOOST_TEST(r.read_uvarint() == 300u);
  BOOST_TEST(r.read_uvarint() == 0xFFFFFFFFu);
}

BOOST_AUTO_TEST_CASE(rest_and_raw_reads_expose_the_remaining_bytes) {
  auto bytes = from_hex("01020304");
  byte_reader r(view(bytes));
  BOOST_TEST(to_hex(r.read_raw(1)) == "01");
  BOOST_TEST(to_hex(r.rest()) == "020304");
  r.skip(2);
  BOOST_TEST(r.remaining() == 1u);
  r.skip(2);
  BOOST_TEST(r.error() == err(errc::truncated));
  BOOST_TEST(r.rest().empty());
}

BOOST_AUTO_TEST_CASE(never_reads_out_of_bounds_on_any_prefix_of_random_input) {
  // Run every read kind over every prefix of some random bytes; ASan checks the bounds.
  auto data = random_bytes(64, 17);
  for (size_t n = 0; n <= data.size(); ++n) {
    for (int kind = 0; kind < 8; ++kind) {
      byte_reader r(bytes_view{data.data(), n});
      while (r.ok() && r.remaining() > 0) {
        switch (kind) {
          case 0: r.read_i64(); break;
          case 1: r.read_varint(); break;
          case 2: r.read_varlong(); break;
          case 3: r.read_string(); break;
          case 4: r.read_nullable_string(); break;
          case 5: r.read_bytes(); break;
          case 6: r.read_nullable_bytes(); break;
          case 7: r.read_varint_bytes(); break;
        }
      }
      BOOST_TEST(r.position() <= n);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
