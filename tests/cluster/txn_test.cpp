// The transaction coordinator's pure parts: __transaction_state records byte for byte against
// Kafka's TransactionLogKey / TransactionLogValue v0, and the state transitions of
// cluster/txn_transitions.hpp in Kafka's rules (AK 3.6 TransactionCoordinator).
#include <boost/test/unit_test.hpp>

#include "cluster/txn_log.hpp"
#include "cluster/txn_transitions.hpp"
#include "protocol/record_batch.hpp"
#include "tests/protocol/test_support.hpp"

using namespace cafka::cluster;
using cafka::protocol::kafka_error;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

std::string hex_of(const std::string& s) { return to_hex({s.data(), s.size()}); }
std::string hex(const char* spaced) { return to_hex(view(from_hex(spaced))); }

txn_metadata ongoing(int64_t pid = 7, int16_t epoch = 2) {
  txn_metadata m;
  m.producer_id = pid;
  m.producer_epoch = epoch;
  m.timeout_ms = 60000;
  m.status = txn_status::ongoing;
  m.partitions = {{"orders", {0, 1}}};
  m.start_ms = 1000;
  m.last_update_ms = 1000;
  return m;
}

txn_metadata with_status(txn_metadata m, txn_status s) {
  m.status = s;
  if (s == txn_status::empty || s == txn_status::complete_commit || s == txn_status::complete_abort)
    m.partitions.clear();
  return m;
}

bool is(const txn_step& step, kafka_error e) { return step.error == e; }

} // namespace

BOOST_AUTO_TEST_SUITE(txn_log_records)

BOOST_AUTO_TEST_CASE(key_and_value_have_kafkas_v0_layout) {
  BOOST_TEST(hex_of(encode_txn_key("tx")) == hex("0000 0002 7478"));
  auto m = ongoing();
  BOOST_TEST(hex_of(encode_txn_value(m)) ==
             hex("0000 0000000000000007 0002 0000ea60 01"
                 "00000001 0006 6f7264657273 00000002 00000000 00000001"
                 "00000000000003e8 00000000000003e8"));
  // Empty: partitions null.
  auto empty = with_status(m, txn_status::empty);
  empty.start_ms = -1;
  BOOST_TEST(hex_of(encode_txn_value(empty)) ==
             hex("0000 0000000000000007 0002 0000ea60 00 ffffffff 00000000000003e8 ffffffffffffffff"));
}

BOOST_AUTO_TEST_CASE(values_round_trip_and_unknown_versions_are_skipped) {
  auto m = ongoing();
  auto back = decode_txn_value(encode_txn_value(m));
  BOOST_REQUIRE(back);
  BOOST_REQUIRE(back->has_value());
  BOOST_TEST(((**back) == m));
  auto v9 = encode_txn_value(m);
  v9[1] = 9;
  auto skipped = decode_txn_value(v9);
  BOOST_REQUIRE(skipped);
  BOOST_TEST(!skipped->has_value());
  auto bad_status = encode_txn_value(m);
  bad_status[2 + 8 + 2 + 4] = 42;
  BOOST_TEST(!decode_txn_value(bad_status));
  auto torn = encode_txn_value(m);
  torn.pop_back();
  BOOST_TEST(!decode_txn_value(torn));
}

BOOST_AUTO_TEST_CASE(batches_carry_states_and_tombstones_in_order) {
  auto a = encode_txn_batch({"a", ongoing()}, 5);
  auto b = encode_txn_batch({"b", std::nullopt}, 6);
  a.insert(a.end(), b.begin(), b.end());
  auto read = decode_txn_batches({a.data(), a.size()});
  BOOST_REQUIRE(read);
  BOOST_TEST(read->next_offset == 1); // each batch starts at offset 0 until a log assigns offsets
  auto* entries = &read->entries;
  BOOST_REQUIRE(entries->size() == 2u);
  BOOST_TEST((*entries)[0].transactional_id == "a");
  BOOST_TEST(((*(*entries)[0].metadata) == ongoing()));
  BOOST_TEST(!(*entries)[1].metadata);
}

BOOST_AUTO_TEST_CASE(ids_map_to_partitions_as_kafka_maps_them) {
  // Java: "my-txn".hashCode() = -1061187895; Utils.abs of it % 50 = 45.
  BOOST_TEST(txn_partition_for("my-txn", 50) == 45);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(txn_transitions)

BOOST_AUTO_TEST_CASE(a_new_id_gets_a_fresh_producer_at_epoch_0) {
  BOOST_TEST(txn_needs_new_producer_id(std::nullopt));
  auto step = init_txn_producer(std::nullopt, false, 60000, 900000, -1, -1, 1000, 4242);
  BOOST_TEST(is(step, kafka_error::none));
  BOOST_TEST(step.producer_id == 4242);
  BOOST_TEST(step.producer_epoch == 0);
  BOOST_REQUIRE(step.write);
  BOOST_TEST((step.write->status == txn_status::empty));
  BOOST_TEST(is(init_txn_producer(std::nullopt, false, 0, 900000, -1, -1, 1000, 1), kafka_error::invalid_transaction_timeout));
  BOOST_TEST(is(init_txn_producer(std::nullopt, false, 900001, 900000, -1, -1, 1000, 1),
                kafka_error::invalid_transaction_timeout));
}

BOOST_AUTO_TEST_CASE(a_known_id_is_bumped_and_an_open_transaction_fenced) {
  auto done = with_status(ongoing(7, 2), txn_status::complete_commit);
  auto step = init_txn_producer(done, false, 60000, 900000, -1, -1, 2000, -1);
  BOOST_TEST(is(step, kafka_error::none));
  BOOST_TEST(step.producer_id == 7);
  BOOST_TEST(step.producer_epoch == 3);
  BOOST_TEST((step.write->status == txn_status::empty));
  // Ongoing: the new epoch aborts it; the client hears CONCURRENT_TRANSACTIONS and retries.
  auto fence = init_txn_producer(ongoing(7, 2), false, 60000, 900000, -1, -1, 2000, -1);
  BOOST_TEST(is(fence, kafka_error::concurrent_transactions));
  BOOST_REQUIRE(fence.write);
  BOOST_TEST((fence.write->status == txn_status::prepare_abort));
  BOOST_TEST(fence.write->producer_epoch == 3);
  BOOST_TEST(fence.write->partitions.size() == 1u); // the markers go to these
  // While markers are written, or another write is in flight: retry later.
  BOOST_TEST(is(init_txn_producer(*fence.write, false, 60000, 900000, -1, -1, 2000, -1), kafka_error::concurrent_transactions));
  BOOST_TEST(is(init_txn_producer(done, true, 60000, 900000, -1, -1, 2000, -1), kafka_error::concurrent_transactions));
}

BOOST_AUTO_TEST_CASE(kip_360_bumps_retries_and_fences) {
  auto done = with_status(ongoing(7, 2), txn_status::complete_abort);
  auto bump = init_txn_producer(done, false, 60000, 900000, 7, 2, 2000, -1);
  BOOST_REQUIRE(bump.write);
  BOOST_TEST(bump.producer_epoch == 3);
  // The client never heard the answer and asks again with epoch 2: the same answer, no write.
  auto retry = init_txn_producer(*bump.write, false, 60000, 900000, 7, 2, 2100, -1);
  BOOST_TEST(is(retry, kafka_error::none));
  BOOST_TEST(retry.producer_epoch == 3);
  BOOST_TEST(!retry.write);
  BOOST_TEST(is(init_txn_producer(*bump.write, false, 60000, 900000, 7, 1, 2100, -1), kafka_error::producer_fenced));
  BOOST_TEST(is(init_txn_producer(*bump.write, false, 60000, 900000, 8, 3, 2100, -1), kafka_error::producer_fenced));
  BOOST_TEST(is(init_txn_producer(*bump.write, false, 60000, 900000, 7, -1, 2100, -1), kafka_error::invalid_request));
}

BOOST_AUTO_TEST_CASE(an_exhausted_epoch_takes_a_new_producer_id) {
  auto done = with_status(ongoing(7, max_txn_epoch), txn_status::complete_commit);
  BOOST_TEST(txn_needs_new_producer_id(done));
  auto step = init_txn_producer(done, false, 60000, 900000, -1, -1, 2000, 99);
  BOOST_TEST(step.producer_id == 99);
  BOOST_TEST(step.producer_epoch == 0);
  // The client that asked with the old id at the exhausted epoch, retrying: the new id.
  auto retry = init_txn_producer(*step.write, false, 60000, 900000, 7, max_txn_epoch, 2100, -1);
  BOOST_TEST(retry.producer_id == 99);
  BOOST_TEST(!retry.write);
}

BOOST_AUTO_TEST_CASE(partitions_join_the_transaction_once) {
  auto empty = with_status(ongoing(7, 2), txn_status::empty);
  auto step = add_txn_partitions(empty, false, 7, 2, {{"orders", {0}}}, 5000);
  BOOST_TEST(is(step, kafka_error::none));
  BOOST_REQUIRE(step.write);
  BOOST_TEST((step.write->status == txn_status::ongoing));
  BOOST_TEST(step.write->start_ms == 5000);
  auto again = add_txn_partitions(*step.write, false, 7, 2, {{"orders", {0}}}, 6000);
  BOOST_TEST(is(again, kafka_error::none));
  BOOST_TEST(!again.write);
  auto more = add_txn_partitions(*step.write, false, 7, 2, {{"orders", {1}}, {"__consumer_offsets", {3}}}, 6000);
  BOOST_TEST(more.write->partitions.size() == 2u);
  BOOST_TEST(more.write->start_ms == 5000);
  BOOST_TEST(is(add_txn_partitions(std::nullopt, false, 7, 2, {{"o", {0}}}, 0), kafka_error::invalid_producer_id_mapping));
  BOOST_TEST(is(add_txn_partitions(empty, false, 8, 2, {{"o", {0}}}, 0), kafka_error::invalid_producer_id_mapping));
  BOOST_TEST(is(add_txn_partitions(empty, false, 7, 1, {{"o", {0}}}, 0), kafka_error::producer_fenced));
  BOOST_TEST(is(add_txn_partitions(with_status(ongoing(), txn_status::prepare_commit), false, 7, 2, {{"o", {0}}}, 0),
                kafka_error::concurrent_transactions));
}

BOOST_AUTO_TEST_CASE(end_txn_prepares_and_retries_are_answered) {
  auto step = end_txn(ongoing(), false, 7, 2, true, 7000);
  BOOST_TEST(is(step, kafka_error::none));
  BOOST_TEST((step.write->status == txn_status::prepare_commit));
  BOOST_TEST(is(end_txn(*step.write, false, 7, 2, true, 7000), kafka_error::concurrent_transactions));
  BOOST_TEST(is(end_txn(*step.write, false, 7, 2, false, 7000), kafka_error::invalid_txn_state));
  auto complete = complete_txn(*step.write, 7100);
  BOOST_TEST((complete.status == txn_status::complete_commit));
  BOOST_TEST(complete.partitions.empty());
  auto retry = end_txn(complete, false, 7, 2, true, 7200);
  BOOST_TEST(is(retry, kafka_error::none));
  BOOST_TEST(!retry.write);
  BOOST_TEST(is(end_txn(complete, false, 7, 2, false, 7200), kafka_error::invalid_txn_state));
  BOOST_TEST(is(end_txn(with_status(ongoing(), txn_status::empty), false, 7, 2, true, 0), kafka_error::invalid_txn_state));
  BOOST_TEST(is(end_txn(ongoing(), false, 7, 1, true, 0), kafka_error::producer_fenced));
}

BOOST_AUTO_TEST_CASE(a_transaction_past_its_timeout_is_aborted_at_a_new_epoch) {
  auto m = ongoing(7, 2); // started at 1000, 60 s
  BOOST_TEST(!abort_if_timed_out(m, 61000));
  auto abort = abort_if_timed_out(m, 61001);
  BOOST_REQUIRE(abort);
  BOOST_TEST((abort->status == txn_status::prepare_abort));
  BOOST_TEST(abort->producer_epoch == 3);
  BOOST_TEST(!abort_if_timed_out(with_status(m, txn_status::empty), 1'000'000));
}

BOOST_AUTO_TEST_SUITE_END()
