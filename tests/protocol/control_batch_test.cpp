// Transaction marker batches (protocol/control_batch.hpp) against Kafka's layout.
#include <boost/test/unit_test.hpp>

#include "protocol/control_batch.hpp"
#include "protocol/endian.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

BOOST_AUTO_TEST_SUITE(control_batch)

BOOST_AUTO_TEST_CASE(a_commit_marker_has_kafkas_layout) {
  auto batch = build_txn_marker_batch(4242, 3, {control_type::commit, 7}, 1'700'000'000'000);
  BOOST_TEST(batch.size() == 78u); // 61 header + a 17-byte record
  auto h = validate_batch(bytes_view{batch.data(), batch.size()});
  BOOST_REQUIRE(h);
  BOOST_TEST(h->attributes == 0x30);
  BOOST_TEST(h->producer_id == 4242);
  BOOST_TEST(h->producer_epoch == 3);
  BOOST_TEST(h->base_sequence == -1);
  BOOST_TEST(h->record_count == 1);
  BOOST_TEST(h->max_timestamp == 1'700'000'000'000);
  // The record: length 16, attributes, timestamp and offset deltas, key (4 bytes: version 0,
  // type 1), value (6 bytes: version 0, coordinator epoch 7), no headers.
  auto record = to_hex(bytes_view{batch.data() + batch_layout::header_size, 17});
  BOOST_TEST(record == to_hex(view(from_hex("20 00 00 00 08 00000001 0c 0000 00000007 00"))));
  auto marker = read_txn_marker(bytes_view{batch.data(), batch.size()});
  BOOST_REQUIRE(marker);
  BOOST_REQUIRE(marker->has_value());
  BOOST_TEST(((**marker) == txn_marker{control_type::commit, 7}));
}

BOOST_AUTO_TEST_CASE(an_abort_marker_reads_back) {
  auto batch = build_txn_marker_batch(1, 0, {control_type::abort, 0}, 5);
  auto marker = read_txn_marker(bytes_view{batch.data(), batch.size()});
  BOOST_REQUIRE(marker);
  BOOST_REQUIRE(marker->has_value());
  BOOST_TEST(!(*marker)->commits());
}

BOOST_AUTO_TEST_CASE(a_data_batch_is_not_a_marker) {
  auto batch = build_batch({{str("k"), str("v"), {}, 1}});
  auto marker = read_txn_marker(bytes_view{batch.data(), batch.size()});
  BOOST_REQUIRE(!marker);
  BOOST_TEST(marker.error() == err(errc::bad_record));
}

BOOST_AUTO_TEST_CASE(another_control_type_is_no_marker) {
  auto batch = build_txn_marker_batch(1, 0, {control_type::commit, 0}, 5);
  // Type 3 (KRaft's LEADER_CHANGE): readers ignore it.
  store_be(batch.data() + batch_layout::header_size + 5 + 2, int16_t{3});
  update_crc(batch.data(), batch.size());
  auto marker = read_txn_marker(bytes_view{batch.data(), batch.size()});
  BOOST_REQUIRE(marker);
  BOOST_TEST(!marker->has_value());
}

BOOST_AUTO_TEST_CASE(a_torn_marker_fails_its_crc) {
  auto batch = build_txn_marker_batch(1, 0, {control_type::commit, 0}, 5);
  batch.back() ^= 1;
  BOOST_TEST(!read_txn_marker(bytes_view{batch.data(), batch.size()}));
}

BOOST_AUTO_TEST_SUITE_END()
