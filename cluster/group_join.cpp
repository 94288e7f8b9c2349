// group_state: JoinGroup (Kafka's GroupCoordinator.handleJoinGroup, doUnknownJoinGroup and
// doJoinGroup).
#include <utility>

#include "cluster/group_protocol_selection.hpp"
#include "cluster/group_state.hpp"
#include "cluster/group_state_support.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

group_replies group_state::join(uint64_t request_id, const join_request& req, int64_t now_ms) {
  group_replies out;
  if (phase_ == group_phase::dead)
    out.joins.emplace_back(request_id,
                           join_error(kafka_error::coordinator_not_available, req.member_id));
  else if (req.session_timeout_ms < config_.min_session_timeout_ms
           || req.session_timeout_ms > config_.max_session_timeout_ms)
    out.joins.emplace_back(request_id,
                           join_error(kafka_error::invalid_session_timeout, req.member_id));
  else if (req.member_id.empty())
    join_new_member(request_id, req, now_ms, out);
  else
    join_known_member(request_id, req, now_ms, out);
  // This join may have been the last one the rebalance waited for.
  try_complete_join(now_ms, out);
  return out;
}

void group_state::join_new_member(uint64_t request_id, const join_request& req, int64_t now_ms,
                                  group_replies& out) {
  auto* known_instance = find_static(req.group_instance_id);
  auto except = known_instance != nullptr ? known_instance->member_id : std::string{};
  if (!accepts_protocols(req, except)) {
    out.joins.emplace_back(request_id, join_error(kafka_error::inconsistent_group_protocol, ""));
    return;
  }
  auto member_id = generate_member_id(req);
  if (known_instance != nullptr) {
    rejoin_static_member(*known_instance, member_id, request_id, req, now_ms, out);
  } else if (req.require_known_member_id && !req.group_instance_id) {
    // The member joins again with this id; until then the rebalance waits for it, as long
    // as a session lasts.
    pending_members_[member_id] = now_ms + req.session_timeout_ms;
    out.joins.emplace_back(request_id, join_error(kafka_error::member_id_required, member_id));
  } else {
    add_member(member_id, request_id, req, now_ms, out);
  }
}

void group_state::join_known_member(uint64_t request_id, const join_request& req,
                                    int64_t now_ms, group_replies& out) {
  auto refuse = [&](kafka_error e) {
    out.joins.emplace_back(request_id, join_error(e, req.member_id));
  };
  if (!accepts_protocols(req, req.member_id))
    return refuse(kafka_error::inconsistent_group_protocol);
  if (pending_members_.count(req.member_id) != 0 && !req.group_instance_id)
    return add_member(req.member_id, request_id, req, now_ms, out);
  if (is_fenced(req.member_id, req.group_instance_id))
    return refuse(kafka_error::fenced_instance_id);
  auto* m = find(req.member_id);
  if (m == nullptr || (req.group_instance_id && find_static(req.group_instance_id) == nullptr))
    return refuse(kafka_error::unknown_member_id);
  switch (phase_) {
    case group_phase::preparing_rebalance:
      update_member(*m, request_id, req, now_ms, out);
      break;
    case group_phase::completing_rebalance:
      if (m->protocols == req.protocols) {
        // The same join again (its answer was lost, say): the answer it should have had.
        m->last_heartbeat_ms = now_ms;
        out.joins.emplace_back(request_id, current_generation_answer(m->member_id));
      } else {
        update_member(*m, request_id, req, now_ms, out);
        prepare_rebalance(now_ms, out);
      }
      break;
    case group_phase::stable:
      // The leader rejoining means it wants a new assignment (say, for new partitions of a
      // subscribed topic) even with unchanged metadata; a follower only when it changed.
      if (m->member_id == leader_ || m->protocols != req.protocols) {
        update_member(*m, request_id, req, now_ms, out);
        prepare_rebalance(now_ms, out);
      } else {
        m->last_heartbeat_ms = now_ms;
        out.joins.emplace_back(request_id, current_generation_answer(m->member_id));
      }
      break;
    case group_phase::empty:
    case group_phase::dead:
      refuse(kafka_error::unknown_member_id);
      break;
  }
}

void group_state::rejoin_static_member(member_metadata& old, const std::string& new_id,
                                       uint64_t request_id, const join_request& req,
                                       int64_t now_ms, group_replies& out) {
  // A static member restarted (it lost its member id): the new incarnation takes over the
  // old one's place, and whatever the old one still waits for is fenced.
  if (old.awaiting_join)
    out.joins.emplace_back(*old.awaiting_join,
                           join_error(kafka_error::fenced_instance_id, old.member_id));
  if (old.awaiting_sync)
    out.syncs.emplace_back(*old.awaiting_sync, sync_error(kafka_error::fenced_instance_id));
  old.awaiting_join.reset();
  old.awaiting_sync.reset();
  auto previous_leader = leader_;
  if (leader_ == old.member_id)
    leader_ = new_id;
  old.member_id = new_id;
  old.client_id = req.client_id;
  old.client_host = req.client_host;
  old.session_timeout_ms = req.session_timeout_ms;
  old.rebalance_timeout_ms = req.rebalance_timeout_ms;
  old.protocols = req.protocols;
  old.last_heartbeat_ms = now_ms;
  protocol_type_ = req.protocol_type;
  switch (phase_) {
    case group_phase::preparing_rebalance:
      old.awaiting_join = request_id;
      break;
    case group_phase::stable:
      if (select_group_protocol(members_) == protocol_) {
        // No rebalance: it keeps its assignment. The answer names the previous leader, so
        // that a restarted leader does not think it should assign (its new id is not that).
        join_answer a;
        a.generation = generation_;
        a.protocol_name = protocol_;
        a.leader = previous_leader;
        a.member_id = new_id;
        out.joins.emplace_back(request_id, std::move(a));
      } else {
        old.awaiting_join = request_id;
        prepare_rebalance(now_ms, out);
      }
      break;
    case group_phase::completing_rebalance:
      // The leader may be assigning to the old member id, which the new one would not find.
      old.awaiting_join = request_id;
      prepare_rebalance(now_ms, out);
      break;
    case group_phase::empty: // a group with a member is never Empty
    case group_phase::dead:
      break;
  }
}

void group_state::add_member(const std::string& member_id, uint64_t request_id,
                             const join_request& req, int64_t now_ms, group_replies& out) {
  member_metadata m;
  m.member_id = member_id;
  m.group_instance_id = req.group_instance_id;
  m.client_id = req.client_id;
  m.client_host = req.client_host;
  m.session_timeout_ms = req.session_timeout_ms;
  m.rebalance_timeout_ms = req.rebalance_timeout_ms;
  m.protocols = req.protocols;
  m.last_heartbeat_ms = now_ms;
  m.awaiting_join = request_id;
  m.is_new = true;
  protocol_type_ = req.protocol_type;
  if (phase_ == group_phase::preparing_rebalance && initial_delay_)
    new_member_added_ = true;
  members_.push_back(std::move(m));
  if (leader_.empty())
    leader_ = member_id;
  pending_members_.erase(member_id);
  maybe_prepare_rebalance(now_ms, out);
}

void group_state::update_member(member_metadata& m, uint64_t request_id, const join_request& req,
                                int64_t now_ms, group_replies& out) {
  if (m.awaiting_join)
    out.joins.emplace_back(*m.awaiting_join,
                           join_error(kafka_error::rebalance_in_progress, m.member_id));
  m.protocols = req.protocols;
  m.session_timeout_ms = req.session_timeout_ms;
  m.rebalance_timeout_ms = req.rebalance_timeout_ms;
  m.last_heartbeat_ms = now_ms;
  m.awaiting_join = request_id;
  protocol_type_ = req.protocol_type;
}

} // namespace cafka::cluster
