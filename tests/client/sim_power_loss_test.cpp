// What a simulated power loss leaves of a partition log (sim/power_loss.hpp), with the
// storage alone: the flushed part always survives, a kept prefix of the rest survives as
// far as its whole batches go, and a prefix ending inside a batch (a torn write) is cut by
// the log's recovery at the next open.
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "fixtures.hpp"
#include "protocol/record_batch.hpp"
#include "sim/power_loss.hpp"
#include "storage/partition_log.hpp"

using namespace cafka;

namespace {

// A log of 3 flushed batches (offsets 0..2) and 4 more written but not fsynced (3..6),
// each batch one record of value "v<offset>".
std::unique_ptr<storage::partition_log> written_log(const std::string& dir) {
  auto log = storage::partition_log::open(dir, storage::log_config{}, 0, false, 1'700'000'000'000);
  BOOST_REQUIRE(log);
  for (int i = 0; i < 7; ++i) {
    auto batch = protocol::build_batch({protocol::record{std::nullopt, "v" + std::to_string(i), {}, 1'700'000'000'000}});
    BOOST_REQUIRE((*log)->append(batch, 1'700'000'000'000));
    if (i == 2)
      BOOST_REQUIRE((*log)->flush());
  }
  BOOST_REQUIRE_EQUAL((*log)->recovery_point(), 3);
  BOOST_REQUIRE_EQUAL((*log)->log_end_offset(), 7);
  return std::move((*log));
}

// The log end after a power loss that keeps `keep_fraction` of the unflushed bytes.
int64_t end_after_power_loss(double keep_fraction, uint64_t& kept_bytes) {
  client_test::temp_dir dir;
  sim::torn_tail tail;
  {
    auto log = written_log(dir.path);
    auto cut = sim::cut_unflushed(*log, keep_fraction);
    BOOST_REQUIRE_MESSAGE(cut, cut.error().message());
    tail = *cut;
    BOOST_TEST(tail.lost_offsets == 4);
    BOOST_TEST(log->log_end_offset() == 3);
  } // closed without a flush or a clean-shutdown mark
  kept_bytes = tail.bytes.size();
  BOOST_REQUIRE(sim::write_torn_tail(tail));
  auto reopened = storage::partition_log::open(dir.path, storage::log_config{}, 0, false, 1'700'000'000'000);
  BOOST_REQUIRE(reopened);
  auto& log = *(*reopened);
  // Whatever survived reads back whole, in order, from offset 0.
  auto bytes = log.read(0, 1 << 20);
  BOOST_REQUIRE(bytes);
  int64_t next = 0;
  size_t pos = 0;
  while (pos < bytes->size()) {
    auto header = protocol::for_each_record(protocol::bytes_view(bytes->data() + pos, bytes->size() - pos), 1 << 20,
                                            [&](const protocol::record_view& r) {
                                              BOOST_TEST(r.offset == next);
                                              BOOST_TEST(std::string(*r.value) ==
                                                         "v" + std::to_string(next));
                                              ++next;
                                            });
    BOOST_REQUIRE(header);
    pos += size_t(header->batch_length) + 12;
  }
  BOOST_TEST(next == log.log_end_offset());
  return log.log_end_offset();
}

} // namespace

BOOST_AUTO_TEST_SUITE(sim_power_loss)

BOOST_AUTO_TEST_CASE(keeping_nothing_cuts_back_to_the_recovery_point) {
  uint64_t kept = 0;
  BOOST_TEST(end_after_power_loss(0.0, kept) == 3);
  BOOST_TEST(kept == 0u);
}

BOOST_AUTO_TEST_CASE(keeping_everything_loses_nothing) {
  uint64_t kept = 0;
  BOOST_TEST(end_after_power_loss(1.0, kept) == 7);
  BOOST_TEST(kept > 0u);
}

BOOST_AUTO_TEST_CASE(a_torn_batch_is_cut_and_the_whole_ones_before_it_stay) {
  // 0.6 of 4 equal batches: two whole ones and 40 % of the third, which recovery removes.
  uint64_t kept = 0;
  BOOST_TEST(end_after_power_loss(0.6, kept) == 5);
  auto batch_size = protocol::build_batch({protocol::record{std::nullopt, "v3", {}, 1'700'000'000'000}}).size();
  BOOST_TEST(kept > 2 * batch_size);
  BOOST_TEST(kept < 3 * batch_size);
}

BOOST_AUTO_TEST_CASE(a_flushed_log_has_nothing_to_lose) {
  client_test::temp_dir dir;
  auto log = written_log(dir.path);
  BOOST_REQUIRE(log->flush());
  auto cut = sim::cut_unflushed(*log, 1.0);
  BOOST_REQUIRE(cut);
  BOOST_TEST(cut->lost_offsets == 0);
  BOOST_TEST(cut->bytes.empty());
  BOOST_TEST(log->log_end_offset() == 7);
}

BOOST_AUTO_TEST_SUITE_END()
