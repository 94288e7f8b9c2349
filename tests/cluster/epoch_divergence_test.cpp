// Follower truncation by leader epoch (KIP-101, KIP-279): Kafka's AbstractFetcherThread.scala
// getOffsetTruncationState and fetchOffsetAndTruncate, LeaderEpochFileCache.java endOffsetFor
// (cluster/epoch_divergence.hpp).
#include "cluster/epoch_divergence.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

namespace {

using epochs = std::vector<local_epoch>;

bool same(const leader_epoch_answer& a, int32_t epoch, int64_t end_offset) {
  return a.epoch == epoch && a.end_offset == end_offset;
}

bool same(const truncation& t, int64_t offset, bool ask_again, int32_t next) {
  return t.offset == offset && t.ask_again == ask_again && t.next_epoch_to_ask == next;
}

/// The follower's whole OffsetForLeaderEpoch exchange against a leader with `leader_epochs`
/// and log end `leader_end`; returns the final truncation offset (the follower's epochs are
/// cut at each intermediate truncation, as truncateFromEnd does).
int64_t converge(epochs follower, int64_t follower_end, int64_t follower_hw,
                 const epochs& leader_epochs, int64_t leader_end, int* rounds) {
  int32_t ask = follower.empty() ? -1 : follower.back().epoch;
  for (*rounds = 1;; ++*rounds) {
    auto answer = local_end_offset_for(leader_epochs, ask, leader_end);
    auto t = truncation_point(follower, follower_end, follower_hw, answer);
    follower_end = std::min(follower_end, t.offset);
    while (!follower.empty() && follower.back().start_offset >= t.offset)
      follower.pop_back();
    if (!t.ask_again)
      return t.offset;
    ask = t.next_epoch_to_ask;
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(epoch_divergence)

BOOST_AUTO_TEST_CASE(end_offset_for_follows_the_cache_rules) {
  epochs cache{{0, 0}, {2, 1200}, {5, 1733}}; // the notes' leader-epoch-checkpoint example
  BOOST_TEST(same(local_end_offset_for(cache, -1, 2000), -1, -1));
  BOOST_TEST(same(local_end_offset_for(cache, 5, 2000), 5, 2000));   // latest: LEO
  BOOST_TEST(same(local_end_offset_for(cache, 7, 2000), -1, -1));    // above all
  BOOST_TEST(same(local_end_offset_for(cache, 0, 2000), 0, 1200));
  BOOST_TEST(same(local_end_offset_for(cache, 1, 2000), 0, 1200));   // floor epoch, next start
  BOOST_TEST(same(local_end_offset_for(cache, 2, 2000), 2, 1733));
  BOOST_TEST(same(local_end_offset_for(cache, 4, 2000), 2, 1733));
  BOOST_TEST(same(local_end_offset_for({{3, 100}, {4, 150}}, 1, 200), 1, 100)); // below all
  BOOST_TEST(same(local_end_offset_for({}, 0, 200), -1, -1));
}

BOOST_AUTO_TEST_CASE(no_answer_truncates_to_the_high_watermark) {
  BOOST_TEST(same(truncation_point({{0, 0}}, 100, 70, {3, -1}), 70, false, -1));
  BOOST_TEST(same(truncation_point({{0, 0}}, 100, 70, {}), 70, false, -1));
}

BOOST_AUTO_TEST_CASE(v0_answer_without_epoch) {
  BOOST_TEST(same(truncation_point({{0, 0}}, 100, 70, {-1, 80}), 80, false, -1));
  BOOST_TEST(same(truncation_point({{0, 0}}, 100, 70, {-1, 130}), 100, false, -1));
}

BOOST_AUTO_TEST_CASE(same_epoch_takes_the_smallest_end) {
  epochs cache{{0, 0}, {2, 50}, {3, 90}};
  BOOST_TEST(same(truncation_point(cache, 120, 10, {3, 100}), 100, false, -1)); // leader's end
  BOOST_TEST(same(truncation_point(cache, 120, 10, {3, 140}), 120, false, -1)); // own LEO
  BOOST_TEST(same(truncation_point(cache, 120, 10, {2, 95}), 90, false, -1));   // own epoch end
  BOOST_TEST(same(truncation_point(cache, 120, 10, {2, 70}), 70, false, -1));
  // Below every local epoch: endOffsetFor answers the first start offset, as Kafka does.
  BOOST_TEST(same(truncation_point({{3, 100}}, 150, 10, {1, 120}), 100, false, -1));
}

BOOST_AUTO_TEST_CASE(unknown_epoch_truncates_and_asks_again) {
  // The leader answers epoch 2, which the follower never had: truncate to where the follower's
  // next epoch after its floor (1) starts and ask for 1 (KIP-279).
  epochs cache{{0, 0}, {1, 100}, {3, 200}};
  BOOST_TEST(same(truncation_point(cache, 250, 10, {2, 250}), 200, true, 1));
}

BOOST_AUTO_TEST_CASE(no_local_answer_takes_the_leader_end) {
  BOOST_TEST(same(truncation_point({}, 100, 10, {4, 60}), 60, false, -1));
  BOOST_TEST(same(truncation_point({{0, 0}, {2, 40}}, 100, 10, {5, 60}), 60, false, -1));
  BOOST_TEST(same(truncation_point({}, 50, 10, {4, 60}), 50, false, -1));
}

BOOST_AUTO_TEST_CASE(kip279_two_rounds_to_the_divergence_point) {
  // Follower: epoch 0 [0,100), 1 [100,200), 3 [200,250). Leader: epoch 0 [0,150), 2 [150,250),
  // 4 [250,300). Their logs agree only below 100 (epoch 1 at 100 never reached the leader).
  int rounds = 0;
  auto offset = converge({{0, 0}, {1, 100}, {3, 200}}, 250, 90, {{0, 0}, {2, 150}, {4, 250}}, 300,
                         &rounds);
  BOOST_TEST(offset == 100);
  BOOST_TEST(rounds == 2);
}

BOOST_AUTO_TEST_CASE(follower_that_is_a_prefix_keeps_everything) {
  int rounds = 0;
  auto offset = converge({{0, 0}, {2, 150}}, 200, 120, {{0, 0}, {2, 150}, {4, 250}}, 300, &rounds);
  BOOST_TEST(offset == 200);
  BOOST_TEST(rounds == 1);
}

BOOST_AUTO_TEST_CASE(uncommitted_tail_of_an_old_leader_is_cut) {
  // Old leader wrote [100,130) in epoch 1 that no follower got; the new leader (epoch 2) started
  // at 100. The old leader returns as a follower and must drop its tail.
  int rounds = 0;
  auto offset = converge({{0, 0}, {1, 50}}, 130, 100, {{0, 0}, {1, 50}, {2, 100}}, 180, &rounds);
  BOOST_TEST(offset == 100);
  BOOST_TEST(rounds == 1);
}

BOOST_AUTO_TEST_CASE(out_of_range_restart_points) {
  // Leader end below ours (unclean leader): truncate to it, fetch from there.
  auto r = restart_after_out_of_range(500, 0, 300);
  BOOST_TEST(r.truncate_to == 300);
  BOOST_TEST(!r.truncate_fully);
  BOOST_TEST(r.fetch_offset == 300);
  // Our end below the leader's log start: drop everything, restart at its log start.
  r = restart_after_out_of_range(100, 400, 900);
  BOOST_TEST(r.truncate_to == -1);
  BOOST_TEST(r.truncate_fully);
  BOOST_TEST(r.fetch_offset == 400);
  // Within the leader's log: keep ours, fetch from our end.
  r = restart_after_out_of_range(450, 400, 900);
  BOOST_TEST(r.truncate_to == -1);
  BOOST_TEST(!r.truncate_fully);
  BOOST_TEST(r.fetch_offset == 450);
  r = restart_after_out_of_range(400, 400, 400);
  BOOST_TEST(!r.truncate_fully);
  BOOST_TEST(r.fetch_offset == 400);
}

BOOST_AUTO_TEST_SUITE_END()
