#pragma once
// The leader's view of one follower replica: Kafka's Replica.scala (ReplicaState,
// updateFetchStateOrThrow, isCaughtUp, resetReplicaState for a new leader). Pure: times are
// passed in as milliseconds; nothing here reads a clock.

#include <cstdint>
#include <vector>

#include "cluster/metadata.hpp"

namespace cafka::cluster {

struct replica_progress {
  int32_t broker = no_broker;
  int64_t log_end_offset = -1;        ///< -1: unknown (not fetched since this leadership began)
  int64_t log_start_offset = -1;
  int64_t last_caught_up_ms = 0;
  int64_t last_fetch_leader_log_end = -1;
  int64_t last_fetch_ms = 0;
};

/// Kafka's updateFetchStateOrThrow (exact rule in the notes §1.3) for a fetch at `fetch_offset`
/// while the leader's log end is `leader_log_end`:
///   fetch_offset >= leader_log_end            -> last_caught_up = max(last_caught_up, now)
///   fetch_offset >= last_fetch_leader_log_end -> last_caught_up = max(last_caught_up, last_fetch_ms)
/// then LEO := fetch_offset, log start := follower_log_start,
/// last_fetch_leader_log_end := max(it, leader_log_end), last_fetch_ms := now.
void record_fetch(replica_progress& p, int64_t fetch_offset, int64_t follower_log_start,
                  int64_t leader_log_end, int64_t now_ms);

/// followerLEO == leaderLEO || now - lastCaughtUp <= lag
bool is_caught_up(const replica_progress& p, int64_t leader_log_end, int64_t now_ms,
                  int64_t lag_ms);

/// Kafka's lowWatermarkIfLeader, what DeleteRecords waits for: the smallest log start of
/// the leader (`leader_log_start`) and of the followers on live brokers whose log start is
/// known (a follower reports it with each fetch).
int64_t low_watermark(int64_t leader_log_start, const std::vector<replica_progress>& followers,
                      const std::vector<int32_t>& live_brokers);

/// makeLeader's reset: LEO unknown; last_caught_up_ms = now if in the ISR else 0.
replica_progress fresh_progress(int32_t broker, bool in_isr, int64_t now_ms);

} // namespace cafka::cluster
