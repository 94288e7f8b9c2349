#include <boost/test/unit_test.hpp>

#include "protocol/record_batch.hpp"
#include "golden_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

std::vector<record> golden_records() {
  return {
      {str("k"), str("v1"), {}, 1000},
      {std::nullopt, str("hello"), {{"h", str("x")}}, 1005},
      {str("k"), std::nullopt, {}, 999},
  };
}

} // namespace

BOOST_AUTO_TEST_SUITE(record_batch_golden_suite)

BOOST_AUTO_TEST_CASE(builder_output_matches_the_hand_derived_bytes) {
  auto batch = build_batch(golden_records());
  BOOST_TEST(to_hex(view(batch)) == to_hex(view(from_hex(golden_batch_hex))));
}

BOOST_AUTO_TEST_CASE(reader_decodes_the_hand_derived_bytes) {
  auto bytes = from_hex(golden_batch_hex);
  auto records = read_records(view(bytes), 1 << 20);
  BOOST_REQUIRE(records);
  BOOST_REQUIRE(records->size() == 3u);
  const auto& r = *records;
  BOOST_TEST(r[0].offset == 0);
  BOOST_TEST(r[0].timestamp == 1000);
  BOOST_CHECK(r[0].key == str("k"));
  BOOST_CHECK(r[0].value == str("v1"));
  BOOST_TEST(r[0].headers.empty());
  BOOST_TEST(r[1].offset == 1);
  BOOST_TEST(r[1].timestamp == 1005);
  BOOST_CHECK(!r[1].key);
  BOOST_CHECK(r[1].value == str("hello"));
  BOOST_REQUIRE(r[1].headers.size() == 1u);
  BOOST_TEST(r[1].headers[0].key == "h");
  BOOST_CHECK(r[1].headers[0].value == str("x"));
  BOOST_TEST(r[2].offset == 2);
  BOOST_TEST(r[2].timestamp == 999);
  BOOST_CHECK(r[2].key == str("k"));
  BOOST_CHECK(!r[2].value);
}

BOOST_AUTO_TEST_CASE(offsets_follow_a_rewritten_base_offset) {
  auto bytes = from_hex(golden_batch_hex);
  set_base_offset(bytes.data(), 500);
  auto records = read_records(view(bytes), 1 << 20);
  BOOST_REQUIRE(records);
  BOOST_TEST((*records)[0].offset == 500);
  BOOST_TEST((*records)[2].offset == 502);
}

BOOST_AUTO_TEST_SUITE_END()
