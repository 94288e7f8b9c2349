// group_state: SyncGroup, Heartbeat, LeaveGroup and the OffsetCommit membership check (Kafka's
// GroupCoordinator.doSyncGroup, handleHeartbeat, handleLeaveGroup, doCommitOffsets).
#include <utility>

#include "cluster/group_state.hpp"
#include "cluster/group_state_support.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

kafka_error group_state::check_member(const std::string& member_id,
                                      const std::optional<std::string>& group_instance_id,
                                      int32_t generation) const {
  if (phase_ == group_phase::dead)
    return kafka_error::coordinator_not_available;
  if (is_fenced(member_id, group_instance_id))
    return kafka_error::fenced_instance_id;
  if (find_member(member_id) == nullptr)
    return kafka_error::unknown_member_id;
  if (generation != generation_)
    return kafka_error::illegal_generation;
  return kafka_error::none;
}

group_replies group_state::sync(uint64_t request_id, const sync_request& req, int64_t now_ms) {
  group_replies out;
  auto answer = [&](kafka_error e) { out.syncs.emplace_back(request_id, sync_error(e)); };
  if (auto error = check_member(req.member_id, req.group_instance_id, req.generation);
      error != kafka_error::none) {
    answer(error);
    return out;
  }
  auto* m = find(req.member_id);
  switch (phase_) {
    case group_phase::preparing_rebalance:
      answer(kafka_error::rebalance_in_progress);
      break;
    case group_phase::completing_rebalance:
      if (m->awaiting_sync) // superseded by this one
        out.syncs.emplace_back(*m->awaiting_sync, sync_error(kafka_error::rebalance_in_progress));
      m->awaiting_sync = request_id;
      m->last_heartbeat_ms = now_ms;
      if (m->member_id == leader_)
        complete_sync(req.assignments, now_ms, out);
      break;
    case group_phase::stable:
      m->last_heartbeat_ms = now_ms;
      out.syncs.emplace_back(request_id, sync_answer{kafka_error::none, m->assignment});
      break;
    case group_phase::empty:
    case group_phase::dead:
      answer(kafka_error::unknown_member_id);
      break;
  }
  return out;
}

void group_state::complete_sync(const std::vector<member_assignment>& assignments,
                                int64_t now_ms, group_replies& out) {
  // Members the leader left out get an empty assignment; ids that are not members are
  // ignored; of two entries for one member the later counts.
  for (auto& m : members_)
    m.assignment.clear();
  for (auto& a : assignments)
    if (auto* m = find(a.member_id))
      m->assignment = a.assignment;
  phase_ = group_phase::stable;
  for (auto& m : members_) {
    if (m.awaiting_sync) {
      out.syncs.emplace_back(*m.awaiting_sync, sync_answer{kafka_error::none, m.assignment});
      m.awaiting_sync.reset();
      m.last_heartbeat_ms = now_ms;
    }
  }
}

kafka_error group_state::heartbeat(const heartbeat_request& req, int64_t now_ms) {
  if (auto error = check_member(req.member_id, req.group_instance_id, req.generation);
      error != kafka_error::none)
    return error;
  auto* m = find(req.member_id);
  switch (phase_) {
    case group_phase::preparing_rebalance:
    case group_phase::completing_rebalance:
      m->last_heartbeat_ms = now_ms;
      return kafka_error::rebalance_in_progress;
    case group_phase::stable:
      m->last_heartbeat_ms = now_ms;
      return kafka_error::none;
    case group_phase::empty:
    case group_phase::dead:
      break;
  }
  return kafka_error::unknown_member_id;
}

leave_outcome group_state::leave(const std::vector<member_identity>& leaving, int64_t now_ms) {
  leave_outcome out;
  if (phase_ == group_phase::dead) {
    out.answer.error = kafka_error::coordinator_not_available;
    return out;
  }
  for (auto& who : leaving) {
    auto error = kafka_error::none;
    if (!who.member_id.empty() && is_fenced(who.member_id, who.group_instance_id)) {
      error = kafka_error::fenced_instance_id;
    } else if (pending_members_.erase(who.member_id) != 0) {
      // One the rebalance waited for: it may complete now.
      try_complete_join(now_ms, out.replies);
    } else {
      auto* m = find_static(who.group_instance_id);
      if (m == nullptr)
        m = find(who.member_id);
      if (m == nullptr)
        error = kafka_error::unknown_member_id;
      else
        remove_member(m->member_id, now_ms, out.replies);
    }
    out.answer.members.emplace_back(who, error);
  }
  return out;
}

kafka_error group_state::check_offset_commit(const std::string& member_id,
                                             const std::optional<std::string>& group_instance_id,
                                             int32_t generation, int64_t now_ms) {
  // A group used only to store offsets (consumers that assign partitions themselves, tools).
  if (generation < 0 && phase_ == group_phase::empty)
    return kafka_error::none;
  if (auto error = check_member(member_id, group_instance_id, generation);
      error != kafka_error::none)
    return error;
  auto* m = find(member_id);
  switch (phase_) {
    case group_phase::stable:
    case group_phase::preparing_rebalance:
      // Commits of the last generation still count while the members rejoin (Kafka): they
      // learn of the rebalance from their heartbeats.
      m->last_heartbeat_ms = now_ms;
      return kafka_error::none;
    case group_phase::completing_rebalance:
      return kafka_error::rebalance_in_progress;
    case group_phase::empty:
    case group_phase::dead:
      break;
  }
  return kafka_error::unknown_member_id;
}

} // namespace cafka::cluster
