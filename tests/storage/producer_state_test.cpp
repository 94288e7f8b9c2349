// The idempotent producer state of a partition: the leader's checks in Kafka's order
// (ProducerAppendInfo, ProducerStateEntry), the 5-batch dedupe window, sequence wrap,
// expiry, transactions, and Kafka's .snapshot format byte by byte.
#include <boost/test/unit_test.hpp>

#include <limits>
#include <string>

#include "protocol/batch_header.hpp"
#include "protocol/crc32c.hpp"
#include "protocol/endian.hpp"
#include "storage/errc.hpp"
#include "storage/producer_state.hpp"

using namespace cafka;
using namespace cafka::storage;
using protocol::batch_header;

namespace {

constexpr int32_t int32_max = std::numeric_limits<int32_t>::max();

// The header of a data batch of `records` records from producer `pid`.
batch_header batch(int64_t pid, int16_t epoch, int32_t seq, int64_t base_offset = 0, int32_t records = 1,
                   int64_t max_timestamp = 1000) {
  batch_header h;
  h.producer_id = pid;
  h.producer_epoch = epoch;
  h.base_sequence = seq;
  h.base_offset = base_offset;
  h.last_offset_delta = records - 1;
  h.record_count = records;
  h.max_timestamp = max_timestamp;
  return h;
}

producer_check outcome(const producer_state& s, const batch_header& h) {
  return s.check(h).outcome;
}

// check() then record(), as the leader does; the batch must be accepted.
void append(producer_state& s, const batch_header& h) {
  BOOST_TEST_REQUIRE((outcome(s, h) == producer_check::append));
  s.record(h);
}

const producer_entry& entry(const producer_state& s, int64_t pid) {
  return s.entries().at(pid);
}

std::string from_hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

// Rewrites the CRC of a snapshot after a deliberate change to its body.
void fix_crc(std::string& bytes) {
  protocol::store_be(bytes.data() + 2, protocol::crc32c(bytes.data() + 6, bytes.size() - 6));
}

bool refused(std::string_view bytes) {
  auto r = decode_producer_snapshot(bytes);
  return !r && r.error() == make_error_code(errc::corrupt_checkpoint);
}

} // namespace

BOOST_AUTO_TEST_SUITE(producer_state_checks)

BOOST_AUTO_TEST_CASE(an_unknown_producer_is_accepted_at_any_sequence) {
  producer_state s;
  BOOST_TEST((outcome(s, batch(7, 0, 0)) == producer_check::append));
  BOOST_TEST((outcome(s, batch(7, 0, 42)) == producer_check::append));
  BOOST_TEST((outcome(s, batch(7, 3, 1000)) == producer_check::append));
  s.record(batch(7, 0, 42, 10, 3));
  auto& e = entry(s, 7);
  BOOST_TEST(e.epoch == 0);
  BOOST_TEST_REQUIRE(e.batches.size() == 1u);
  BOOST_TEST((e.batches.back() == producer_batch{42, 44, 10, 12, 1000}));
  BOOST_TEST(e.last_timestamp == 1000);
}

BOOST_AUTO_TEST_CASE(batches_without_producer_id_and_control_batches_are_not_tracked) {
  producer_state s;
  BOOST_TEST((outcome(s, batch(-1, -1, -1)) == producer_check::append));
  s.record(batch(-1, -1, -1));
  auto control = batch(7, 0, 5);
  control.attributes = protocol::batch_attributes::control;
  s.record(control);
  BOOST_TEST(s.empty());
}

BOOST_AUTO_TEST_CASE(sequences_continue_in_order) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 5));
  append(s, batch(7, 0, 5, 5, 1));
  append(s, batch(7, 0, 6, 6, 4));
  BOOST_TEST((outcome(s, batch(7, 0, 10)) == producer_check::append));
  BOOST_TEST(entry(s, 7).batches.back().last_seq == 9);
}

BOOST_AUTO_TEST_CASE(a_gap_or_a_step_back_is_out_of_order) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 5));
  BOOST_TEST((outcome(s, batch(7, 0, 6)) == producer_check::out_of_order_sequence));
  BOOST_TEST((outcome(s, batch(7, 0, 4)) == producer_check::out_of_order_sequence));
  // Same first sequence but a different last one is not a duplicate.
  BOOST_TEST((outcome(s, batch(7, 0, 0, 0, 4)) == producer_check::out_of_order_sequence));
}

BOOST_AUTO_TEST_CASE(each_of_the_last_five_batches_is_a_duplicate_with_its_offsets) {
  producer_state s;
  // Six batches of 2 records: sequences 0-1, 2-3, ..., 10-11 at offsets 100-101, 102-103, ...
  for (int i = 0; i < 6; ++i)
    append(s, batch(7, 0, 2 * i, 100 + 2 * i, 2, 1000 + i));
  BOOST_TEST(entry(s, 7).batches.size() == producer_state::batches_kept);
  for (int i = 1; i < 6; ++i) {
    auto v = s.check(batch(7, 0, 2 * i, 0, 2, 5000));
    BOOST_TEST_REQUIRE((v.outcome == producer_check::duplicate));
    BOOST_TEST((v.original == producer_batch{2 * i, 2 * i + 1, 100 + 2 * i, 101 + 2 * i, 1000 + i}));
  }
  // The 6th-last fell out of the window: an old sequence, so out of order.
  BOOST_TEST((outcome(s, batch(7, 0, 0, 0, 2)) == producer_check::out_of_order_sequence));
}

BOOST_AUTO_TEST_CASE(an_older_epoch_is_invalid) {
  producer_state s;
  append(s, batch(7, 2, 0, 0, 3));
  BOOST_TEST((outcome(s, batch(7, 1, 3)) == producer_check::invalid_producer_epoch));
  BOOST_TEST((outcome(s, batch(7, 1, 0)) == producer_check::invalid_producer_epoch));
  // A retry of a cached batch under an older epoch is not a duplicate either.
  BOOST_TEST((outcome(s, batch(7, 1, 0, 0, 3)) == producer_check::invalid_producer_epoch));
}

BOOST_AUTO_TEST_CASE(a_bumped_epoch_restarts_at_sequence_zero_and_clears_the_cache) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 2));
  append(s, batch(7, 0, 2, 2, 2));
  append(s, batch(7, 1, 0, 4, 3, 2000));
  auto& e = entry(s, 7);
  BOOST_TEST(e.epoch == 1);
  BOOST_TEST_REQUIRE(e.batches.size() == 1u);
  BOOST_TEST((e.batches.front() == producer_batch{0, 2, 4, 6, 2000}));
  BOOST_TEST(e.last_timestamp == 2000);
  // The old epoch's batches are no longer duplicates: fenced instead.
  BOOST_TEST((outcome(s, batch(7, 0, 2, 0, 2)) == producer_check::invalid_producer_epoch));
  BOOST_TEST((outcome(s, batch(7, 1, 3)) == producer_check::append));
}

BOOST_AUTO_TEST_CASE(a_bumped_epoch_at_a_later_sequence_is_out_of_order) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 5));
  BOOST_TEST((outcome(s, batch(7, 1, 5)) == producer_check::out_of_order_sequence));
}

BOOST_AUTO_TEST_CASE(replicated_batches_are_recorded_without_checks) {
  producer_state s;
  s.record(batch(7, 3, 0, 0, 2));
  s.record(batch(7, 3, 9, 2, 1)); // a gap: recorded all the same
  s.record(batch(7, 2, 4, 3, 1)); // a lower epoch: taken as is, as Kafka's REPLICATION origin
  auto& e = entry(s, 7);
  BOOST_TEST(e.epoch == 2);
  BOOST_TEST(e.batches.size() == 1u);
}

BOOST_AUTO_TEST_CASE(sequences_wrap_after_int32_max) {
  BOOST_TEST(increment_sequence(int32_max - 1, 3) == 1);
  BOOST_TEST(increment_sequence(int32_max, 1) == 0);
  BOOST_TEST(increment_sequence(5, 3) == 8);
  BOOST_TEST(decrement_sequence(1, 3) == int32_max - 1);
  BOOST_TEST(decrement_sequence(8, 3) == 5);
  producer_state s;
  append(s, batch(7, 0, int32_max - 2, 0, 3)); // ends exactly at INT32_MAX
  BOOST_TEST((outcome(s, batch(7, 0, int32_max)) == producer_check::out_of_order_sequence));
  append(s, batch(7, 0, 0, 3, 1)); // INT32_MAX -> 0
  s = producer_state{};
  append(s, batch(7, 0, int32_max - 1, 0, 4)); // spans the wrap: last sequence 1
  BOOST_TEST(entry(s, 7).batches.back().last_seq == 1);
  BOOST_TEST((outcome(s, batch(7, 0, int32_max - 1, 0, 4)) == producer_check::duplicate));
  BOOST_TEST((outcome(s, batch(7, 0, 2)) == producer_check::append));
}

BOOST_AUTO_TEST_CASE(idle_producers_expire_and_are_then_unknown) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 5, 1000));
  append(s, batch(8, 0, 0, 5, 5, 1001));
  BOOST_TEST(s.expire(5999, 5000) == 0u);
  BOOST_TEST(s.expire(6000, 5000) == 1u); // now - last_timestamp >= expiration
  BOOST_TEST(s.entries().count(7) == 0u);
  BOOST_TEST(s.entries().count(8) == 1u);
  BOOST_TEST((outcome(s, batch(7, 0, 123)) == producer_check::append));
  BOOST_TEST((outcome(s, batch(8, 0, 123)) == producer_check::out_of_order_sequence));
}

BOOST_AUTO_TEST_CASE(expiry_looks_at_the_last_batch_timestamp) {
  producer_state s;
  append(s, batch(7, 0, 0, 0, 1, 9000));
  append(s, batch(7, 0, 1, 1, 1, 1000)); // a producer clock going back counts as is
  BOOST_TEST(entry(s, 7).last_timestamp == 1000);
  BOOST_TEST(s.expire(6000, 5000) == 1u);
}

namespace {

batch_header txn_batch(int64_t pid, int16_t epoch, int32_t seq, int64_t base_offset, int32_t records = 1) {
  auto h = batch(pid, epoch, seq, base_offset, records);
  h.attributes = protocol::batch_attributes::transactional;
  return h;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_transactional_batch_opens_a_transaction_a_marker_closes_it) {
  producer_state s;
  append(s, txn_batch(7, 0, 0, 10, 2));
  append(s, txn_batch(7, 0, 2, 12));
  append(s, txn_batch(8, 0, 0, 13));
  BOOST_TEST(entry(s, 7).txn_first_offset == 10);
  BOOST_TEST(*s.first_open_txn_offset() == 10);
  // Aborting 7's: the last stable offset after it is 8's open transaction.
  auto done = s.record_marker(7, 0, 3, false, 14, 5000);
  BOOST_REQUIRE(done);
  BOOST_TEST(done->first_offset == 10);
  BOOST_TEST(done->last_offset == 14);
  BOOST_TEST(done->aborted);
  BOOST_TEST(s.last_stable_offset_after(*done) == 13);
  BOOST_TEST(entry(s, 7).txn_first_offset == -1);
  BOOST_TEST(entry(s, 7).coordinator_epoch == 3);
  BOOST_TEST(*s.first_open_txn_offset() == 13);
  auto committed = s.record_marker(8, 0, 3, true, 15, 5000);
  BOOST_REQUIRE(committed);
  BOOST_TEST(!committed->aborted);
  BOOST_TEST(s.last_stable_offset_after(*committed) == 16); // none open: the marker's offset + 1
  BOOST_TEST(!s.first_open_txn_offset());
  // A marker of an empty transaction completes nothing.
  BOOST_TEST(!s.record_marker(8, 0, 3, true, 16, 5000));
}

BOOST_AUTO_TEST_CASE(a_plain_batch_during_an_open_transaction_is_invalid_txn_state) {
  producer_state s;
  append(s, txn_batch(7, 0, 0, 0));
  BOOST_TEST((outcome(s, batch(7, 0, 1, 1)) == producer_check::invalid_txn_state));
  // A retried transactional batch is still a duplicate, a gap still out of order.
  BOOST_TEST((outcome(s, txn_batch(7, 0, 0, 0)) == producer_check::duplicate));
  BOOST_TEST((outcome(s, batch(7, 0, 5, 1)) == producer_check::out_of_order_sequence));
}

BOOST_AUTO_TEST_CASE(markers_are_checked_against_producer_and_coordinator_epochs) {
  producer_state s;
  BOOST_TEST((s.check_marker(7, 0, 0) == producer_check::append)); // unknown producer
  append(s, txn_batch(7, 2, 0, 0));
  BOOST_TEST((s.check_marker(7, 1, 0) == producer_check::invalid_producer_epoch));
  BOOST_TEST((s.check_marker(7, 3, 0) == producer_check::append)); // a fencing abort bumps it
  s.record_marker(7, 3, 5, false, 1, 1000);
  BOOST_TEST(entry(s, 7).epoch == 3);
  BOOST_TEST(entry(s, 7).batches.empty()); // a new epoch starts over
  BOOST_TEST((s.check_marker(7, 3, 4) == producer_check::coordinator_fenced));
  BOOST_TEST((s.check_marker(7, 3, 5) == producer_check::append));
}

BOOST_AUTO_TEST_CASE(a_producer_with_an_open_transaction_does_not_expire) {
  producer_state s;
  append(s, txn_batch(7, 0, 0, 0));
  append(s, batch(8, 0, 0, 1));
  BOOST_TEST(s.expire(1'000'000, 10) == 1u);
  BOOST_TEST(s.entries().count(7) == 1u);
}

BOOST_AUTO_TEST_CASE(the_snapshot_keeps_open_transactions_and_coordinator_epochs) {
  producer_state s;
  append(s, txn_batch(7, 1, 0, 40, 3));
  append(s, txn_batch(8, 0, 0, 43));
  s.record_marker(8, 0, 9, true, 44, 2000);
  auto loaded = decode_producer_snapshot(encode_producer_snapshot(s));
  BOOST_REQUIRE(loaded);
  BOOST_TEST(entry(*loaded, 7).txn_first_offset == 40);
  BOOST_TEST(entry(*loaded, 8).coordinator_epoch == 9);
  BOOST_TEST(*loaded->first_open_txn_offset() == 40);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(producer_state_snapshots)

BOOST_AUTO_TEST_CASE(one_producer_in_kafka_layout) {
  producer_state s;
  s.record(batch(1000, 3, 10, 100, 5, 1700000000000)); // sequences 10-14, offsets 100-104
  // version 1 | crc | count 1 | producer_id 1000, epoch 3, last_sequence 14, last_offset 104,
  // offset_delta 4, timestamp 0x18bcfe56800, coordinator_epoch -1, current_txn_first_offset -1.
  // The CRC-32C of bytes [6, 56) was computed independently (bitwise, polynomial 0x82F63B78).
  std::string expected = from_hex("0001"
                                  "badc6fe6"
                                  "00000001"
                                  "00000000000003e8"
                                  "0003"
                                  "0000000e"
                                  "0000000000000068"
                                  "00000004"
                                  "0000018bcfe56800"
                                  "ffffffff"
                                  "ffffffffffffffff");
  auto bytes = encode_producer_snapshot(s);
  BOOST_TEST(bytes.size() == 10u + 46u);
  BOOST_TEST(bytes == expected);
  BOOST_TEST(protocol::load_be<uint32_t>(bytes.data() + 2) == protocol::crc32c(bytes.data() + 6, 50));
  auto back = decode_producer_snapshot(bytes);
  BOOST_TEST_REQUIRE(bool(back));
  BOOST_TEST((*back == s));
}

BOOST_AUTO_TEST_CASE(round_trip_keeps_the_last_batch_of_each_producer) {
  producer_state s;
  for (int i = 0; i < 4; ++i)
    s.record(batch(5, 1, 3 * i, 10 * i, 3, 100 + i));
  s.record(batch(6, 0, int32_max - 1, 50, 4, 200)); // spans the sequence wrap
  s.record(batch(4, 7, 0, 60, 1, -1));
  auto back = decode_producer_snapshot(encode_producer_snapshot(s));
  BOOST_TEST_REQUIRE(bool(back));
  BOOST_TEST_REQUIRE(back->entries().size() == 3u);
  for (auto& [id, e] : s.entries()) {
    auto& loaded = entry(*back, id);
    BOOST_TEST(loaded.epoch == e.epoch);
    BOOST_TEST(loaded.last_timestamp == e.last_timestamp);
    BOOST_TEST_REQUIRE(loaded.batches.size() == 1u);
    BOOST_TEST((loaded.batches.back() == e.batches.back()));
  }
  // After a load the dedupe window is the last batch only.
  BOOST_TEST((outcome(*back, batch(5, 1, 9, 0, 3)) == producer_check::duplicate));
  BOOST_TEST((outcome(*back, batch(5, 1, 6, 0, 3)) == producer_check::out_of_order_sequence));
  BOOST_TEST((outcome(*back, batch(5, 1, 12)) == producer_check::append));
  BOOST_TEST((outcome(*back, batch(6, 0, 2)) == producer_check::append));
}

BOOST_AUTO_TEST_CASE(an_empty_state_is_ten_bytes) {
  auto bytes = encode_producer_snapshot(producer_state{});
  BOOST_TEST(bytes.size() == 10u);
  BOOST_TEST(bytes.substr(0, 2) == from_hex("0001"));
  BOOST_TEST(bytes.substr(6) == from_hex("00000000"));
  auto back = decode_producer_snapshot(bytes);
  BOOST_TEST_REQUIRE(bool(back));
  BOOST_TEST(back->empty());
}

BOOST_AUTO_TEST_CASE(an_entry_without_data_loads_without_batches) {
  // Kafka writes a producer whose only batches were control batches with last_offset -1.
  std::string bytes = from_hex("0001" "00000000" "00000001"
                               "0000000000000009" "0002" "ffffffff" "ffffffffffffffff" "00000000"
                               "00000000000003e8" "ffffffff" "ffffffffffffffff");
  fix_crc(bytes);
  auto back = decode_producer_snapshot(bytes);
  BOOST_TEST_REQUIRE(bool(back));
  auto& e = entry(*back, 9);
  BOOST_TEST(e.epoch == 2);
  BOOST_TEST(e.batches.empty());
  BOOST_TEST(e.last_timestamp == 1000);
  // Kafka's rules for an entry with an epoch but no sequence: only 0 continues it.
  BOOST_TEST((outcome(*back, batch(9, 2, 0)) == producer_check::append));
  BOOST_TEST((outcome(*back, batch(9, 2, 5)) == producer_check::out_of_order_sequence));
  BOOST_TEST((outcome(*back, batch(9, 1, 0)) == producer_check::invalid_producer_epoch));
  BOOST_TEST(encode_producer_snapshot(*back) == bytes);
}

BOOST_AUTO_TEST_CASE(corrupt_snapshots_are_refused) {
  producer_state s;
  s.record(batch(1000, 3, 10, 100, 5, 1700000000000));
  s.record(batch(2000, 0, 0, 105, 1, 1700000000001));
  const std::string good = encode_producer_snapshot(s);
  BOOST_TEST_REQUIRE(bool(decode_producer_snapshot(good)));
  for (size_t i = 0; i < good.size(); ++i) {
    auto bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    BOOST_TEST(refused(bad), "flipped byte " << i);
  }
  for (size_t n = 0; n < good.size(); ++n)
    BOOST_TEST(refused(good.substr(0, n)), "cut to " << n << " bytes");
  auto v2 = good; // the version is outside the CRC: only the version check catches it
  v2[1] = 2;
  BOOST_TEST(refused(v2));
  auto trailing = good + '\0';
  fix_crc(trailing);
  BOOST_TEST(refused(trailing));
  auto negative = good;
  protocol::store_be<int32_t>(negative.data() + 6, -1);
  fix_crc(negative);
  BOOST_TEST(refused(negative));
  auto twice = good; // the second entry's producer id made equal to the first's
  protocol::store_be<int64_t>(twice.data() + 10 + 46, 1000);
  fix_crc(twice);
  BOOST_TEST(refused(twice));
  auto bad_delta = good; // offset_delta above last_offset
  protocol::store_be<int32_t>(bad_delta.data() + 10 + 8 + 2 + 4 + 8, 1000);
  fix_crc(bad_delta);
  BOOST_TEST(refused(bad_delta));
}

BOOST_AUTO_TEST_SUITE_END()
