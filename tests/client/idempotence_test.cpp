// The idempotent producer's pure parts (client/idempotence.hpp) and the producer settings
// that decide idempotence (client/producer_config.hpp).
#include "client/idempotence.hpp"

#include <boost/test/unit_test.hpp>

#include "client/consumer_records.hpp"
#include "client/producer_config.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/control_batch.hpp"

using namespace cafka;
using namespace cafka::client;
using protocol::kafka_error;

namespace {

const steady_time t0{std::chrono::seconds(1000)};

// One sealed batch of `n` records for `tp`, as the producer's accumulator builds it.
sealed_batch batch_of(const storage::topic_partition& tp, int n) {
  record_accumulator acc{accumulator_config{1 << 20, std::chrono::milliseconds(0)}};
  for (int i = 0; i < n; ++i)
    acc.append(tp, protocol::record{std::nullopt, std::string("v") + std::to_string(i), {}, 1'700'000'000'000},
               static_cast<uint64_t>(i + 1), t0);
  auto all = acc.drain_all();
  BOOST_REQUIRE_EQUAL(all.size(), 1u);
  return std::move(all.front());
}

// Stamps `b` as if written at `base_offset` and appends it to `log`.
void put(std::vector<char>& log, std::vector<char> b, int64_t base_offset) {
  protocol::set_base_offset(b.data(), base_offset);
  log.insert(log.end(), b.begin(), b.end());
}

} // namespace

BOOST_AUTO_TEST_SUITE(idempotence_tests)

BOOST_AUTO_TEST_CASE(numbering_writes_the_header_fields_and_a_valid_crc) {
  batch_numbering numbering;
  producer_identity who{4711, 3};
  storage::topic_partition tp{"t", 0};
  auto first = batch_of(tp, 3);
  auto second = batch_of(tp, 2);
  auto other = batch_of({"t", 1}, 1);
  numbering.number(first, who, false);
  numbering.number(second, who, true);
  numbering.number(other, who, false);
  auto h1 = protocol::validate_batch(protocol::bytes_view{first.bytes.data(), first.bytes.size()});
  auto h2 = protocol::validate_batch(protocol::bytes_view{second.bytes.data(), second.bytes.size()});
  BOOST_REQUIRE(h1);
  BOOST_REQUIRE(h2);
  BOOST_TEST(h1->producer_id == 4711);
  BOOST_TEST(h1->producer_epoch == 3);
  BOOST_TEST(h1->base_sequence == 0);
  BOOST_TEST(!h1->is_transactional());
  BOOST_TEST(h2->base_sequence == 3); // after the first batch's 3 records
  BOOST_TEST(h2->is_transactional());
  BOOST_TEST(second.base_sequence == 3);
  BOOST_TEST(other.base_sequence == 0); // each partition counts on its own
  BOOST_TEST(numbering.next(tp) == 5);
  numbering.reset();
  BOOST_TEST(numbering.next(tp) == 0);
}

BOOST_AUTO_TEST_CASE(sequences_wrap_after_int32_max) {
  batch_numbering numbering;
  producer_identity who{1, 0};
  storage::topic_partition tp{"t", 0};
  // Walk close to the end with big (fake) batches: only the token count matters.
  auto big = batch_of(tp, 1);
  big.tokens.assign(1'000'000, 0);
  for (int i = 0; i < 2147; ++i)
    numbering.number(big, who, false);
  BOOST_TEST(numbering.next(tp) == 2'147'000'000);
  auto small = batch_of(tp, 1);
  small.tokens.assign(483'647, 0);
  numbering.number(small, who, false);
  BOOST_TEST(numbering.next(tp) == INT32_MAX);
  auto last = batch_of(tp, 2);
  numbering.number(last, who, false);
  BOOST_TEST(last.base_sequence == INT32_MAX);
  BOOST_TEST(numbering.next(tp) == 1); // INT32_MAX, then 0, then 1 next
}

BOOST_AUTO_TEST_CASE(produce_errors_are_classified_as_kafka_clients_do) {
  BOOST_TEST((classify_produce_error(kafka_error::duplicate_sequence_number, false) == sequence_outcome::duplicate));
  BOOST_TEST((classify_produce_error(kafka_error::out_of_order_sequence_number, false) == sequence_outcome::broken));
  BOOST_TEST((classify_produce_error(kafka_error::unknown_producer_id, true) == sequence_outcome::broken));
  BOOST_TEST((classify_produce_error(kafka_error::invalid_producer_epoch, false) == sequence_outcome::broken));
  BOOST_TEST((classify_produce_error(kafka_error::invalid_producer_epoch, true) == sequence_outcome::fenced));
  BOOST_TEST((classify_produce_error(kafka_error::producer_fenced, false) == sequence_outcome::fenced));
  BOOST_TEST((classify_produce_error(kafka_error::not_leader_or_follower, false) == sequence_outcome::other));
  auto code = [](kafka_error e) { return protocol::wire_code(e); };
  BOOST_TEST((classify_coordinator_code(0) == coordinator_outcome::done));
  BOOST_TEST((classify_coordinator_code(code(kafka_error::concurrent_transactions)) == coordinator_outcome::retry));
  BOOST_TEST((classify_coordinator_code(code(kafka_error::coordinator_load_in_progress)) == coordinator_outcome::retry));
  BOOST_TEST((classify_coordinator_code(code(kafka_error::not_coordinator)) == coordinator_outcome::relocate));
  BOOST_TEST((classify_coordinator_code(code(kafka_error::producer_fenced)) == coordinator_outcome::fenced));
  BOOST_TEST((classify_coordinator_code(code(kafka_error::invalid_txn_state)) == coordinator_outcome::failed));
}

BOOST_AUTO_TEST_CASE(idempotence_is_on_by_default_unless_settings_conflict) {
  producer_config cfg;
  BOOST_TEST(cfg.acks == -1);
  BOOST_TEST(idempotent(cfg));
  BOOST_TEST(!static_cast<bool>(validate(cfg, false)));
  cfg.acks = 1; // conflicting, not asked for: off (Kafka 3.2+)
  BOOST_TEST(!idempotent(cfg));
  BOOST_TEST(!static_cast<bool>(validate(cfg, false)));
  cfg.enable_idempotence = true; // asked for with acks=1: refused
  BOOST_TEST(static_cast<bool>(validate(cfg, false)));
  cfg.acks = -1;
  cfg.max_in_flight = 6;
  BOOST_TEST(static_cast<bool>(validate(cfg, false)));
  cfg.max_in_flight = 5;
  BOOST_TEST(!static_cast<bool>(validate(cfg, false)));
  cfg.enable_idempotence = false;
  BOOST_TEST(!idempotent(cfg));
  cfg.transactional_id = "tx";
  BOOST_TEST(static_cast<bool>(validate(cfg, false))); // a transactional id needs idempotence
  cfg.enable_idempotence.reset();
  BOOST_TEST(idempotent(cfg));
  BOOST_TEST(!static_cast<bool>(validate(cfg, false)));
}

BOOST_AUTO_TEST_CASE(read_committed_skips_aborted_transactions_up_to_their_abort_marker) {
  // Offsets: 0-1 producer 7 (aborted), 2-3 producer 8 (committed), 4 ABORT marker of 7,
  // 5 COMMIT marker of 8, 6 producer 7 again (a later, committed transaction), 7 plain.
  storage::topic_partition tp{"t", 0};
  auto txn_batch = [&](int64_t pid, int n) {
    auto b = batch_of(tp, n);
    write_producer_fields(b.bytes, pid, 0, 0, true);
    return b.bytes;
  };
  std::vector<char> log;
  put(log, txn_batch(7, 2), 0);
  put(log, txn_batch(8, 2), 2);
  put(log, protocol::build_txn_marker_batch(7, 0, {protocol::control_type::abort, 0}, 1), 4);
  put(log, protocol::build_txn_marker_batch(8, 0, {protocol::control_type::commit, 0}, 1), 5);
  put(log, txn_batch(7, 1), 6);
  put(log, batch_of(tp, 1).bytes, 7);
  consumer_records recs{tp, 0, 8, 8, log, {{7, 0}}};
  std::vector<int64_t> seen;
  auto err = for_each_record(recs, [&](const protocol::record_view& r) { seen.push_back(r.offset); });
  BOOST_TEST(!err);
  BOOST_TEST(seen == (std::vector<int64_t>{2, 3, 6, 7}), boost::test_tools::per_element());
  // Without the aborted list (read_uncommitted) every data record is there.
  recs.aborted.clear();
  seen.clear();
  BOOST_TEST(!for_each_record(recs, [&](const protocol::record_view& r) { seen.push_back(r.offset); }));
  BOOST_TEST(seen == (std::vector<int64_t>{0, 1, 2, 3, 6, 7}), boost::test_tools::per_element());
  // Fetched from offset 2: the range that started before is still known (it starts at 0).
  consumer_records later{tp, 2, 8, 8, log, {{7, 0}}};
  seen.clear();
  BOOST_TEST(!for_each_record(later, [&](const protocol::record_view& r) { seen.push_back(r.offset); }));
  BOOST_TEST(seen == (std::vector<int64_t>{2, 3, 6, 7}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
