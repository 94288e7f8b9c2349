// ISR shrink/expand and the acks=all answers: Kafka's Partition.scala getOutOfSyncReplicas,
// isFollowerInSync (maybeExpandIsr), checkEnoughReplicasReachOffset, effectiveMinIsr and
// appendRecordsToLeader's NOT_ENOUGH_REPLICAS check (cluster/isr_changes.hpp).
#include "cluster/isr_changes.hpp"

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

using ids = std::vector<int32_t>;

} // namespace

BOOST_AUTO_TEST_SUITE(isr_changes)

BOOST_AUTO_TEST_CASE(shrink_drops_followers_not_caught_up_keeps_order_and_leader) {
  int64_t now = 100'000;
  std::vector<replica_progress> f{follower(3, 90, now - lag - 1), follower(1, 90, now - 10)};
  auto isr = shrunk_isr({3, 2, 1}, 2, f, 100, now, lag);
  BOOST_REQUIRE(isr.has_value());
  BOOST_TEST((*isr == ids{2, 1}));
}

BOOST_AUTO_TEST_CASE(shrink_nothing_to_do) {
  int64_t now = 100'000;
  // 3 has not caught up for long, but it is at the leader's end (idle partition): in sync.
  std::vector<replica_progress> f{follower(3, 100, 0), follower(1, 90, now - lag)};
  BOOST_TEST(!shrunk_isr({1, 2, 3}, 2, f, 100, now, lag).has_value());
  BOOST_TEST(!shrunk_isr({2}, 2, {}, 100, now, lag).has_value());
}

BOOST_AUTO_TEST_CASE(shrink_drops_isr_members_without_progress) {
  auto isr = shrunk_isr({1, 2, 3}, 1, {follower(2, 100, 0)}, 100, 100'000, lag);
  BOOST_REQUIRE(isr.has_value());
  BOOST_TEST((*isr == ids{1, 2}));
}

BOOST_AUTO_TEST_CASE(shrink_to_the_leader_alone) {
  int64_t now = 100'000;
  std::vector<replica_progress> f{follower(2, 0, 0), follower(3, -1, 0)};
  auto isr = shrunk_isr({1, 2, 3}, 1, f, 100, now, lag);
  BOOST_REQUIRE(isr.has_value());
  BOOST_TEST((*isr == ids{1}));
}

BOOST_AUTO_TEST_CASE(join_needs_replica_live_hw_and_epoch_start) {
  auto p = follower(3, 100, 0);
  BOOST_TEST(may_join_isr(p, true, true, 100, 100));
  BOOST_TEST(may_join_isr(p, true, true, 80, 50));
  BOOST_TEST(!may_join_isr(p, false, true, 80, 50)); // not a replica
  BOOST_TEST(!may_join_isr(p, true, false, 80, 50)); // not live
  BOOST_TEST(!may_join_isr(p, true, true, 101, 50)); // below the HW
  // KAFKA-7128: at the HW but below the leader's epoch start offset (the new leader's HW lags).
  BOOST_TEST(!may_join_isr(p, true, true, 90, 120));
  BOOST_TEST(!may_join_isr(follower(3, -1, 0), true, true, -1, -1)); // LEO unknown
  BOOST_TEST(may_join_isr(follower(3, 0, 0), true, true, 0, 0));
}

BOOST_AUTO_TEST_CASE(expand_keeps_assignment_order) {
  BOOST_TEST((expanded_isr({3, 1}, 2, {1, 2, 3}) == ids{1, 2, 3}));
  BOOST_TEST((expanded_isr({1}, 3, {3, 2, 1}) == ids{3, 1}));
  BOOST_TEST((expanded_isr({1, 3}, 3, {1, 2, 3}) == ids{1, 3})); // already a member
  BOOST_TEST((expanded_isr({}, 2, {1, 2, 3}) == ids{2}));
  BOOST_TEST((expanded_isr({9, 1}, 2, {1, 2}) == ids{1, 2, 9})); // non-replica members last
  BOOST_TEST((expanded_isr({1}, 9, {1, 2}) == ids{1, 9}));
}

BOOST_AUTO_TEST_CASE(acks_all_waits_for_the_hw) {
  BOOST_TEST((acks_all_outcome(99, 100, 3, 2, 3) == produce_wait::pending));
  BOOST_TEST((acks_all_outcome(100, 100, 3, 2, 3) == produce_wait::done));
  BOOST_TEST((acks_all_outcome(150, 100, 2, 2, 3) == produce_wait::done));
  // The ISR shrank below min.insync.replicas after the append: error 20, data stays.
  BOOST_TEST((acks_all_outcome(100, 100, 1, 2, 3) == produce_wait::not_enough_replicas_after_append));
  BOOST_TEST((acks_all_outcome(99, 100, 1, 2, 3) == produce_wait::pending)); // not reached yet
  // effectiveMinIsr = min(min.insync.replicas, RF).
  BOOST_TEST((acks_all_outcome(100, 100, 2, 3, 2) == produce_wait::done));
  BOOST_TEST((acks_all_outcome(100, 100, 1, 3, 1) == produce_wait::done));
}

BOOST_AUTO_TEST_CASE(acks_all_before_append_needs_effective_min_isr) {
  BOOST_TEST(!enough_replicas_for_acks_all(1, 2, 3));
  BOOST_TEST(enough_replicas_for_acks_all(2, 2, 3));
  BOOST_TEST(enough_replicas_for_acks_all(3, 2, 3));
  BOOST_TEST(enough_replicas_for_acks_all(1, 1, 3));
  BOOST_TEST(enough_replicas_for_acks_all(1, 3, 1)); // min.insync 3 on RF 1: effective 1
  BOOST_TEST(!enough_replicas_for_acks_all(1, 3, 2));
  BOOST_TEST(enough_replicas_for_acks_all(2, 3, 2));
}

BOOST_AUTO_TEST_SUITE_END()
