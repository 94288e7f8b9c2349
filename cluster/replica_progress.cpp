#include "cluster/replica_progress.hpp"

#include <algorithm>

namespace cafka::cluster {

void record_fetch(replica_progress& p, int64_t fetch_offset, int64_t follower_log_start,
                  int64_t leader_log_end, int64_t now_ms) {
  // Replica.scala updateFetchStateOrThrow: the follower has caught up to the leader's log end
  // now (first branch), or to the log end the leader had at its previous fetch (second branch),
  // which it therefore had at the time of that fetch.
  if (fetch_offset >= leader_log_end)
    p.last_caught_up_ms = std::max(p.last_caught_up_ms, now_ms);
  else if (fetch_offset >= p.last_fetch_leader_log_end)
    p.last_caught_up_ms = std::max(p.last_caught_up_ms, p.last_fetch_ms);
  p.log_start_offset = follower_log_start;
  p.log_end_offset = fetch_offset;
  p.last_fetch_leader_log_end = std::max(leader_log_end, p.last_fetch_leader_log_end);
  p.last_fetch_ms = now_ms;
}

bool is_caught_up(const replica_progress& p, int64_t leader_log_end, int64_t now_ms,
                  int64_t lag_ms) {
  return p.log_end_offset == leader_log_end || now_ms - p.last_caught_up_ms <= lag_ms;
}

int64_t low_watermark(int64_t leader_log_start, const std::vector<replica_progress>& followers,
                      const std::vector<int32_t>& live_brokers) {
  int64_t low = leader_log_start;
  for (auto& p : followers) {
    bool live = std::find(live_brokers.begin(), live_brokers.end(), p.broker) != live_brokers.end();
    if (live && p.log_start_offset >= 0)
      low = std::min(low, p.log_start_offset);
  }
  return low;
}

replica_progress fresh_progress(int32_t broker, bool in_isr, int64_t now_ms) {
  // Replica.scala resetReplicaState(isNewLeader = true).
  replica_progress p;
  p.broker = broker;
  p.last_caught_up_ms = in_isr ? now_ms : 0;
  return p;
}

} // namespace cafka::cluster
