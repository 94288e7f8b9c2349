// A partition actor's roles and its work as leader: followers' fetches, the high
// watermark, ISR shrink and expand (written to the partition state, conditional on its
// version), and acks=all produces waiting for the ISR. The rules themselves are pure
// functions of cluster/ (replica_progress, high_watermark, isr_changes); this file applies
// them and converts their results into messages.
#include <algorithm>
#include <chrono>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/partition_actor_state.hpp"
#include "cluster/cluster_writes.hpp"
#include "metrics/broker_metrics.hpp"
#include "cluster/high_watermark.hpp"
#include "cluster/isr_changes.hpp"
#include "storage/partition_log.hpp"

namespace cafka {

namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::string ids_text(const std::vector<int32_t>& ids) {
  std::string out = "[";
  for (auto id : ids)
    out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "]";
}

std::string name_of(const partition_actor_state& st) {
  return st.ctx.tp.topic + "-" + std::to_string(st.ctx.tp.partition);
}

caf::error not_leader(const partition_actor_state& st) {
  return caf::make_error(kafka_error::not_leader_or_follower,
                         "broker " + std::to_string(st.ctx.broker_id) + " does not lead " + name_of(st));
}

void arm_isr_check(partition_self self) {
  auto& st = self->state;
  if (st.role.replicas.size() < 2 || !st.ctx.coordinator)
    return;
  auto every = std::chrono::milliseconds(std::max<int64_t>(st.ctx.replica_lag_time_max_ms / 2, 1));
  self->delayed_send(self, every, isr_atom_v, st.isr_timer_generation);
}

// Records the new ISR in the partition state, conditional on the version the role was read
// from: a controller's or another leader's write in between makes it fail (bad_version) and
// the next view decides again. Kafka's maximal ISR: while a shrink is out the old, larger
// set still counts for the high watermark; an expansion counts at once.
void write_isr(partition_self self, std::vector<int32_t> isr) {
  auto& st = self->state;
  if (!st.ctx.coordinator || st.role.state_version < 0 || st.isr_write_in_flight)
    return;
  bool expand = isr.size() > st.role.isr.size();
  log_line(log_level::info, log_component::replication, "broker %d: %s ISR %s -> %s (leader epoch %d)", st.ctx.broker_id, name_of(st).c_str(),
           ids_text(st.role.isr).c_str(), ids_text(isr).c_str(), st.role.leader_epoch);
  st.isr_write_in_flight = true;
  st.isr_written_from = st.role.state_version;
  if (expand)
    st.maximal_isr = isr;
  cluster::partition_state_write write{
    st.ctx.tp.topic, st.ctx.tp.partition,
    cluster::partition_state{st.ctx.broker_id, st.role.leader_epoch, st.role.controller_epoch, isr},
    st.role.state_version};
  auto weak = caf::actor_cast<caf::weak_actor_ptr>(self);
  // The node keeps the coordinator alive until it stops; the callback must not (a pending
  // write that never completes would keep the session in a cycle with itself).
  cluster::write_partition_states(*st.ctx.coordinator, {write}, [weak, isr](status written) {
    if (auto strong = weak.lock())
      caf::anon_send(caf::actor_cast<partition_actor>(strong), isr_atom_v, static_cast<bool>(written), isr);
  });
}

void complete_waiting_produces(partition_self self) {
  auto& st = self->state;
  auto keep = st.waiting.begin();
  for (auto& w : st.waiting) {
    switch (cluster::acks_all_outcome(st.high_watermark, w.required_offset, st.maximal_isr.size(),
                                      st.role.min_insync_replicas, st.role.replicas.size())) {
      case cluster::produce_wait::done:
        w.promise.deliver(w.result);
        break;
      case cluster::produce_wait::not_enough_replicas_after_append:
        w.promise.deliver(caf::make_error(kafka_error::not_enough_replicas_after_append,
                                          "written, but only " + std::to_string(st.maximal_isr.size())
                                            + " in-sync replica(s) have it"));
        break;
      case cluster::produce_wait::pending:
        *keep++ = std::move(w);
        break;
    }
  }
  st.waiting.erase(keep, st.waiting.end());
}

void start_leading(partition_self self, replica_role role) {
  auto& st = self->state;
  auto now = st.ctx.now_ms();
  st.log->assign_leader_epoch(role.leader_epoch);
  st.followers.clear();
  for (auto id : role.replicas)
    if (id != st.ctx.broker_id)
      st.followers.push_back(cluster::fresh_progress(id, contains(role.isr, id), now));
  st.maximal_isr = role.isr;
  st.isr_write_in_flight = false;
  st.role = std::move(role);
  ++st.isr_timer_generation;
  arm_isr_check(self);
}

// The same leadership with a newer partition state: the ISR (maybe our own write coming
// back) or the replicas changed.
void update_leading(partition_self self, replica_role role) {
  auto& st = self->state;
  if (st.isr_write_in_flight && role.state_version != st.isr_written_from)
    st.isr_write_in_flight = false;
  auto now = st.ctx.now_ms();
  for (auto id : role.replicas)
    if (id != st.ctx.broker_id
        && std::none_of(st.followers.begin(), st.followers.end(), [&](auto& p) { return p.broker == id; }))
      st.followers.push_back(cluster::fresh_progress(id, contains(role.isr, id), now));
  st.followers.erase(std::remove_if(st.followers.begin(), st.followers.end(),
                                    [&](auto& p) { return !contains(role.replicas, p.broker); }),
                     st.followers.end());
  // A follower this state takes out of the ISR (the controller dropped a broker that died, or
  // our own shrink came back) must not hold the high watermark any longer just because it was
  // caught up less than replica.lag.time.max.ms ago: acks=all would wait that long (30 s) for
  // a dead broker. Kafka's makeLeader resets lastCaughtUpTime to 0 for every replica outside
  // the ISR on each LeaderAndIsr; a fetch that shows it caught up counts it again.
  for (auto& p : st.followers)
    if (contains(st.role.isr, p.broker) && !contains(role.isr, p.broker))
      p.last_caught_up_ms = 0;
  st.role = std::move(role);
  if (!st.isr_write_in_flight)
    st.maximal_isr = st.role.isr;
}

void stop_leading(partition_self self, replica_role role) {
  auto& st = self->state;
  auto err = not_leader(st);
  for (auto& w : st.waiting)
    w.promise.deliver(err);
  st.waiting.clear();
  fail_waiting_deletes(self);
  fail_waiting_fetches(self, err);
  st.replica_watches.clear();
  st.followers.clear();
  st.maximal_isr.clear();
  st.isr_write_in_flight = false;
  ++st.isr_timer_generation;
  st.role = std::move(role);
}

void maybe_expand_isr(partition_self self, const cluster::replica_progress& p) {
  auto& st = self->state;
  if (contains(st.role.isr, p.broker) || st.isr_write_in_flight)
    return;
  auto epoch_start = st.log->epoch_cache().start_offset_of(st.role.leader_epoch).value_or(st.log->log_end_offset());
  if (!cluster::may_join_isr(p, contains(st.role.replicas, p.broker), contains(st.role.live_brokers, p.broker),
                             st.high_watermark, epoch_start))
    return;
  write_isr(self, cluster::expanded_isr(st.role.isr, p.broker, st.role.replicas));
}

replica_fetch_partition_result fetch_error(const partition_actor_state& st, kafka_error e) {
  replica_fetch_partition_result out;
  out.tp = st.ctx.tp;
  out.error = protocol::wire_code(e);
  out.high_watermark = st.high_watermark;
  out.log_start_offset = st.log->log_start_offset();
  out.log_end_offset = st.log->log_end_offset();
  return out;
}

} // namespace

void apply_role(partition_self self, replica_role role) {
  auto& st = self->state;
  bool lead = role.leader == st.ctx.broker_id;
  if (lead && leading(st) && role.leader_epoch == st.role.leader_epoch)
    update_leading(self, std::move(role));
  else if (lead)
    start_leading(self, std::move(role));
  else if (leading(st))
    stop_leading(self, std::move(role));
  else
    st.role = std::move(role);
  if (leading(st)) {
    advance_high_watermark(self);
    complete_waiting_deletes(self); // a follower's broker may have died
  }
}

void advance_high_watermark(partition_self self) {
  auto& st = self->state;
  auto hw = cluster::advance_high_watermark(st.high_watermark, st.log->log_start_offset(), st.log->log_end_offset(),
                                            st.followers, st.maximal_isr, st.ctx.now_ms(),
                                            st.ctx.replica_lag_time_max_ms);
  if (hw == st.high_watermark)
    return;
  st.high_watermark = hw;
  st.log->last_stable_offset(hw); // forgets the transactions now stable
  complete_waiting_produces(self);
  serve_waiting_fetches(self);
}

caf::result<produce_result> await_replication(partition_self self, int64_t required_offset, produce_result result,
                                              int32_t timeout_ms) {
  auto& st = self->state;
  switch (cluster::acks_all_outcome(st.high_watermark, required_offset, st.maximal_isr.size(),
                                    st.role.min_insync_replicas, st.role.replicas.size())) {
    case cluster::produce_wait::done:
      return result;
    case cluster::produce_wait::not_enough_replicas_after_append:
      return caf::make_error(kafka_error::not_enough_replicas_after_append,
                             "written, but the ISR shrank below min.insync.replicas");
    case cluster::produce_wait::pending:
      break;
  }
  auto promise = self->make_response_promise<produce_result>();
  auto deadline = self->clock().now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
  st.waiting.push_back({deadline, required_offset, result, promise});
  arm_deadline_timer(self, deadline);
  return promise;
}

caf::actor_clock::time_point expire_waiting_produces(partition_self self) {
  return expire_due(self->state.waiting, self->clock().now(), [](const waiting_produce& w) {
    return caf::make_error(kafka_error::request_timed_out, "the in-sync replicas did not all get offset "
                                                             + std::to_string(w.required_offset - 1) + " in time");
  });
}

// A fired watch stays, without its watcher, until the long poll asks again (its second round):
// serve_replica_fetch tells that repeat from a new fetch by it.
void fire_replica_watches(partition_self self, bool all) {
  auto& st = self->state;
  auto end = st.log->log_end_offset();
  for (auto& w : st.replica_watches) {
    if (w.watcher && (all || end > w.offset)) {
      caf::anon_send(w.watcher, replica_fetch_atom_v, w.key);
      w.watcher = caf::actor{};
    }
  }
}

caf::result<replica_fetch_partition_result> serve_replica_fetch(partition_self self, int32_t replica,
                                                                const replica_fetch_partition& req,
                                                                caf::actor watcher, uint64_t key) {
  auto& st = self->state;
  if (!leading(st))
    return fetch_error(st, kafka_error::not_leader_or_follower);
  if (req.leader_epoch < st.role.leader_epoch)
    return fetch_error(st, kafka_error::fenced_leader_epoch);
  if (req.leader_epoch > st.role.leader_epoch)
    return fetch_error(st, kafka_error::unknown_leader_epoch);
  auto progress = std::find_if(st.followers.begin(), st.followers.end(), [&](auto& p) { return p.broker == replica; });
  if (progress == st.followers.end())
    return fetch_error(st, kafka_error::unknown_leader_epoch); // not a replica (yet): retry
  auto& log = *st.log;
  auto end = log.log_end_offset();
  if (req.fetch_offset < log.log_start_offset() || req.fetch_offset > end)
    return fetch_error(st, kafka_error::offset_out_of_range);
  auto bytes = log.read(req.fetch_offset, static_cast<size_t>(std::max(req.max_bytes, 0)));
  if (!bytes)
    return fetch_error(st, to_kafka_error(to_caf_error(bytes.error())));
  // The second round of a long poll this replica parked here (its watch fired or timed out)
  // repeats a fetch already recorded: recording it again would count the replica as caught up
  // now, although it asked before. A follower that died with its poll parked would so come
  // back to life after the controller took it out of the ISR, and hold the high watermark
  // (acks=all) for replica.lag.time.max.ms. Kafka updates a follower's fetch state once per
  // request, not when a delayed fetch completes.
  bool repeat = !watcher && std::any_of(st.replica_watches.begin(), st.replica_watches.end(), [&](auto& w) {
    return w.replica == replica && w.offset == req.fetch_offset;
  });
  if (!repeat) {
    cluster::record_fetch(*progress, req.fetch_offset, req.log_start_offset, end, st.ctx.now_ms());
    maybe_expand_isr(self, *progress);
    complete_waiting_deletes(self);
  }
  advance_high_watermark(self);
  auto out = fetch_error(st, kafka_error::none);
  out.records = std::move(*bytes);
  st.replica_watches.erase(std::remove_if(st.replica_watches.begin(), st.replica_watches.end(),
                                          [&](auto& w) { return w.replica == replica; }),
                           st.replica_watches.end());
  if (out.records.empty() && watcher)
    st.replica_watches.push_back({replica, std::move(watcher), key, req.fetch_offset});
  return out;
}

epoch_end_answer serve_epoch_end(partition_self self, int32_t current_epoch, int32_t epoch) {
  auto& st = self->state;
  if (!leading(st))
    return {protocol::wire_code(kafka_error::not_leader_or_follower), -1, -1};
  if (current_epoch >= 0 && current_epoch < st.role.leader_epoch)
    return {protocol::wire_code(kafka_error::fenced_leader_epoch), -1, -1};
  if (current_epoch > st.role.leader_epoch)
    return {protocol::wire_code(kafka_error::unknown_leader_epoch), -1, -1};
  auto answer = st.log->epoch_cache().end_offset_for(epoch, st.log->log_end_offset());
  return {0, answer.epoch, answer.end_offset};
}

void check_isr(partition_self self, uint64_t generation) {
  auto& st = self->state;
  if (generation != st.isr_timer_generation || !leading(st))
    return;
  auto shrunk = cluster::shrunk_isr(st.role.isr, st.ctx.broker_id, st.followers, st.log->log_end_offset(),
                                    st.ctx.now_ms(), st.ctx.replica_lag_time_max_ms);
  if (shrunk)
    write_isr(self, std::move(*shrunk));
  arm_isr_check(self);
}

void isr_written(partition_self self, bool ok, std::vector<int32_t> isr) {
  auto& st = self->state;
  if (!leading(st))
    return;
  if (ok) {
    if (st.ctx.metrics && isr.size() != st.role.isr.size())
      ++(isr.size() < st.role.isr.size() ? st.ctx.metrics->isr_shrinks : st.ctx.metrics->isr_expands);
    st.role.isr = isr;
    st.maximal_isr = std::move(isr);
  } else {
    log_line(log_level::warn, log_component::replication, "broker %d: %s: ISR write lost a race (the partition state changed); deciding again on the next view",
             st.ctx.broker_id, name_of(st).c_str());
    st.isr_write_in_flight = false;
    st.maximal_isr = st.role.isr;
  }
  advance_high_watermark(self);
  complete_waiting_produces(self);
}

} // namespace cafka
