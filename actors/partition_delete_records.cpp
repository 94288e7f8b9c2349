// DeleteRecords on a partition actor: the leader moves its log start and answers once every
// live follower reported a log start at least as far (Kafka's DelayedDeleteRecords on
// lowWatermarkIfLeader); followers move theirs to the leader's, which each fetch answer
// carries. The rule is cluster::low_watermark.
#include <algorithm>
#include <chrono>

#include "actors/errors.hpp"
#include "actors/partition_actor_state.hpp"
#include "cluster/replica_progress.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

int64_t current_low_watermark(const partition_actor_state& st) {
  return cluster::low_watermark(st.log->log_start_offset(), st.followers, st.role.live_brokers);
}

// Moves the log start and unlinks the segments that fell below it.
caf::error move_log_start(partition_actor_state& st, int64_t offset) {
  auto removed = st.log->advance_log_start(offset);
  if (!removed)
    return to_caf_error(removed.error());
  unlink_segments(st, *removed);
  return {};
}

} // namespace

caf::result<int64_t> delete_records(partition_self self, int64_t offset, int32_t timeout_ms) {
  auto& st = self->state;
  if (!leading(st))
    return caf::make_error(kafka_error::not_leader_or_follower, "this broker does not lead the partition");
  if (!st.log->config().cleanup_delete) // Kafka's Partition.deleteRecordsOnLeader
    return caf::make_error(kafka_error::policy_violation, "cleanup.policy does not contain delete");
  if (offset == -1)
    offset = st.high_watermark;
  if (offset < 0 || offset > st.high_watermark)
    return caf::make_error(kafka_error::offset_out_of_range,
                           "offset " + std::to_string(offset) + " is outside [0, high watermark "
                             + std::to_string(st.high_watermark) + "]");
  if (auto err = move_log_start(st, offset))
    return err;
  fire_replica_watches(self, true);
  if (auto low = current_low_watermark(st); low >= offset)
    return low;
  auto promise = self->make_response_promise<int64_t>();
  auto deadline = self->clock().now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
  st.waiting_deletes.push_back({deadline, offset, promise});
  arm_deadline_timer(self, deadline);
  return promise;
}

void complete_waiting_deletes(partition_self self) {
  auto& st = self->state;
  if (st.waiting_deletes.empty())
    return;
  auto low = current_low_watermark(st);
  auto keep = st.waiting_deletes.begin();
  for (auto& w : st.waiting_deletes) {
    if (low >= w.offset)
      w.promise.deliver(low);
    else
      *keep++ = std::move(w);
  }
  st.waiting_deletes.erase(keep, st.waiting_deletes.end());
}

caf::actor_clock::time_point expire_waiting_deletes(partition_self self) {
  return expire_due(self->state.waiting_deletes, self->clock().now(), [](const waiting_delete& w) {
    return caf::make_error(kafka_error::request_timed_out,
                           "the live replicas did not all delete below offset " + std::to_string(w.offset) + " in time");
  });
}

void fail_waiting_deletes(partition_self self) {
  for (auto& w : self->state.waiting_deletes)
    w.promise.deliver(caf::make_error(kafka_error::not_leader_or_follower, "leadership moved"));
  self->state.waiting_deletes.clear();
}

caf::error follow_log_start(partition_self self, int64_t leader_log_start) {
  auto& st = self->state;
  return move_log_start(st, std::min(leader_log_start, st.log->log_end_offset()));
}

} // namespace cafka
