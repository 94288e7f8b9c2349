// group_state: lookups, the rebalance lifecycle (prepare, complete), time and the views.
// The request handlers are in group_join.cpp and group_sync.cpp.
#include "cluster/group_state.hpp"

#include <algorithm>
#include <utility>

#include "cluster/group_protocol_selection.hpp"
#include "cluster/group_state_support.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

group_state::group_state(group_config config, suffix_source next_suffix)
    : config_(config), next_suffix_(std::move(next_suffix)) {}

const member_metadata* group_state::find_member(const std::string& member_id) const {
  return find_member_if(members_, [&](auto& m) { return m.member_id == member_id; });
}

member_metadata* group_state::find(const std::string& member_id) {
  return find_member_if(members_, [&](auto& m) { return m.member_id == member_id; });
}

const member_metadata*
group_state::find_static(const std::optional<std::string>& group_instance_id) const {
  if (!group_instance_id)
    return nullptr;
  return find_member_if(members_,
                        [&](auto& m) { return m.group_instance_id == group_instance_id; });
}

member_metadata* group_state::find_static(const std::optional<std::string>& group_instance_id) {
  if (!group_instance_id)
    return nullptr;
  return find_member_if(members_,
                        [&](auto& m) { return m.group_instance_id == group_instance_id; });
}

bool group_state::is_fenced(const std::string& member_id,
                            const std::optional<std::string>& group_instance_id) const {
  // A known instance id with another member id: an older incarnation of a static member,
  // which must stop rather than disturb the current one.
  auto* current = find_static(group_instance_id);
  return current != nullptr && current->member_id != member_id;
}

bool group_state::accepts_protocols(const join_request& req, const std::string& except) const {
  if (req.protocol_type.empty() || req.protocols.empty())
    return false;
  bool alone = std::all_of(members_.begin(), members_.end(),
                           [&](auto& m) { return m.member_id == except; });
  if (alone)
    return true;
  return req.protocol_type == protocol_type_ && shares_a_protocol(members_, req.protocols, except);
}

std::string group_state::generate_member_id(const join_request& req) {
  // Kafka: "<client id>-<uuid>", or "<instance id>-<uuid>" for a static member.
  auto prefix = req.group_instance_id ? *req.group_instance_id : req.client_id;
  auto suffix = next_suffix_ ? next_suffix_() : std::to_string(++suffix_counter_);
  return prefix + "-" + suffix;
}

int64_t group_state::rebalance_timeout_ms() const {
  int64_t out = 0;
  for (auto& m : members_)
    out = std::max<int64_t>(out, m.rebalance_timeout_ms);
  return out;
}

bool group_state::all_members_joined() const {
  return pending_members_.empty()
         && std::all_of(members_.begin(), members_.end(),
                        [](auto& m) { return m.awaiting_join.has_value(); });
}

std::optional<int64_t> group_state::session_deadline(const member_metadata& m) const {
  // Kafka's MemberMetadata.shouldKeepAlive: a held join keeps a member (it cannot heartbeat
  // meanwhile), except a new one that may have given up and retried with another id; a held
  // sync keeps it too, until the leader's sync answers it.
  if (m.awaiting_join) {
    if (m.is_new)
      return m.last_heartbeat_ms + config_.new_member_join_timeout_ms;
    return std::nullopt;
  }
  if (m.awaiting_sync)
    return std::nullopt;
  return m.last_heartbeat_ms + m.session_timeout_ms;
}

join_answer group_state::current_generation_answer(const std::string& member_id) const {
  join_answer a;
  a.generation = generation_;
  a.protocol_name = protocol_;
  a.leader = leader_;
  a.member_id = member_id;
  if (member_id == leader_) {
    for (auto& m : members_) {
      auto* metadata = m.metadata_for(protocol_);
      a.members.push_back({m.member_id, m.group_instance_id,
                           metadata != nullptr ? *metadata : group_bytes{}});
    }
  }
  return a;
}

void group_state::remove_member(std::string member_id, int64_t now_ms, group_replies& out) {
  auto it = std::find_if(members_.begin(), members_.end(),
                         [&](auto& m) { return m.member_id == member_id; });
  if (it == members_.end())
    return;
  // Kafka answers a held join with UNKNOWN_MEMBER_ID and no member id, so that a client that
  // is still there joins again as a new member.
  if (it->awaiting_join)
    out.joins.emplace_back(*it->awaiting_join, join_error(kafka_error::unknown_member_id, ""));
  if (it->awaiting_sync)
    out.syncs.emplace_back(*it->awaiting_sync, sync_error(kafka_error::unknown_member_id));
  members_.erase(it);
  if (leader_ == member_id)
    leader_ = members_.empty() ? std::string{} : members_.front().member_id;
  switch (phase_) {
    case group_phase::stable:
    case group_phase::completing_rebalance:
      prepare_rebalance(now_ms, out);
      break;
    case group_phase::preparing_rebalance:
      try_complete_join(now_ms, out);
      break;
    case group_phase::empty:
    case group_phase::dead:
      break;
  }
}

void group_state::maybe_prepare_rebalance(int64_t now_ms, group_replies& out) {
  if (phase_ == group_phase::empty || phase_ == group_phase::stable
      || phase_ == group_phase::completing_rebalance)
    prepare_rebalance(now_ms, out);
}

void group_state::prepare_rebalance(int64_t now_ms, group_replies& out) {
  if (phase_ == group_phase::completing_rebalance) {
    // The leader's assignment for this generation will not come (or not count): held syncs
    // are told to rejoin, and their sessions run again from now.
    for (auto& m : members_) {
      m.assignment.clear();
      if (m.awaiting_sync) {
        out.syncs.emplace_back(*m.awaiting_sync, sync_error(kafka_error::rebalance_in_progress));
        m.awaiting_sync.reset();
        m.last_heartbeat_ms = now_ms;
      }
    }
  }
  if (phase_ == group_phase::empty) {
    // Kafka's InitialDelayedJoin: give the other consumers of a starting application time to
    // arrive, so that the group does not rebalance once per consumer.
    initial_delay_ = true;
    new_member_added_ = false;
    int64_t delay = config_.initial_rebalance_delay_ms;
    initial_delay_left_ms_ = std::max<int64_t>(rebalance_timeout_ms() - delay, 0);
    rebalance_deadline_ms_ = now_ms + delay;
  } else {
    initial_delay_ = false;
    rebalance_deadline_ms_ = now_ms + rebalance_timeout_ms();
  }
  phase_ = group_phase::preparing_rebalance;
  try_complete_join(now_ms, out);
}

void group_state::try_complete_join(int64_t now_ms, group_replies& out) {
  // The delayed initial join waits for its time even when everyone known has joined.
  if (phase_ == group_phase::preparing_rebalance && !initial_delay_ && all_members_joined())
    complete_join(now_ms, out);
}

void group_state::complete_join(int64_t now_ms, group_replies& out) {
  // Dynamic members that did not rejoin in time are gone; a static member keeps its place
  // (it may be restarting) until its session ends.
  members_.erase(std::remove_if(members_.begin(), members_.end(),
                                [](auto& m) { return !m.awaiting_join && !m.is_static(); }),
                 members_.end());
  initial_delay_ = false;
  bool anyone_joined = std::any_of(members_.begin(), members_.end(),
                                   [](auto& m) { return m.awaiting_join.has_value(); });
  if (!members_.empty() && !anyone_joined) {
    // Only silent static members are left: wait another round (Kafka does the same) until
    // they rejoin or their sessions end. At least 1 ms, so that tick always moves on.
    rebalance_deadline_ms_ = now_ms + std::max<int64_t>(rebalance_timeout_ms(), 1);
    return;
  }
  ++generation_;
  if (members_.empty()) {
    phase_ = group_phase::empty;
    protocol_.clear();
    leader_.clear();
    return;
  }
  auto* leader = find(leader_);
  if (leader == nullptr || !leader->awaiting_join)
    leader_ = find_member_if(members_, [](auto& m) { return m.awaiting_join.has_value(); })
                  ->member_id;
  // Every join checked for a protocol in common with all the others, so there is one.
  protocol_ = select_group_protocol(members_).value_or(std::string{});
  phase_ = group_phase::completing_rebalance;
  for (auto& m : members_) {
    m.last_heartbeat_ms = now_ms;
    m.is_new = false;
    if (m.awaiting_join) {
      out.joins.emplace_back(*m.awaiting_join, current_generation_answer(m.member_id));
      m.awaiting_join.reset();
    }
  }
}

void group_state::on_rebalance_deadline(int64_t now_ms, group_replies& out) {
  int64_t delay = config_.initial_rebalance_delay_ms;
  if (initial_delay_ && new_member_added_ && initial_delay_left_ms_ > 0 && delay > 0) {
    // Someone new arrived during the delay: wait once more, within the rebalance timeout.
    new_member_added_ = false;
    delay = std::min(delay, initial_delay_left_ms_);
    initial_delay_left_ms_ -= delay;
    rebalance_deadline_ms_ += delay;
    return;
  }
  complete_join(now_ms, out);
}

group_replies group_state::tick(int64_t now_ms) {
  group_replies out;
  if (phase_ == group_phase::dead)
    return out;
  bool pending_lapsed = false;
  for (auto it = pending_members_.begin(); it != pending_members_.end();) {
    if (it->second <= now_ms) {
      it = pending_members_.erase(it);
      pending_lapsed = true;
    } else {
      ++it;
    }
  }
  if (pending_lapsed)
    try_complete_join(now_ms, out);
  // One at a time: each removal may start a rebalance, which changes who may expire.
  for (;;) {
    auto* expired = find_member_if(members_, [&](auto& m) {
      auto deadline = session_deadline(m);
      return deadline && *deadline <= now_ms;
    });
    if (expired == nullptr)
      break;
    remove_member(expired->member_id, now_ms, out);
  }
  while (phase_ == group_phase::preparing_rebalance && rebalance_deadline_ms_ <= now_ms)
    on_rebalance_deadline(now_ms, out);
  return out;
}

std::optional<int64_t> group_state::next_deadline() const {
  std::optional<int64_t> earliest;
  auto consider = [&](int64_t t) {
    if (!earliest || t < *earliest)
      earliest = t;
  };
  if (phase_ == group_phase::dead)
    return earliest;
  for (auto& [id, deadline] : pending_members_)
    consider(deadline);
  for (auto& m : members_)
    if (auto deadline = session_deadline(m))
      consider(*deadline);
  if (phase_ == group_phase::preparing_rebalance)
    consider(rebalance_deadline_ms_);
  return earliest;
}

group_replies group_state::mark_dead() {
  group_replies out;
  for (auto& m : members_) {
    if (m.awaiting_join)
      out.joins.emplace_back(*m.awaiting_join,
                             join_error(kafka_error::not_coordinator, m.member_id));
    if (m.awaiting_sync)
      out.syncs.emplace_back(*m.awaiting_sync, sync_error(kafka_error::not_coordinator));
  }
  members_.clear();
  pending_members_.clear();
  leader_.clear();
  protocol_.clear();
  initial_delay_ = false;
  phase_ = group_phase::dead;
  return out;
}

group_description group_state::describe() const {
  group_description d;
  d.state = phase_;
  d.protocol_type = protocol_type_;
  bool stable = phase_ == group_phase::stable;
  if (stable)
    d.protocol = protocol_;
  for (auto& m : members_) {
    member_description md{m.member_id, m.group_instance_id, m.client_id, m.client_host, {}, {}};
    if (stable) {
      if (auto* metadata = m.metadata_for(protocol_))
        md.metadata = *metadata;
      md.assignment = m.assignment;
    }
    d.members.push_back(std::move(md));
  }
  return d;
}

} // namespace cafka::cluster
