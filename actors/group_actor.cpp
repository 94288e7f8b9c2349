#include "actors/group_actor.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include <functional>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/member_id_suffix.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/ensure_path.hpp"
#include "cluster/group_deletion.hpp"
#include "cluster/member_registrations.hpp"
#include "cluster/znode_paths.hpp"

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
  /// What the log has said of the membership: one line per member joining or leaving and
  /// per new generation.
  std::set<std::string> logged_members;
  int32_t logged_generation = 0;
  /// The one pending deadline timer; time_point{} when none is pending.
  clock_type::time_point timer_at{};
  uint64_t timer_id = 0;
  /// Membership in the coordinator (see the header); none of it without a coordinator.
  std::shared_ptr<cluster::coordinator> coordinator;
  cluster::member_registrations registrations;
  bool watching = false;       ///< a children read (and so its watch) is outstanding
  bool folder_ensured = false; ///< the ids folder's create was issued before the next read
  bool session_gone = false;   ///< the session expired or was closed: no more registering
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

// Sends to the group actor from a coordinator callback, if the actor still exists: the
// coordinator may hold a watch for long and must not keep the actor alive.
template <class... Ts>
void tell(const caf::weak_actor_ptr& weak, Ts&&... xs) {
  if (auto strong = weak.lock())
    caf::anon_send(caf::actor_cast<group_actor>(strong), std::forward<Ts>(xs)...);
}

caf::weak_actor_ptr weak_self(self_ptr self) {
  return caf::weak_actor_ptr{self->ctrl()};
}

void on_session_gone(self_ptr self, std::error_code ec) {
  auto& st = self->state;
  if (st.session_gone)
    return;
  st.session_gone = true;
  st.watching = false;
  st.registrations.forget_all();
  log_line(log_level::info, log_component::groups, "group '%s': coordinator session ended (%s); members are no longer registered",
           st.group_id.c_str(), ec.message().c_str());
}

// Reads the ids folder's children with a watch, unless a read or its watch is outstanding
// (each read arms one more watch: never two at a time).
void read_member_ids(self_ptr self) {
  auto& st = self->state;
  if (!st.coordinator || st.session_gone || st.watching
      || st.group.phase() == cluster::group_phase::dead)
    return;
  st.watching = true;
  auto path = cluster::consumer_ids_path(st.group_id);
  if (!st.folder_ensured) { // served before the read: one session's calls run in order
    st.folder_ensured = true;
    cluster::ensure_path(*st.coordinator, path, {});
  }
  auto weak = weak_self(self);
  st.coordinator->children(
    path, [weak](const cluster::watch_event&) { tell(weak, membership_atom_v); },
    [weak](result<std::vector<std::string>> r) {
      member_ids_read read;
      if (r)
        read.children = std::move(*r);
      else
        read.error = r.error();
      tell(weak, membership_atom_v, std::move(read));
    });
}

// Brings the coordinator in line with the members after any change: creates the nodes of new
// members, removes those of departed ones, and re-arms the watch if a read failed earlier.
void register_members(self_ptr self) {
  auto& st = self->state;
  if (!st.coordinator || st.session_gone)
    return;
  std::vector<std::string> ids;
  for (auto& m : st.group.members())
    ids.push_back(m.member_id);
  auto plan = st.registrations.reconcile(ids);
  auto weak = weak_self(self);
  for (auto& id : plan.to_create) {
    auto* m = st.group.find_member(id);
    cluster::create_recursive(*st.coordinator, cluster::consumer_member_path(st.group_id, id),
                              cluster::encode_member_registration(*m), cluster::create_mode::ephemeral,
                              [weak, id](result<std::string> r) {
                                tell(weak, membership_atom_v, member_node_created{id, r.error()});
                              });
  }
  for (auto& id : plan.to_remove) // no_node (already gone) is fine: nobody waits for it
    st.coordinator->remove(cluster::consumer_member_path(st.group_id, id), cluster::any_version, {});
  read_member_ids(self);
}

// What every handler does after the state machine acted.
// One log line per membership change since the last call (never per heartbeat or commit).
void log_membership(self_ptr self) {
  auto& st = self->state;
  std::set<std::string> now;
  for (auto& m : st.group.members()) {
    now.insert(m.member_id);
    if (st.logged_members.count(m.member_id) == 0)
      log_line(log_level::info, log_component::groups, "group '%s': member %s joined (client %s, host %s)",
               st.group_id.c_str(), m.member_id.c_str(), m.client_id.c_str(), m.client_host.c_str());
  }
  for (auto& id : st.logged_members)
    if (now.count(id) == 0)
      log_line(log_level::info, log_component::groups, "group '%s': member %s left", st.group_id.c_str(), id.c_str());
  st.logged_members = std::move(now);
  if (st.group.generation() != st.logged_generation) {
    st.logged_generation = st.group.generation();
    if (st.group.members().empty())
      log_line(log_level::info, log_component::groups, "group '%s': generation %d, empty", st.group_id.c_str(),
               st.logged_generation);
    else
      log_line(log_level::info, log_component::groups, "group '%s': generation %d with %zu member(s), protocol %s",
               st.group_id.c_str(), st.logged_generation, st.group.members().size(), st.group.protocol().c_str());
  }
}

void after_change(self_ptr self, cluster::group_replies&& replies) {
  log_membership(self);
  deliver(self, std::move(replies));
  arm_deadline_timer(self);
  register_members(self);
}

caf::result<void> to_result(protocol::kafka_error e) {
  if (e == protocol::kafka_error::none)
    return caf::unit;
  return caf::make_error(e);
}

// The answer to an offset commit once the store has it: empty, or the store's error. (Untyped:
// a typed promise cannot deliver the empty reply of a void handler.)
std::function<void(protocol::kafka_error)> answer_stored(caf::response_promise promise) {
  return [promise](protocol::kafka_error e) mutable {
    if (e == protocol::kafka_error::none)
      promise.deliver(caf::unit);
    else
      promise.deliver(caf::make_error(e));
  };
}

group_actor::behavior_type group_behavior(self_ptr self, group_context ctx) {
  auto& st = self->state;
  st.group_id = std::move(ctx.group_id);
  st.group = cluster::group_state{ctx.config, ctx.member_id_seed != 0 ? make_member_id_suffixes(ctx.member_id_seed)
                                                                      : make_member_id_suffixes()};
  st.offsets = std::move(ctx.offsets);
  st.coordinator = std::move(ctx.coordinator);
  read_member_ids(self); // the first watch
  return {
    [=](join_group_atom, const cluster::join_request& req) -> caf::result<cluster::join_answer> {
      auto& st = self->state;
      auto id = ++st.last_request_id;
      auto promise = self->make_response_promise<cluster::join_answer>();
      st.joins.emplace(id, promise);
      after_change(self, st.group.join(id, req, now_ms(self)));
      return promise;
    },
    [=](sync_group_atom, const cluster::sync_request& req) -> caf::result<cluster::sync_answer> {
      auto& st = self->state;
      auto id = ++st.last_request_id;
      auto promise = self->make_response_promise<cluster::sync_answer>();
      st.syncs.emplace(id, promise);
      after_change(self, st.group.sync(id, req, now_ms(self)));
      return promise;
    },
    [=](heartbeat_atom, const cluster::heartbeat_request& req) -> caf::result<void> {
      auto error = self->state.group.heartbeat(req, now_ms(self));
      after_change(self, {});
      return to_result(error);
    },
    [=](leave_group_atom, const std::vector<cluster::member_identity>& leaving) {
      auto outcome = self->state.group.leave(leaving, now_ms(self));
      after_change(self, std::move(outcome.replies));
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
      auto promise = self->make_response_promise();
      st.offsets->commit(std::move(commit.offsets), now, answer_stored(promise));
      return promise;
    },
    [=](txn_offset_commit_atom, txn_offset_commit& commit) -> caf::result<void> {
      // TxnOffsetCommit v0-2: no membership check (KIP-447's v3 adds one); the producer's
      // epoch is checked where the batch is written.
      auto promise = self->make_response_promise();
      self->state.offsets->commit_txn(commit.producer_id, commit.producer_epoch, std::move(commit.offsets),
                                      now_ms(self), answer_stored(promise));
      return promise;
    },
    [=](fetch_offsets_atom, const group_offset_query& query) -> caf::result<std::vector<group_offset>> {
      auto promise = self->make_response_promise<std::vector<group_offset>>();
      self->state.offsets->fetch(query, [promise](std::vector<group_offset> found) mutable {
        promise.deliver(std::move(found));
      });
      return promise;
    },
    [=](delete_group_atom) -> caf::result<int16_t> {
      auto& st = self->state;
      auto error = cluster::group_deletion_error(st.group);
      if (error != protocol::kafka_error::none)
        return protocol::wire_code(error);
      // Dead first, as Kafka: from here every request is refused while the offsets go. The
      // callbacks may run on another thread: they only deliver the promise.
      after_change(self, st.group.mark_dead());
      log_line(log_level::info, log_component::groups, "group '%s': deleted", st.group_id.c_str());
      auto promise = self->make_response_promise<int16_t>();
      auto offsets = st.offsets;
      auto now = now_ms(self);
      offsets->fetch(group_offset_query{true, {}}, [promise, offsets, now](std::vector<group_offset> all) mutable {
        std::vector<storage::topic_partition> partitions;
        for (auto& o : all)
          partitions.push_back(o.tp);
        offsets->remove(std::move(partitions), now, [promise](protocol::kafka_error e) mutable {
          promise.deliver(protocol::wire_code(e));
        });
      });
      return promise;
    },
    [=](delete_offsets_atom, const group_offset_query& query) -> caf::result<group_offsets_deleted> {
      auto& st = self->state;
      auto plan = cluster::plan_offset_deletion(st.group, query.partitions);
      group_offsets_deleted answer{plan.group_error, std::move(plan.partitions)};
      if (answer.group_error != protocol::kafka_error::none || plan.to_delete.empty())
        return answer;
      auto promise = self->make_response_promise<group_offsets_deleted>();
      st.offsets->remove(std::move(plan.to_delete), now_ms(self),
                         [promise, answer = std::move(answer)](protocol::kafka_error e) mutable {
                           for (auto& [_, error] : answer.partitions)
                             if (error == protocol::kafka_error::none)
                               error = e;
                           promise.deliver(std::move(answer));
                         });
      return promise;
    },
    [=](caf::timeout_atom, uint64_t id) {
      auto& st = self->state;
      if (id != st.timer_id)
        return; // superseded by an earlier deadline's timer
      st.timer_at = {};
      after_change(self, st.group.tick(now_ms(self)));
    },
    [=](membership_atom) { // the ids folder's watch fired (or the session ended)
      self->state.watching = false;
      read_member_ids(self);
    },
    [=](membership_atom, member_ids_read& read) {
      auto& st = self->state;
      if (read.error == cluster::errc::no_node) {
        st.watching = false; // nothing was armed: ensure the folder and read again below
        st.folder_ensured = false;
      } else if (read.error) {
        st.watching = false;
        if (cluster::needs_new_session(read.error))
          on_session_gone(self, read.error);
        return; // else (connection_loss): read again on the next request or timer
      }
      auto gone = st.registrations.vanished(read.children);
      if (gone.empty()) {
        register_members(self);
        return;
      }
      // Their nodes went (removed by someone, or their session ended): out of the group,
      // as with a LeaveGroup, so that the others rebalance.
      std::vector<cluster::member_identity> leaving;
      for (auto& id : gone)
        leaving.push_back({id, std::nullopt});
      after_change(self, st.group.leave(leaving, now_ms(self)).replies);
    },
    [=](membership_atom, member_node_created& done) {
      auto& st = self->state;
      if (!done.error || done.error == cluster::errc::node_exists) {
        st.registrations.created(done.member_id);
      } else {
        st.registrations.create_failed(done.member_id); // retried on the next reconcile
        if (cluster::needs_new_session(done.error))
          on_session_gone(self, done.error);
      }
    },
    [=](membership_atom, caf::reset_atom) { // the session was lost or renewed: register anew
      auto& st = self->state;
      st.registrations.forget_all();
      st.session_gone = false;
      st.watching = false;       // the old session's watch is gone (or fires once more: harmless)
      st.folder_ensured = false;
      log_line(log_level::warn, log_component::groups, "group '%s': coordinator session lost or renewed; registering %zu member(s) again",
               st.group_id.c_str(), st.group.members().size());
      register_members(self);
    },
    [=](caf::close_atom) {
      after_change(self, self->state.group.mark_dead()); // removes every member's node
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
