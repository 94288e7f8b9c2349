#pragma once
// ISR shrink and expand on the leader, and the acks=all answers: Kafka's Partition.scala
// (getOutOfSyncReplicas / maybeShrinkIsr, isFollowerInSync / needsExpandIsr for maybeExpandIsr,
// checkEnoughReplicasReachOffset, effectiveMinIsr, the NOT_ENOUGH_REPLICAS check in
// appendRecordsToLeader) and DelayedProduce.scala. Pure: the caller runs the expiration task
// (every replica.lag.time.max.ms / 2, skipped while an ISR change is in flight) and records the
// change.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cluster/metadata.hpp"
#include "cluster/replica_progress.hpp"

namespace cafka::cluster {

/// ISR after dropping followers that are not caught up (Kafka's isr-expiration task); the
/// leader always stays. Same order as `isr`. Returns nullopt when nothing changes. An ISR
/// member (other than the leader) without an entry in `followers` is out of sync, as in
/// Kafka's isFollowerOutOfSync.
std::optional<std::vector<int32_t>> shrunk_isr(const std::vector<int32_t>& isr, int32_t leader,
                                               const std::vector<replica_progress>& followers,
                                               int64_t leader_log_end, int64_t now_ms,
                                               int64_t lag_ms);

/// Whether a follower outside the ISR may join: it is a replica, live, LEO known and >= high
/// watermark and >= the leader's epoch start offset (KAFKA-7128).
bool may_join_isr(const replica_progress& p, bool is_replica, bool is_live,
                  int64_t high_watermark, int64_t leader_epoch_start_offset);

/// The ISR with `broker` added, kept in assignment order (`replicas` order) — the controller
/// writes ISRs in assignment order. Members already in the ISR are reordered into assignment
/// order too; ISR members (or `broker`) not in `replicas` follow, in their ISR order. Adding a
/// member twice changes nothing.
std::vector<int32_t> expanded_isr(const std::vector<int32_t>& isr, int32_t broker,
                                  const replica_list& replicas);

/// What an acks=all produce waiting for `required_offset` (last offset + 1) answers now.
enum class produce_wait { pending, done, not_enough_replicas_after_append };

/// HW >= required_offset: done if |maximal ISR| >= effectiveMinIsr, else
/// not_enough_replicas_after_append (the data stays in the log); otherwise pending.
produce_wait acks_all_outcome(int64_t high_watermark, int64_t required_offset,
                              size_t maximal_isr_size, int32_t min_insync_replicas,
                              size_t replication_factor);

/// effectiveMinIsr = min(min.insync.replicas, RF); acks=all before the append: |ISR| < that →
/// NOT_ENOUGH_REPLICAS.
bool enough_replicas_for_acks_all(size_t isr_size, int32_t min_insync_replicas,
                                  size_t replication_factor);

} // namespace cafka::cluster
