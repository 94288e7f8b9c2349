// A partition actor's work as follower, driven by its replica fetcher
// (actors/replica_fetcher.hpp): the leader's batches appended byte for byte (same offsets,
// same leader epochs), the high watermark taken from the leader, and truncation where the
// leader's epochs say this log diverged (cluster/epoch_divergence.hpp) or where it fell
// out of the leader's range.
#include <algorithm>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/partition_actor_state.hpp"
#include "cluster/epoch_divergence.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

std::string name_of(const partition_actor_state& st) {
  return st.ctx.tp.topic + "-" + std::to_string(st.ctx.tp.partition);
}

void clamp_high_watermark(partition_actor_state& st) {
  st.high_watermark = std::clamp(st.high_watermark, st.log->log_start_offset(), st.log->log_end_offset());
}

// Truncates to `offset` if it is below the log end, logging what goes.
caf::error truncate_log(partition_actor_state& st, int64_t offset, const char* why) {
  auto end = st.log->log_end_offset();
  if (offset >= end)
    return {};
  if (auto done = st.log->truncate_to(offset); !done)
    return to_caf_error(done.error());
  log_line(log_level::info, log_component::replication, "broker %d: %s truncated from %lld to %lld (%s)", st.ctx.broker_id, name_of(st).c_str(),
           static_cast<long long>(end), static_cast<long long>(st.log->log_end_offset()), why);
  clamp_high_watermark(st);
  return {};
}

} // namespace

replica_position position_of(const partition_actor_state& st) {
  auto& log = *st.log;
  return {log.log_end_offset(), log.log_start_offset(), log.epoch_cache().latest_epoch().value_or(-1)};
}

caf::result<replica_position> append_replicated(partition_self self, int32_t leader_epoch, int64_t fetch_offset,
                                                std::vector<char>& records, int64_t leader_hw,
                                                int64_t leader_log_start) {
  auto& st = self->state;
  if (leading(st) || st.role.leader_epoch != leader_epoch)
    return caf::make_error(kafka_error::fenced_leader_epoch,
                           name_of(st) + " here follows leader epoch " + std::to_string(st.role.leader_epoch));
  auto& log = *st.log;
  if (log.log_end_offset() != fetch_offset)
    return caf::make_error(kafka_error::offset_out_of_range, name_of(st) + " here ends at "
                                                               + std::to_string(log.log_end_offset()));
  auto now = st.ctx.now_ms();
  if (!records.empty()) {
    auto info = log.append_replicated(records, now);
    if (!info)
      return append_failed(st, info.error());
    flush_if_due(self);
  }
  // Retention runs on every replica by the same rules; a start moved by DeleteRecords
  // comes from the leader.
  if (auto err = follow_log_start(self, leader_log_start))
    return err;
  st.high_watermark = std::min(leader_hw, log.log_end_offset());
  clamp_high_watermark(st);
  log.last_stable_offset(st.high_watermark); // forgets the transactions now stable here too
  return position_of(st);
}

caf::result<truncation_done> truncate_by_epoch(partition_self self, const epoch_end_answer& answer) {
  auto& st = self->state;
  if (answer.error != 0)
    return caf::make_error(static_cast<kafka_error>(answer.error), "OffsetForLeaderEpoch failed at the leader");
  std::vector<cluster::local_epoch> local;
  for (auto& e : st.log->epoch_cache().entries())
    local.push_back({e.epoch, e.start_offset});
  auto t = cluster::truncation_point(local, st.log->log_end_offset(), st.high_watermark,
                                     cluster::leader_epoch_answer{answer.epoch, answer.end_offset});
  if (auto err = truncate_log(st, t.offset, "diverged from the leader's epochs"))
    return err;
  return truncation_done{st.log->log_end_offset(), t.ask_again, t.next_epoch_to_ask};
}

caf::result<replica_position> restart_out_of_range(partition_self self, int64_t leader_log_start,
                                                   int64_t leader_log_end) {
  auto& st = self->state;
  auto r = cluster::restart_after_out_of_range(st.log->log_end_offset(), leader_log_start, leader_log_end);
  if (r.truncate_fully) {
    if (auto done = st.log->truncate_fully_and_start_at(r.fetch_offset); !done)
      return to_caf_error(done.error());
    log_line(log_level::info, log_component::replication, "broker %d: %s emptied to start at the leader's log start %lld", st.ctx.broker_id, name_of(st).c_str(),
             static_cast<long long>(r.fetch_offset));
    clamp_high_watermark(st);
  } else if (r.truncate_to >= 0) {
    if (auto err = truncate_log(st, r.truncate_to, "beyond the leader's log end"))
      return err;
  }
  return position_of(st);
}

} // namespace cafka
