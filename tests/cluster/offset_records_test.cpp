// Records of __consumer_offsets: keys and values byte for byte against Kafka's schemas
// (OffsetCommitKey, OffsetCommitValue), batches round trip, tombstones, and record kinds or
// versions the decoder does not know are skipped.
#include "cluster/offset_records.hpp"

#include <stdexcept>

#include <boost/test/unit_test.hpp>

#include "protocol/batch_header.hpp"
#include "protocol/record_batch.hpp"
#include "tests/protocol/test_support.hpp"

using namespace cafka::cluster;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;
namespace protocol = cafka::protocol;

namespace {

std::string hex_string(std::string_view hex) {
  auto bytes = from_hex(hex);
  return {bytes.begin(), bytes.end()};
}

committed_offset commit(int64_t offset, int64_t ts, std::string metadata = "") {
  committed_offset c;
  c.offset = offset;
  c.leader_epoch = 5;
  c.metadata = std::move(metadata);
  c.commit_timestamp_ms = ts;
  return c;
}

std::vector<offset_update> sample_updates() {
  auto with_expiry = commit(7, 1000);
  with_expiry.leader_epoch = -1; // value v1 has no leader epoch
  with_expiry.expire_timestamp_ms = 5000;
  return {{{"g1", "t", 0}, commit(42, 1000, "m")},
          {{"g1", "t", 1}, with_expiry},
          {{"g2", "orders", 3}, commit(0, 1001)},
          {{"g1", "t", 0}, std::nullopt}};
}

} // namespace

BOOST_AUTO_TEST_SUITE(offset_records)

BOOST_AUTO_TEST_CASE(key_is_version_1_group_topic_partition) {
  BOOST_TEST(encode_offset_key({"g1", "t", 3})
             == hex_string("0001  0002 6731  0001 74  00000003"));
  BOOST_TEST(encode_offset_key({"", "", -1}) == hex_string("0001 0000 0000 ffffffff"));
}

BOOST_AUTO_TEST_CASE(value_version_3_has_the_leader_epoch) {
  auto c = commit(42, 1000, "m");
  BOOST_TEST(offset_value_version(c) == 3);
  BOOST_TEST(encode_offset_value(c, 3)
             == hex_string("0003 000000000000002a 00000005 0001 6d 00000000000003e8"));
}

BOOST_AUTO_TEST_CASE(value_version_1_has_the_expire_timestamp) {
  auto c = commit(42, 1000);
  c.expire_timestamp_ms = 2000;
  BOOST_TEST(offset_value_version(c) == 1);
  BOOST_TEST(encode_offset_value(c, 1)
             == hex_string("0001 000000000000002a 0000 00000000000003e8 00000000000007d0"));
  c.expire_timestamp_ms.reset();
  BOOST_TEST(encode_offset_value(c, 1)
             == hex_string("0001 000000000000002a 0000 00000000000003e8 ffffffffffffffff"));
  BOOST_CHECK_THROW(encode_offset_value(c, 2), std::invalid_argument);
  BOOST_CHECK_THROW(encode_offset_value(c, 4), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(keys_decode_from_versions_0_and_1) {
  auto k1 = decode_offset_key(hex_string("0001 0002 6731 0001 74 00000003"));
  BOOST_REQUIRE(k1);
  BOOST_REQUIRE(k1->has_value());
  BOOST_TEST(((**k1) == offset_key{"g1", "t", 3}));
  auto k0 = decode_offset_key(hex_string("0000 0002 6731 0001 74 00000003 ffff")); // + trailing
  BOOST_REQUIRE(k0);
  BOOST_TEST(((**k0) == offset_key{"g1", "t", 3}));
}

BOOST_AUTO_TEST_CASE(other_key_kinds_are_not_offsets) {
  // Version 2: group metadata (GroupMetadataKey), just the group.
  auto group = decode_offset_key(hex_string("0002 0002 6731"));
  BOOST_REQUIRE(group);
  BOOST_TEST(!group->has_value());
  // Newer record kinds of Kafka's group coordinator, and nonsense versions.
  for (auto hex : {"0003 0002 6731", "0010", "ffff 00"}) {
    auto k = decode_offset_key(hex_string(hex));
    BOOST_REQUIRE(k);
    BOOST_TEST(!k->has_value(), hex);
  }
}

BOOST_AUTO_TEST_CASE(malformed_keys_are_errors) {
  BOOST_TEST(decode_offset_key(hex_string("00")).error() == err(protocol::errc::truncated));
  BOOST_TEST(decode_offset_key(hex_string("0001 0002 67")).error()
             == err(protocol::errc::truncated));
  BOOST_TEST(decode_offset_key(hex_string("0001 0002 6731 0001 74 0000")).error()
             == err(protocol::errc::truncated));
  BOOST_TEST(decode_offset_key(hex_string("0001 ffff")).error()
             == err(protocol::errc::bad_length));
}

BOOST_AUTO_TEST_CASE(values_decode_from_every_known_version) {
  auto expect = [](std::string_view hex, committed_offset want) {
    auto v = decode_offset_value(hex_string(hex));
    BOOST_REQUIRE_MESSAGE(v, hex);
    BOOST_REQUIRE_MESSAGE(v->has_value(), hex);
    BOOST_TEST(((**v) == want), hex);
  };
  committed_offset c;
  c.offset = 42;
  c.metadata = "m";
  c.commit_timestamp_ms = 1000;
  // v0 and v2: no leader epoch (-1), no expiry.
  expect("0000 000000000000002a 0001 6d 00000000000003e8", c);
  expect("0002 000000000000002a 0001 6d 00000000000003e8", c);
  // v1: expire -1 means none.
  expect("0001 000000000000002a 0001 6d 00000000000003e8 ffffffffffffffff", c);
  auto expiring = c;
  expiring.expire_timestamp_ms = 2000;
  expect("0001 000000000000002a 0001 6d 00000000000003e8 00000000000007d0", expiring);
  // v3: leader epoch.
  auto epoch = c;
  epoch.leader_epoch = 5;
  expect("0003 000000000000002a 00000005 0001 6d 00000000000003e8", epoch);
  // v4 (flexible): compact metadata and a tag buffer, here with one unknown tagged field.
  expect("0004 000000000000002a 00000005 02 6d 00000000000003e8 00", epoch);
  expect("0004 000000000000002a 00000005 02 6d 00000000000003e8 01 07 02 abcd", epoch);
}

BOOST_AUTO_TEST_CASE(unknown_value_versions_are_skipped_and_malformed_values_fail) {
  auto v5 = decode_offset_value(hex_string("0005 000000000000002a"));
  BOOST_REQUIRE(v5);
  BOOST_TEST(!v5->has_value());
  BOOST_TEST(decode_offset_value(hex_string("0003 000000000000002a 00000005 0001"))
               .error()
             == err(protocol::errc::truncated));
  BOOST_TEST(decode_offset_value({}).error() == err(protocol::errc::truncated));
}

BOOST_AUTO_TEST_CASE(one_batch_holds_one_record_per_update) {
  auto updates = sample_updates();
  auto batch = encode_offset_batch(updates, 1234);
  auto header = protocol::validate_batch(view(batch));
  BOOST_REQUIRE(header);
  BOOST_TEST(header->record_count == 4);
  BOOST_TEST((header->codec() == protocol::compression_codec::none));
  auto records = protocol::read_records(view(batch), 1 << 20);
  BOOST_REQUIRE(records);
  BOOST_REQUIRE(records->size() == 4u);
  auto& r = *records;
  BOOST_TEST(*r[0].key == encode_offset_key({"g1", "t", 0}));
  BOOST_TEST(*r[0].value == encode_offset_value(updates[0].value.value(), 3));
  BOOST_TEST(*r[1].value == encode_offset_value(updates[1].value.value(), 1));
  BOOST_TEST(*r[3].key == encode_offset_key({"g1", "t", 0}));
  BOOST_TEST(!r[3].value.has_value()); // the tombstone's value is null, not empty
  for (auto& rec : r)
    BOOST_TEST(rec.timestamp == 1234);
}

BOOST_AUTO_TEST_CASE(batches_round_trip) {
  auto updates = sample_updates();
  auto batch = encode_offset_batch(updates, 1234);
  auto decoded = decode_offset_batches(view(batch));
  BOOST_REQUIRE(decoded);
  BOOST_TEST((decoded->updates == updates));
  BOOST_TEST(decoded->skipped_records == 0u);
  BOOST_TEST(decoded->next_offset == 4);
  BOOST_TEST(decoded->bytes == batch.size());
}

BOOST_AUTO_TEST_CASE(several_batches_in_one_buffer_decode_in_order) {
  auto updates = sample_updates();
  auto first = encode_offset_batch({updates[0], updates[1]}, 1);
  auto second = encode_offset_batch({updates[2], updates[3]}, 2);
  protocol::set_base_offset(second.data(), 2);
  auto log = first;
  log.insert(log.end(), second.begin(), second.end());
  auto decoded = decode_offset_batches(view(log));
  BOOST_REQUIRE(decoded);
  BOOST_TEST((decoded->updates == updates));
  BOOST_TEST(decoded->next_offset == 4);
  BOOST_TEST(decoded->bytes == log.size());
}

BOOST_AUTO_TEST_CASE(large_updates_split_into_bounded_batches) {
  std::vector<offset_update> updates;
  for (int32_t p = 0; p < 100; ++p)
    updates.push_back({{"group", "topic", p}, commit(p, 1000, std::string(20, 'x'))});
  constexpr size_t max_batch = 500;
  auto buffer = encode_offset_batches(updates, 1000, max_batch);
  size_t batches = 0;
  for (size_t pos = 0; pos < buffer.size(); ++batches) {
    auto header = protocol::validate_batch(view(buffer).substr(pos));
    BOOST_REQUIRE(header);
    BOOST_TEST(header->total_size() <= max_batch);
    pos += header->total_size();
  }
  BOOST_TEST(batches > 1u);
  auto decoded = decode_offset_batches(view(buffer));
  BOOST_REQUIRE(decoded);
  BOOST_TEST((decoded->updates == updates));
  // Unbounded: one batch.
  BOOST_TEST(encode_offset_batches(updates, 1000, SIZE_MAX) == encode_offset_batch(updates, 1000));
}

BOOST_AUTO_TEST_CASE(no_updates_no_batch) {
  BOOST_TEST(encode_offset_batch({}, 1).empty());
  BOOST_TEST(encode_offset_batches({}, 1, 1000).empty());
  auto decoded = decode_offset_batches({});
  BOOST_REQUIRE(decoded);
  BOOST_TEST(decoded->updates.empty());
  BOOST_TEST(decoded->bytes == 0u);
}

BOOST_AUTO_TEST_CASE(records_of_other_kinds_are_skipped) {
  std::vector<protocol::record> records;
  // Group metadata (key v2) with some value: newer code writes these beside offsets.
  records.push_back({hex_string("0002 0002 6731"), hex_string("0003 0008 636f6e73756d6572"), {}, 1});
  // No key at all.
  records.push_back({std::nullopt, std::string("x"), {}, 1});
  // An offset key with a value version from the future.
  records.push_back({encode_offset_key({"g1", "t", 0}), hex_string("0009 0102"), {}, 1});
  // A record kind of a newer coordinator.
  records.push_back({hex_string("000b 0002 6731"), std::nullopt, {}, 1});
  // And one offset commit that must come through.
  records.push_back({encode_offset_key({"g1", "t", 1}),
                     encode_offset_value(commit(9, 1, "meta"), 3), {}, 1});
  auto batch = protocol::build_batch(records);
  auto decoded = decode_offset_batches(view(batch));
  BOOST_REQUIRE(decoded);
  BOOST_TEST(decoded->skipped_records == 4u);
  BOOST_REQUIRE(decoded->updates.size() == 1u);
  BOOST_TEST((decoded->updates[0] == offset_update{{"g1", "t", 1}, commit(9, 1, "meta")}));
}

BOOST_AUTO_TEST_CASE(control_batches_are_never_read_as_offsets) {
  // A transaction marker (key version 0, type 1: COMMIT), which would parse as an offset key
  // of version 0, is a step of its producer; a control record of an unknown type is skipped.
  auto marker = protocol::build_batch({{hex_string("0000 0001"), hex_string("0000 00000000"), {}, 1}});
  marker[protocol::batch_layout::attributes + 1] |= protocol::batch_attributes::control;
  protocol::update_crc(marker.data(), marker.size());
  auto unknown = protocol::build_batch({{hex_string("0000 0009"), hex_string("0000 00000000"), {}, 1}});
  unknown[protocol::batch_layout::attributes + 1] |= protocol::batch_attributes::control;
  protocol::update_crc(unknown.data(), unknown.size());
  auto log = encode_offset_batch(sample_updates(), 1);
  log.insert(log.end(), marker.begin(), marker.end());
  log.insert(log.end(), unknown.begin(), unknown.end());
  auto decoded = decode_offset_batches(view(log));
  BOOST_REQUIRE(decoded);
  BOOST_TEST((decoded->updates == sample_updates()));
  BOOST_REQUIRE(decoded->steps.size() == 2u);
  BOOST_TEST((decoded->steps[1].commit == std::optional<bool>{true}));
  BOOST_TEST(decoded->skipped_records == 1u);
}

BOOST_AUTO_TEST_CASE(corrupt_batches_and_malformed_records_are_errors) {
  auto batch = encode_offset_batch(sample_updates(), 1);
  auto corrupt = batch;
  corrupt.back() ^= 1;
  BOOST_TEST(decode_offset_batches(view(corrupt)).error() == err(protocol::errc::bad_crc));
  auto truncated = view(batch).substr(0, batch.size() - 1);
  BOOST_TEST(decode_offset_batches(truncated).error() == err(protocol::errc::truncated));
  // A well-formed batch whose offset key (version 1) is cut short.
  auto bad_key = protocol::build_batch({{hex_string("0001 0002 6731"), std::string("v"), {}, 1}});
  BOOST_TEST(decode_offset_batches(view(bad_key)).error() == err(protocol::errc::truncated));
}

BOOST_AUTO_TEST_SUITE_END()
