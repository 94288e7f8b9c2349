#include "client/consumer_records.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "actors/errors.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/record_batch.hpp"

using namespace cafka;
using namespace cafka::client;

namespace {

// A batch of `n` records with base offset `base` (values "v<offset>").
std::vector<char> batch_at(int64_t base, int n, protocol::compression_codec codec = protocol::compression_codec::none) {
  std::vector<protocol::record> recs;
  for (int i = 0; i < n; ++i)
    recs.push_back(protocol::record{std::nullopt, "v" + std::to_string(base + i), {}, 100 + i});
  auto b = protocol::build_batch(recs, codec);
  protocol::set_base_offset(b.data(), base);
  return b;
}

void append(std::vector<char>& out, const std::vector<char>& b) {
  out.insert(out.end(), b.begin(), b.end());
}

} // namespace

BOOST_AUTO_TEST_SUITE(consumer_records_tests)

BOOST_AUTO_TEST_CASE(records_below_the_fetch_offset_are_skipped) {
  consumer_records recs;
  recs.tp = {"t", 0};
  append(recs.batches, batch_at(10, 5));
  append(recs.batches, batch_at(15, 5, protocol::compression_codec::lz4));
  recs.fetch_offset = 12;
  auto out = records(recs);
  BOOST_REQUIRE(out.size() == 8u);
  BOOST_TEST(out.front().offset == 12);
  BOOST_TEST(*out.front().value == "v12");
  BOOST_TEST(out.back().offset == 19);
  BOOST_TEST(!out.back().key);
  BOOST_TEST((next_fetch_offset(recs.batches) == 20));
}

BOOST_AUTO_TEST_CASE(control_batches_are_skipped) {
  consumer_records recs;
  auto control = batch_at(0, 1);
  // attributes are big-endian at byte 21; set the control bit and fix the CRC.
  control[protocol::batch_layout::attributes + 1] |= static_cast<char>(protocol::batch_attributes::control);
  protocol::update_crc(control.data(), control.size());
  append(recs.batches, control);
  append(recs.batches, batch_at(1, 2));
  auto out = records(recs);
  BOOST_REQUIRE(out.size() == 2u);
  BOOST_TEST(out[0].offset == 1);
}

BOOST_AUTO_TEST_CASE(an_incomplete_trailing_batch_is_ignored) {
  std::vector<char> bytes;
  append(bytes, batch_at(0, 3));
  auto whole = bytes.size();
  auto next = batch_at(3, 3);
  bytes.insert(bytes.end(), next.begin(), next.begin() + 20);
  BOOST_TEST((next_fetch_offset(bytes) == 3));
  BOOST_TEST(complete_batches_size(bytes) == whole);
  BOOST_TEST(!next_fetch_offset(std::vector<char>(next.begin(), next.begin() + 20)));
}

BOOST_AUTO_TEST_CASE(a_corrupt_batch_is_a_typed_error) {
  consumer_records recs;
  append(recs.batches, batch_at(0, 3));
  recs.batches.back() ^= 0x55; // breaks the CRC
  auto res = decode_records(recs);
  BOOST_REQUIRE(!res);
  BOOST_TEST((to_kafka_error(res.error()) == kafka_error::corrupt_message));
  BOOST_CHECK_THROW(records(recs), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(messages_serialize_for_remote_consumers) {
  consumer_records recs;
  recs.tp = {"t", 3};
  recs.fetch_offset = 11;
  recs.next_offset = 15;
  recs.high_watermark = 20;
  append(recs.batches, batch_at(10, 5));
  consumer_error err{{"t", 3}, caf::make_error(kafka_error::offset_out_of_range, "at 99"), 99};
  auto pos = start_position::at_timestamp(1234);
  std::vector<char> buf;
  caf::binary_serializer sink{nullptr, buf};
  BOOST_REQUIRE(!sink(recs, err, pos));
  consumer_records recs2;
  consumer_error err2;
  start_position pos2;
  caf::binary_deserializer source{nullptr, buf};
  BOOST_REQUIRE(!source(recs2, err2, pos2));
  BOOST_TEST(recs2.tp.topic == "t");
  BOOST_TEST(recs2.tp.partition == 3);
  BOOST_TEST(recs2.fetch_offset == 11);
  BOOST_TEST(recs2.next_offset == 15);
  BOOST_TEST(recs2.high_watermark == 20);
  BOOST_TEST((recs2.batches == recs.batches));
  BOOST_TEST(records(recs2).size() == 4u);
  BOOST_TEST((err2.error == err.error));
  BOOST_TEST(err2.offset == 99);
  BOOST_TEST((pos2.what == start_position::kind::timestamp));
  BOOST_TEST(pos2.value == 1234);
}

BOOST_AUTO_TEST_CASE(start_positions_print) {
  BOOST_TEST(to_string(start_position::earliest()) == "earliest");
  BOOST_TEST(to_string(start_position::latest()) == "latest");
  BOOST_TEST(to_string(start_position::at_offset(42)) == "offset 42");
  BOOST_TEST(to_string(start_position::at_timestamp(7)) == "timestamp 7");
}

BOOST_AUTO_TEST_SUITE_END()
