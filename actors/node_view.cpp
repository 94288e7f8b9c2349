// Cluster mode: the node's replicas follow the cluster view (docs/cluster.md,
// docs/replication.md). On each new view every partition this broker holds a replica of
// settles: its log opened on the I/O worker if needed, a partition actor given its role
// (leader: routed to; follower: fed by a replica fetcher), closed when the broker holds no
// replica any more, its folder removed once its topic is deleted. __consumer_offsets
// partitions are replicas like the others, but not routed to: their leaders coordinate
// groups (node_offsets.cpp).
#include <algorithm>
#include <filesystem>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/node_actor_state.hpp"
#include "actors/node_storage.hpp"
#include "actors/routing_table.hpp"
#include "actors/view_metadata.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/txn_metadata.hpp"
#include "cluster/znode_paths.hpp"
#include "config/dynamic_broker_config.hpp"

namespace cafka {

bool clustered(self_ptr self) { return self->state.ctx.views != nullptr; }

namespace {

bool internal(const topic_partition& tp) { return cluster::is_internal_topic(tp.topic); }

// This broker now leads an internal partition: its groups or transactional ids are loaded.
void lead_internal(self_ptr self, const topic_partition& tp, const partition_actor& replica, const replica_role& role) {
  if (tp.topic == cluster::offsets_topic_name)
    lead_offsets_partition(self, tp.partition, replica);
  else
    lead_txn_partition(self, tp.partition, replica, role.leader_epoch);
}

void leave_internal(self_ptr self, const topic_partition& tp) {
  if (tp.topic == cluster::offsets_topic_name)
    leave_offsets_partition(self, tp.partition);
  else
    leave_txn_partition(self, tp.partition);
}

} // namespace

void publish_routes(self_ptr self) {
  auto& st = self->state;
  if (!clustered(self)) { // __transaction_state: not routed to, under retention
    std::map<topic_partition, partition_actor> served, internal_ones;
    for (auto& [tp, actor] : st.partitions)
      if (st.unregistered.count(tp.topic) == 0)
        (internal(tp) ? internal_ones : served).emplace(tp, actor);
    st.ctx.routes->publish(served, {}, internal_ones, internal_ones);
    return;
  }
  // Internal replicas are not routed to (clients); only their followers fetch from them.
  // __consumer_offsets is not under retention, __transaction_state is (cluster/internal_topics.hpp).
  std::map<topic_partition, partition_actor> followers, internal_leaders, internal_followers;
  for (auto& [tp, actor] : st.replicas) {
    auto role = st.roles.find(tp);
    if (!internal(tp) || tp.topic == cluster::transaction_state_topic)
      followers.emplace(tp, actor);
    if (!internal(tp))
      continue;
    if (role != st.roles.end() && role->second.leader == my_id(self))
      internal_leaders.emplace(tp, actor);
    else
      internal_followers.emplace(tp, actor);
  }
  st.ctx.routes->publish(st.partitions, partitions_elsewhere(st.applied->view, st.partitions), std::move(followers),
                         std::move(internal_leaders), internal_followers);
}

int32_t my_id(self_ptr self) { return self->state.ctx.storage->config.broker_id; }

int32_t recorded_leader(self_ptr self, const topic_partition& tp) {
  auto* topic = self->state.applied->view.topic(tp.topic);
  if (topic == nullptr || tp.partition < 0 || tp.partition >= static_cast<int32_t>(topic->partitions.size()))
    return cluster::no_broker;
  return topic->partitions[static_cast<size_t>(tp.partition)].state.leader;
}

namespace {

// The topic was deleted (not merely skipped as malformed by the loader): its data can go.
bool topic_deleted(self_ptr self, const std::string& topic) {
  auto& loaded = *self->state.applied;
  if (loaded.view.topic(topic) != nullptr)
    return false;
  auto prefix = cluster::topic_path(topic);
  for (auto& path : loaded.malformed)
    if (path.compare(0, prefix.size(), prefix) == 0)
      return false;
  return true;
}

// The topic is there but this broker no longer holds a replica of the partition (it was
// reassigned away): its data can go, as Kafka's StopReplica with deletion.
bool moved_away(self_ptr self, const topic_partition& tp) {
  auto* topic = self->state.applied->view.topic(tp.topic);
  if (topic == nullptr || tp.partition < 0 || tp.partition >= static_cast<int32_t>(topic->assignment.partitions.size()))
    return false;
  auto& replicas = topic->assignment.partitions[static_cast<size_t>(tp.partition)];
  return std::find(replicas.begin(), replicas.end(), my_id(self)) == replicas.end();
}

// Closes and removes the log of a partition of a deleted topic, or one moved away (on the
// I/O worker).
void drop_log(self_ptr self, const topic_partition& tp, const char* why) {
  auto& ns = *self->state.ctx.storage;
  auto it = ns.partitions.find(tp);
  if (it == ns.partitions.end())
    return;
  auto log = it->second.log;
  auto folder = ns.dirs[it->second.dir]->partition_path(tp);
  ns.partitions.erase(it);
  log_line(log_level::info, log_component::replication, "broker %d: removing %s-%d (%s)", my_id(self), tp.topic.c_str(), tp.partition, why);
  caf::anon_send(self->state.ctx.io_worker, io_job{[log, folder] {
                   log->close();
                   std::error_code ec;
                   std::filesystem::remove_all(folder, ec);
                   return ec;
                 }});
}

void settle(self_ptr self, const topic_partition& tp);
void publish_replicas(self_ptr self);

// Opens (creating the folder if missing, recovering otherwise) a partition's log on the I/O
// worker, then settles it again.
void open_log_async(self_ptr self, const topic_partition& tp) {
  auto& st = self->state;
  auto& ns = *st.ctx.storage;
  auto* topic = st.applied->view.topic(tp.topic);
  if (topic == nullptr)
    return;
  auto rf = static_cast<int16_t>(topic->assignment.partitions.empty() ? 1 : topic->assignment.partitions[0].size());
  ns.topics[tp.topic] = storage::topic_entry{static_cast<int32_t>(topic->assignment.partitions.size()), rf,
                                             topic->config.entries}; // for log_config_for
  auto dir = ns.dir_for(tp);
  auto* folder = ns.dirs[dir].get();
  auto cfg = ns.log_config_for(tp.topic);
  auto now = st.ctx.now_ms();
  auto opened = std::make_shared<std::shared_ptr<storage::partition_log>>();
  st.opening.insert(tp);
  self->request(st.ctx.io_worker, caf::infinite, io_job{[folder, tp, cfg, now, opened] {
                  auto log = folder->open_log(tp, cfg, now);
                  if (!log)
                    return log.error();
                  *opened = std::shared_ptr<storage::partition_log>(std::move(*log));
                  return std::error_code{};
                }})
    .then(
      [=] {
        self->state.opening.erase(tp);
        if (auto& r = (*opened)->recovery(); r.truncated_bytes > 0 || r.deleted_segments > 0)
          log_line(log_level::warn, log_component::storage, "broker %d: %s-%d repaired at open: %llu torn or corrupt byte(s) cut, %zu segment(s) after them "
                   "removed, log end %lld",
                   my_id(self), tp.topic.c_str(), tp.partition, static_cast<unsigned long long>(r.truncated_bytes),
                   r.deleted_segments, static_cast<long long>((*opened)->log_end_offset()));
        self->state.ctx.storage->partitions[tp] = node_storage::open_partition{*opened, dir};
        settle(self, tp);
        publish_replicas(self);
      },
      [=](caf::error& err) {
        self->state.opening.erase(tp);
        log_line(log_level::warn, log_component::storage, "broker %d: opening %s-%d failed: %s", my_id(self), tp.topic.c_str(), tp.partition,
                 describe(err).c_str());
      });
}

} // namespace

partition_context context_for(self_ptr self, const topic_partition& tp, replica_role role) {
  auto& st = self->state;
  auto& ns = *st.ctx.storage;
  auto hw = ns.high_watermarks.find(tp);
  return partition_context{tp,
                           st.ctx.io_worker,
                           st.ctx.now_ms,
                           ns.config.broker_id,
                           std::move(role),
                           hw == ns.high_watermarks.end() ? -1 : hw->second,
                           ns.config.replica_lag_time_max_ms,
                           st.ctx.coordinator,
                           st.ctx.metrics};
}

namespace {

// Brings one partition in line with the applied view: a partition actor while this broker
// holds a replica (given its role: leader or follower), routed to while it leads; none
// otherwise; a deleted topic's log is removed once its actor is gone.
void settle(self_ptr self, const topic_partition& tp) {
  auto& st = self->state;
  if (st.stopping || st.opening.count(tp) > 0 || st.closing.count(tp) > 0)
    return;
  auto& ns = *st.ctx.storage;
  auto me = my_id(self);
  auto role = role_in_view(st.applied->view, tp, me,
                           config::min_insync_replicas_default(ns.dynamic, ns.config.min_insync_replicas));
  auto actor = st.replicas.find(tp);
  if (role && actor == st.replicas.end()) {
    auto log = ns.partitions.find(tp);
    if (log == ns.partitions.end()) {
      open_log_async(self, tp);
      return;
    }
    auto handle = spawn_partition(self->system(), log->second.log, context_for(self, tp, *role));
    st.replicas[tp] = handle;
    st.roles[tp] = *role;
    if (role->leader == me && !internal(tp))
      st.partitions[tp] = handle;
    log_line(log_level::info, log_component::replication, "broker %d: %s %s-%d (leader epoch %d)", me, role->leader == me ? "leading" : "following",
             tp.topic.c_str(), tp.partition, role->leader_epoch);
    if (role->leader == me && internal(tp))
      lead_internal(self, tp, handle, *role);
  } else if (role && actor != st.replicas.end()) {
    auto& last = st.roles[tp];
    if (last == *role)
      return;
    bool was_leader = last.leader == me;
    last = *role;
    caf::anon_send(actor->second, role_atom_v, *role);
    if (role->leader == me && !was_leader) {
      if (!internal(tp))
        st.partitions[tp] = actor->second;
      log_line(log_level::info, log_component::replication, "broker %d: leading %s-%d (leader epoch %d)", me, tp.topic.c_str(), tp.partition, role->leader_epoch);
      if (internal(tp))
        lead_internal(self, tp, actor->second, *role);
    } else if (role->leader != me && was_leader) {
      st.partitions.erase(tp);
      log_line(log_level::info, log_component::replication, "broker %d: following %s-%d (leader epoch %d)", me, tp.topic.c_str(), tp.partition,
               role->leader_epoch);
      if (internal(tp))
        leave_internal(self, tp);
    }
  } else if (!role && actor != st.replicas.end()) {
    auto handle = actor->second;
    if (internal(tp) && st.roles[tp].leader == me)
      leave_internal(self, tp);
    st.replicas.erase(actor);
    st.roles.erase(tp);
    st.partitions.erase(tp);
    st.closing.insert(tp);
    log_line(log_level::info, log_component::replication, "broker %d: no longer a replica of %s-%d", me, tp.topic.c_str(), tp.partition);
    auto again = [=] {
      self->state.closing.erase(tp);
      settle(self, tp);
    };
    self->request(handle, partition_request_timeout, caf::close_atom_v)
      .then([again](int64_t) { again(); }, [again](caf::error&) { again(); });
  } else if (!role && actor == st.replicas.end() && topic_deleted(self, tp.topic)) {
    drop_log(self, tp, "topic deleted");
  } else if (!role && actor == st.replicas.end() && moved_away(self, tp)) {
    drop_log(self, tp, "reassigned to other brokers");
  }
}

// Routes and replica fetchers after partitions settled.
void publish_replicas(self_ptr self) {
  auto& st = self->state;
  publish_routes(self);
  if (self->system().has_middleman() && !st.leaving)
    st.fetchers.update(self->system(), st.ctx.storage->config, st.applied->view, st.roles, st.replicas,
                       st.ctx.throttle, st.ctx.now_ms);
}

} // namespace

// The cluster member published a new view: open and close partition actors to match it.
void apply_view(self_ptr self) {
  auto& st = self->state;
  if (st.stopping)
    return;
  auto next = st.ctx.views->snapshot();
  auto changes = cluster::leadership_changes(st.applied->view, next->view, my_id(self));
  st.applied = next;
  apply_configs_of_view(self);
  std::set<topic_partition> touched;
  for (auto& c : changes.stop)
    touched.insert(topic_partition{c.topic, c.partition});
  for (auto& c : changes.start)
    touched.insert(topic_partition{c.topic, c.partition});
  for (auto& [tp, _] : st.ctx.storage->partitions)
    if (topic_deleted(self, tp.topic) || moved_away(self, tp))
      touched.insert(tp);
  // Every replica here may have a new role (leader, epoch, ISR, live brokers).
  auto me = my_id(self);
  for (auto& [name, topic] : st.applied->view.topics())
    for (size_t p = 0; p < topic.assignment.partitions.size(); ++p) {
      auto& replicas = topic.assignment.partitions[p];
      if (std::find(replicas.begin(), replicas.end(), me) != replicas.end())
        touched.insert(topic_partition{name, static_cast<int32_t>(p)});
    }
  for (auto& [tp, _] : st.replicas)
    touched.insert(tp);
  for (auto& tp : touched)
    settle(self, tp);
  publish_replicas(self); // the partitions led elsewhere changed too
}

} // namespace cafka
