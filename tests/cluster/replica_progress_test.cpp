// The leader's view of a follower: Kafka's Replica.scala updateFetchStateOrThrow, isCaughtUp,
// resetReplicaState (cluster/replica_progress.hpp).
#include "cluster/replica_progress.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(replica_progress_tracking)

BOOST_AUTO_TEST_CASE(fresh_progress_after_becoming_leader) {
  auto in = fresh_progress(2, true, 5000);
  BOOST_TEST(in.broker == 2);
  BOOST_TEST(in.log_end_offset == -1);
  BOOST_TEST(in.log_start_offset == -1);
  BOOST_TEST(in.last_caught_up_ms == 5000);
  BOOST_TEST(in.last_fetch_leader_log_end == -1);
  BOOST_TEST(in.last_fetch_ms == 0);
  auto out = fresh_progress(3, false, 5000);
  BOOST_TEST(out.last_caught_up_ms == 0);
  // An ISR member gets the full lag to fetch; a non-member is not caught up.
  BOOST_TEST(is_caught_up(in, 100, 5000 + 30000, 30000));
  BOOST_TEST(!is_caught_up(in, 100, 5000 + 30001, 30000));
  BOOST_TEST(!is_caught_up(out, 100, 5000 + 30000, 30000));
}

BOOST_AUTO_TEST_CASE(fetch_at_leader_end_is_caught_up_now) {
  auto p = fresh_progress(2, false, 0);
  record_fetch(p, 100, 7, 100, 1000);
  BOOST_TEST(p.log_end_offset == 100);
  BOOST_TEST(p.log_start_offset == 7);
  BOOST_TEST(p.last_caught_up_ms == 1000);
  BOOST_TEST(p.last_fetch_leader_log_end == 100);
  BOOST_TEST(p.last_fetch_ms == 1000);
}

BOOST_AUTO_TEST_CASE(fetch_at_previous_leader_end_is_caught_up_at_previous_fetch) {
  auto p = fresh_progress(2, false, 0);
  record_fetch(p, 50, 0, 100, 1000);   // behind: nothing proven yet (previous leader end -1, time 0)
  BOOST_TEST(p.last_caught_up_ms == 0);
  record_fetch(p, 100, 0, 150, 1400);  // reached the 100 the leader had at 1000
  BOOST_TEST(p.last_caught_up_ms == 1000);
  BOOST_TEST(p.last_fetch_leader_log_end == 150);
  record_fetch(p, 120, 0, 200, 1800);  // below 150: not caught up to anything new
  BOOST_TEST(p.last_caught_up_ms == 1000);
  BOOST_TEST(p.last_fetch_leader_log_end == 200);
  BOOST_TEST(p.last_fetch_ms == 1800);
}

BOOST_AUTO_TEST_CASE(last_caught_up_never_goes_back_and_leader_end_is_a_maximum) {
  auto p = fresh_progress(2, true, 5000);
  record_fetch(p, 100, 0, 100, 4000); // an older time does not lower it
  BOOST_TEST(p.last_caught_up_ms == 5000);
  record_fetch(p, 90, 0, 90, 6000);   // leader end went down (truncated): max stays 100
  BOOST_TEST(p.last_fetch_leader_log_end == 100);
  BOOST_TEST(p.last_caught_up_ms == 6000);
}

BOOST_AUTO_TEST_CASE(steady_follower_stays_caught_up_stuck_one_falls_behind) {
  // The leader appends 10 records every 100 ms; the steady follower always fetches what the
  // leader had at its previous fetch, the stuck one keeps asking for 0.
  const int64_t lag = 1000;
  auto steady = fresh_progress(2, true, 0);
  auto stuck = fresh_progress(3, true, 0);
  int64_t leader_end = 0;
  for (int64_t t = 100; t <= 5000; t += 100) {
    int64_t asked = leader_end;
    leader_end += 10;
    record_fetch(steady, asked, 0, leader_end, t);
    record_fetch(stuck, 0, 0, leader_end, t);
    BOOST_TEST(is_caught_up(steady, leader_end, t, lag));
  }
  BOOST_TEST(!is_caught_up(stuck, leader_end, 5000, lag));
  BOOST_TEST(stuck.last_caught_up_ms == 0); // from becoming leader; it never reached a leader end
}

BOOST_AUTO_TEST_CASE(caught_up_by_offset_or_by_time) {
  replica_progress p;
  p.log_end_offset = 100;
  p.last_caught_up_ms = 0;
  BOOST_TEST(is_caught_up(p, 100, 1'000'000, 30000)); // at the leader's end, however long ago
  BOOST_TEST(!is_caught_up(p, 101, 30001, 30000));
  BOOST_TEST(is_caught_up(p, 101, 30000, 30000));     // boundary: <= lag
}

BOOST_AUTO_TEST_CASE(low_watermark_is_the_smallest_known_log_start_of_live_replicas) {
  auto a = fresh_progress(2, true, 0);
  auto b = fresh_progress(3, true, 0);
  // Neither follower has fetched since this leadership began: only the leader counts.
  BOOST_TEST(low_watermark(40, {a, b}, {1, 2, 3}) == 40);
  record_fetch(a, 100, 10, 100, 1);
  record_fetch(b, 100, 25, 100, 1);
  BOOST_TEST(low_watermark(40, {a, b}, {1, 2, 3}) == 10);
  // A follower on a dead broker does not hold it back (Kafka: hasAliveBroker).
  BOOST_TEST(low_watermark(40, {a, b}, {1, 3}) == 25);
  record_fetch(a, 100, 40, 100, 2);
  record_fetch(b, 100, 40, 100, 2);
  BOOST_TEST(low_watermark(40, {a, b}, {1, 2, 3}) == 40);
}

BOOST_AUTO_TEST_SUITE_END()
