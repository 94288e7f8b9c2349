#pragma once
// The follower's truncation decision on becoming follower (KIP-101, KIP-279): Kafka's
// AbstractFetcherThread.scala getOffsetTruncationState (OffsetForLeaderEpoch path, Fetch <= v11)
// and fetchOffsetAndTruncate (OFFSET_OUT_OF_RANGE), with LeaderEpochFileCache.java endOffsetFor
// over a plain vector, so that this does not depend on storage/.

#include <cstdint>
#include <vector>

namespace cafka::cluster {

struct local_epoch {
  int32_t epoch = 0;
  int64_t start_offset = 0;
};

/// The leader's answer to OffsetForLeaderEpoch(epoch asked).
struct leader_epoch_answer {
  int32_t epoch = -1;
  int64_t end_offset = -1;
};

/// Where to truncate; ask_again: send OffsetForLeaderEpoch(next_epoch_to_ask) and decide again
/// (KIP-279), else truncation is complete (next_epoch_to_ask = -1).
struct truncation {
  int64_t offset = 0;
  bool ask_again = false;
  int32_t next_epoch_to_ask = -1;
};

/// local_epochs ascending (as in leader-epoch-checkpoint); local_log_end = follower LEO;
/// high_watermark = follower's HW (the fallback when the leader has no answer, O = -1).
/// With the answer (E, O):
///   O = -1                        -> HW;
///   E = -1, O >= 0 (v0 peer)      -> min(O, LEO);
///   local endOffsetFor(E) = (E', O') with O' = -1 (no local answer) -> min(O, LEO);
///   E' != E                       -> min(O', LEO), ask again with E';
///   E' == E                       -> min(O, O', LEO).
truncation truncation_point(const std::vector<local_epoch>& local_epochs, int64_t local_log_end,
                            int64_t high_watermark, const leader_epoch_answer& answer);

/// The local end offset for `epoch` (Kafka's endOffsetFor on a vector; notes §3.2):
/// epoch -1 -> (-1, -1); epoch == latest -> (epoch, log_end); epoch above all (or no entries) ->
/// (-1, -1); epoch below all -> (epoch, start of the first entry); else (largest epoch <= epoch,
/// start of the next higher entry).
leader_epoch_answer local_end_offset_for(const std::vector<local_epoch>& local_epochs,
                                         int32_t epoch, int64_t log_end);

/// After OFFSET_OUT_OF_RANGE: where to fetch from, and whether to truncate everything first
/// (local LEO < leader log start). truncate_to = -1: no truncation. Leader LEO < local LEO
/// (unclean leader): truncate_to = fetch_offset = leader LEO. Otherwise fetch from
/// max(leader log start, local LEO); truncate_fully: delete the whole local log and restart it
/// at fetch_offset (the leader's log start).
struct out_of_range_restart {
  int64_t truncate_to = -1;
  bool truncate_fully = false;
  int64_t fetch_offset = 0;
};

out_of_range_restart restart_after_out_of_range(int64_t local_log_end, int64_t leader_log_start,
                                                int64_t leader_log_end);

} // namespace cafka::cluster
