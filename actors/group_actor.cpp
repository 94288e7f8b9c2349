#include "actors/group_actor.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/member_id_suffix.hpp"

namespace cafka {

namespace {

using clock_type = caf::actor_clock;

struct group_actor_state {
  static inline const char* name = "cafka.group";
  std::string group_id;
  cluster::group_state group;
  std::shared_ptr<group_offset_store> offsets;
  /// The held JoinGroup and SyncGroup answers, by the request id given to group_state.
  uint64_t last_request_id = 0;
  std::map<uint64_t, caf::typed_response_promise<cluster::join_answer>> joins;
  std::map<uint64_t, caf::typed_response_promise<cluster::sync_answer>> syncs;
  /// The one pending deadline timer; time_point{} when none is pending.
  clock_type::time_point timer_at{};
  uint64_t timer_id = 0;
};

using self_ptr = group_actor::stateful_pointer<group_actor_state>;

// The state machine's time: the actor clock in ms (steady; only differences matter).
int64_t now_ms(self_ptr self) {
  using namespace std::chrono;
  return duration_cast<milliseconds>(self->clock().now().time_since_epoch()).count();
}

// Delivers every answer the state machine released to the request it belongs to.
void deliver(self_ptr self, cluster::group_replies&& replies) {
  auto& st = self->state;
  for (auto& [id, answer] : replies.joins) {
    auto it = st.joins.find(id);
    if (it == st.joins.end())
      continue;
    it->second.deliver(std::move(answer));
    st.joins.erase(it);
  }
  for (auto& [id, answer] : replies.syncs) {
    auto it = st.syncs.find(id);
    if (it == st.syncs.end())
      continue;
    it->second.deliver(std::move(answer));
    st.syncs.erase(it);
  }
}

// Makes sure a timer fires by the state machine's next deadline: one pending timer, re-armed
// only for an earlier deadline (a later one is armed when the earlier timer fires).
void arm_deadline_timer(self_ptr self) {
  auto& st = self->state;
  auto next = st.group.next_deadline();
  if (!next)
    return;
  auto deadline = clock_type::time_point{std::chrono::milliseconds(*next)};
  if (st.timer_at != clock_type::time_point{} && st.timer_at <= deadline)
    return;
  st.timer_at = deadline;
  auto delay = std::max(deadline - self->clock().now(), clock_type::duration_type{0});
  self->delayed_send(self, delay, caf::timeout_atom_v, ++st.timer_id);
}

caf::result<void> to_result(protocol::kafka_error e) {
  if (e == protocol::kafka_error::none)
    return caf::unit;
  return caf::make_error(e);
}

group_actor::behavior_type group_behavior(self_ptr self, group_context ctx) {
  auto& st = self->state;
  st.group_id = std::move(ctx.group_id);
  st.group = cluster::group_state{ctx.config, make_member_id_suffixes()};
  st.offsets = std::move(ctx.offsets);
  return {
    [=](join_group_atom, const cluster::join_request& req) -> caf::result<cluster::join_answer> {
      auto& st = self->state;
      auto id = ++st.last_request_id;
      auto promise = self->make_response_promise<cluster::join_answer>();
      st.joins.emplace(id, promise);
      deliver(self, st.group.join(id, req, now_ms(self)));
      arm_deadline_timer(self);
      return promise;
    },
    [=](sync_group_atom, const cluster::sync_request& req) -> caf::result<cluster::sync_answer> {
      auto& st = self->state;
      auto id = ++st.last_request_id;
      auto promise = self->make_response_promise<cluster::sync_answer>();
      st.syncs.emplace(id, promise);
      deliver(self, st.group.sync(id, req, now_ms(self)));
      arm_deadline_timer(self);
      return promise;
    },
    [=](heartbeat_atom, const cluster::heartbeat_request& req) -> caf::result<void> {
      auto error = self->state.group.heartbeat(req, now_ms(self));
      arm_deadline_timer(self);
      return to_result(error);
    },
    [=](leave_group_atom, const std::vector<cluster::member_identity>& leaving) {
      auto outcome = self->state.group.leave(leaving, now_ms(self));
      deliver(self, std::move(outcome.replies));
      arm_deadline_timer(self);
      return outcome.answer;
    },
    [=](describe_atom) { return self->state.group.describe(); },
    [=](commit_offsets_atom, group_offset_commit& commit) -> caf::result<void> {
      auto& st = self->state;
      auto now = now_ms(self);
      auto error = st.group.check_offset_commit(commit.member_id, commit.group_instance_id,
                                                commit.generation, now);
      arm_deadline_timer(self); // the check refreshes the member's session
      if (error != protocol::kafka_error::none)
        return caf::make_error(error);
      // Untyped: a typed promise cannot deliver the empty reply of a void handler.
      caf::response_promise promise = self->make_response_promise();
      st.offsets->commit(std::move(commit.offsets), now, [promise](protocol::kafka_error e) mutable {
        if (e == protocol::kafka_error::none)
          promise.deliver(caf::unit);
        else
          promise.deliver(caf::make_error(e));
      });
      return promise;
    },
    [=](fetch_offsets_atom, const group_offset_query& query) -> caf::result<std::vector<group_offset>> {
      auto promise = self->make_response_promise<std::vector<group_offset>>();
      self->state.offsets->fetch(query, [promise](std::vector<group_offset> found) mutable {
        promise.deliver(std::move(found));
      });
      return promise;
    },
    [=](caf::timeout_atom, uint64_t id) {
      auto& st = self->state;
      if (id != st.timer_id)
        return; // superseded by an earlier deadline's timer
      st.timer_at = {};
      deliver(self, st.group.tick(now_ms(self)));
      arm_deadline_timer(self);
    },
    [=](caf::close_atom) {
      deliver(self, self->state.group.mark_dead());
      self->quit();
      return true;
    },
  };
}

} // namespace

group_actor spawn_group(caf::actor_system& sys, group_context ctx) {
  return sys.spawn(group_behavior, std::move(ctx));
}

} // namespace cafka
