#pragma once
// The leader's high watermark: Kafka's Partition.scala maybeIncrementLeaderHW (AK 2.8 rule for
// replicas outside the ISR) and UnifiedLog.scala maybeIncrementHighWatermark / updateHighWatermark
// (forward only, clamped to [log start, LEO]).
//
// Deliberately NOT included: AK 3.7's KAFKA-15583 rule "no HW advance while |ISR| <
// min(min.insync.replicas, RF)". cafka follows AK <= 3.6: an acks=all produce whose HW is
// reached while the maximal ISR is below the effective minimum answers
// NOT_ENOUGH_REPLICAS_AFTER_APPEND (cluster/isr_changes.hpp acks_all_outcome) instead of
// waiting for the HW until it times out.

#include <cstdint>
#include <vector>

#include "cluster/replica_progress.hpp"

namespace cafka::cluster {

/// The leader's new HW: min(leader LEO, LEO of every follower in `maximal_isr`, and of every
/// follower not in it that is caught up (now - last_caught_up_ms <= lag_ms) and has a known
/// LEO). Followers in maximal_isr with unknown LEO (-1) hold the HW where it is. Never below
/// current_hw (only moves forward), clamped to [log_start, leader LEO]. `followers` excludes
/// the leader; `maximal_isr` may include the leader's id (ignored). As in Kafka, which walks
/// the remote replicas, an id of maximal_isr without an entry in `followers` is ignored: pass
/// every ISR follower.
int64_t advance_high_watermark(int64_t current_hw, int64_t log_start, int64_t leader_log_end,
                               const std::vector<replica_progress>& followers,
                               const std::vector<int32_t>& maximal_isr, int64_t now_ms,
                               int64_t lag_ms);

} // namespace cafka::cluster
