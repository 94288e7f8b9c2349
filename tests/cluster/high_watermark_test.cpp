// The leader's high watermark: Kafka's Partition.scala maybeIncrementLeaderHW and UnifiedLog.scala
// maybeIncrementHighWatermark (cluster/high_watermark.hpp).
#include "cluster/high_watermark.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

namespace {

constexpr int64_t lag = 30000;

replica_progress follower(int32_t id, int64_t leo, int64_t last_caught_up_ms) {
  replica_progress p;
  p.broker = id;
  p.log_end_offset = leo;
  p.last_caught_up_ms = last_caught_up_ms;
  return p;
}

} // namespace

BOOST_AUTO_TEST_SUITE(high_watermark)

BOOST_AUTO_TEST_CASE(minimum_over_the_isr) {
  auto now = 100'000;
  std::vector<replica_progress> f{follower(2, 80, now), follower(3, 60, now)};
  BOOST_TEST(advance_high_watermark(0, 0, 100, f, {1, 2, 3}, now, lag) == 60);
}

BOOST_AUTO_TEST_CASE(hw_does_not_advance_past_a_lagging_isr_member) {
  // Follower 3 is far behind and has not caught up for longer than the lag, but it is still in
  // the (maximal) ISR: until the ISR shrinks, the HW waits for it.
  auto now = 100'000;
  std::vector<replica_progress> f{follower(2, 100, now), follower(3, 40, 0)};
  BOOST_TEST(advance_high_watermark(10, 0, 100, f, {1, 2, 3}, now, lag) == 40);
  // Pending shrink: the maximal ISR still has 3, so the HW still waits.
  BOOST_TEST(advance_high_watermark(40, 0, 100, f, {1, 2, 3}, now, lag) == 40);
  // Once 3 is out of the maximal ISR (and not caught up), the HW moves on.
  BOOST_TEST(advance_high_watermark(40, 0, 100, f, {1, 2}, now, lag) == 100);
}

BOOST_AUTO_TEST_CASE(unknown_isr_follower_holds_the_hw) {
  auto now = 100'000;
  std::vector<replica_progress> f{follower(2, 100, now), fresh_progress(3, true, now)};
  BOOST_TEST(advance_high_watermark(30, 0, 100, f, {1, 2, 3}, now, lag) == 30);
}

BOOST_AUTO_TEST_CASE(caught_up_follower_outside_the_isr_holds_the_hw) {
  auto now = 100'000;
  // 3 is not in the ISR but caught up in time (it is about to join): the HW waits for it.
  std::vector<replica_progress> f{follower(2, 100, now), follower(3, 70, now - lag)};
  BOOST_TEST(advance_high_watermark(0, 0, 100, f, {1, 2}, now, lag) == 70);
  // Not caught up: ignored.
  f[1].last_caught_up_ms = now - lag - 1;
  BOOST_TEST(advance_high_watermark(0, 0, 100, f, {1, 2}, now, lag) == 100);
  // Caught up in time but LEO unknown: ignored.
  f[1] = follower(3, -1, now);
  BOOST_TEST(advance_high_watermark(0, 0, 100, f, {1, 2}, now, lag) == 100);
}

BOOST_AUTO_TEST_CASE(only_moves_forward) {
  auto now = 100'000;
  std::vector<replica_progress> f{follower(2, 40, now)};
  BOOST_TEST(advance_high_watermark(50, 0, 100, f, {1, 2}, now, lag) == 50);
}

BOOST_AUTO_TEST_CASE(leader_alone_and_leader_id_ignored) {
  BOOST_TEST(advance_high_watermark(0, 0, 100, {}, {1}, 0, lag) == 100);
  BOOST_TEST(advance_high_watermark(0, 0, 100, {}, {}, 0, lag) == 100);
  // A follower's LEO above the leader's (just after truncation) does not raise the HW.
  std::vector<replica_progress> f{follower(2, 120, 0)};
  BOOST_TEST(advance_high_watermark(0, 0, 100, f, {1, 2}, 0, lag) == 100);
}

BOOST_AUTO_TEST_CASE(clamped_to_log_start_and_leader_end) {
  std::vector<replica_progress> f{follower(2, 5, 0)};
  BOOST_TEST(advance_high_watermark(0, 10, 100, f, {1, 2}, 0, lag) == 10);
  BOOST_TEST(advance_high_watermark(80, 0, 60, {}, {1}, 0, lag) == 60);
}

BOOST_AUTO_TEST_SUITE_END()
