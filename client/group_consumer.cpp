// The group member actor (see group_consumer.hpp). Actor glue only: the consumer protocol
// bytes and the assignor run in group_protocol.cpp, the positions in group_positions.cpp.
//
// `round` is bumped whenever the member leaves a generation (rebalance, lost coordinator,
// stop); every answer and timer carries the round it was started in and is dropped when it
// is stale, so that nothing from an old generation acts on the new one.
#include "client/group_consumer.hpp"

#include <functional>
#include <map>
#include <set>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "client/bootstrap.hpp"
#include "client/group_positions.hpp"
#include "client/group_protocol.hpp"
#include "client/cluster_link.hpp"
#include "client/retry.hpp"
#include "client/same_actor.hpp"

namespace cafka::client {

namespace {

enum class phase { finding, joining, syncing, fetching_offsets, stable, stopping };

// Something to do once the batches at the consumer up to delivery `upto` were answered.
struct after_deliveries {
  uint64_t upto = 0;
  std::function<void()> run;
  std::function<void(caf::error)> cancel;
};

struct member_state {
  static inline const char* name = "cafka.client.group_member";
  caf::actor consumer;
  group_options opts;
  std::string group_id;
  cluster_link_actor link;
  node_actor node;
  group_actor group;
  std::string member_id;
  int32_t generation = -1;
  phase ph = phase::finding;
  uint64_t round = 0;
  std::vector<topic_partition> assigned;
  std::map<topic_partition, subscription> fetchers;
  group_positions positions;
  uint64_t last_delivery = 0;
  std::set<uint64_t> at_consumer; ///< deliveries not answered by the consumer yet
  std::vector<after_deliveries> waiting;
  unsigned failures = 0;
  bool stop_requested = false;
  bool told_assigned = false; ///< the consumer got partitions_assigned, no revoke since
};

using self_ptr = caf::stateful_actor<member_state>*;

void start_over(self_ptr self);
void join(self_ptr self);
void on_group_error(self_ptr self, const caf::error& err);
void finish_stop(self_ptr self);

std::chrono::milliseconds request_timeout(self_ptr self) {
  return self->state.opts.fetch.request_timeout;
}

// Joins and syncs are held by the group for up to the rebalance timeout.
std::chrono::milliseconds held_timeout(self_ptr self) {
  return self->state.opts.max_poll_interval + self->state.opts.fetch.request_timeout;
}

void stop_fetchers(self_ptr self) {
  for (auto& [_, sub] : self->state.fetchers)
    stop(sub);
  self->state.fetchers.clear();
}

void cancel_waiting(self_ptr self, const caf::error& err) {
  auto waiting = std::move(self->state.waiting);
  self->state.waiting.clear();
  for (auto& w : waiting)
    w.cancel(err);
}

// Runs what waited for deliveries that have all been answered now.
void run_waiting(self_ptr self) {
  auto& st = self->state;
  auto first_open = st.at_consumer.empty() ? UINT64_MAX : *st.at_consumer.begin();
  std::vector<after_deliveries> ready;
  for (auto it = st.waiting.begin(); it != st.waiting.end();) {
    if (it->upto < first_open) {
      ready.push_back(std::move(*it));
      it = st.waiting.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& w : ready)
    w.run();
}

void when_delivered(self_ptr self, std::function<void()> run, std::function<void(caf::error)> cancel) {
  auto& st = self->state;
  if (st.at_consumer.empty()) {
    run();
    return;
  }
  st.waiting.push_back({*st.at_consumer.rbegin(), std::move(run), std::move(cancel)});
}

// Leaves the current generation: stops the fetchers, tells the consumer, forgets the
// positions. Answers still to come from that generation are dropped (round).
void revoke(self_ptr self) {
  auto& st = self->state;
  ++st.round;
  stop_fetchers(self);
  cancel_waiting(self, caf::make_error(kafka_error::rebalance_in_progress, "the member left its generation"));
  if (st.told_assigned && st.consumer)
    self->send(st.consumer, partitions_revoked{st.assigned});
  st.told_assigned = false;
  st.assigned.clear();
  st.positions.clear();
}

void fatal(self_ptr self, caf::error err) {
  auto& st = self->state;
  revoke(self);
  if (st.consumer)
    self->send(st.consumer, consumer_error{topic_partition{}, err, -1});
  if (st.group && !st.member_id.empty())
    self->send(st.group, leave_group_atom_v, std::vector<cluster::member_identity>{{st.member_id, std::nullopt}});
  self->quit(std::move(err));
}

// Commits `offsets` for the current member and generation; `done` gets the outcome.
void commit(self_ptr self, std::vector<group_offset> offsets, std::function<void(caf::error)> done) {
  auto& st = self->state;
  if (offsets.empty()) {
    done(caf::error{});
    return;
  }
  group_offset_commit c{st.member_id, std::nullopt, st.generation, offsets};
  auto round = st.round;
  self->request(st.group, request_timeout(self), commit_offsets_atom_v, std::move(c))
    .then(
      [=]() {
        if (round == self->state.round)
          self->state.positions.committed(offsets);
        done(caf::error{});
      },
      [=](caf::error& err) { done(err); });
}

// Lost the coordinator (or could not reach it): start over after a backoff. The consumer
// is not told: the member recovers by itself.
void lose(self_ptr self) {
  auto& st = self->state;
  revoke(self);
  st.ph = phase::finding;
  st.generation = -1;
  auto delay = backoff_delay(st.opts.fetch.retry_backoff, st.failures++);
  self->delayed_send(self, delay, retry_atom_v, st.round);
}

// A rebalance: commit what was consumed (auto-commit), revoke, rejoin.
void rebalance(self_ptr self) {
  auto& st = self->state;
  auto rejoin = [self] {
    revoke(self);
    join(self);
  };
  if (st.ph == phase::stable && st.opts.enable_auto_commit) {
    auto round = st.round;
    st.ph = phase::joining; // no second rebalance while the commit is out
    ++st.round;
    stop_fetchers(self);
    commit(self, st.positions.uncommitted(), [self, round, rejoin](caf::error) {
      if (self->state.round == round + 1)
        rejoin();
    });
    return;
  }
  rejoin();
}

void on_group_error(self_ptr self, const caf::error& err) {
  auto& st = self->state;
  if (st.stop_requested) {
    finish_stop(self);
    return;
  }
  if (err.category() != caf::atom("cafka")) { // timeouts, lost connections
    lose(self);
    return;
  }
  switch (static_cast<kafka_error>(err.code())) {
    case kafka_error::unknown_member_id:
      st.member_id.clear();
      rebalance(self);
      return;
    case kafka_error::rebalance_in_progress:
    case kafka_error::illegal_generation:
      rebalance(self);
      return;
    case kafka_error::not_coordinator:
    case kafka_error::coordinator_not_available:
    case kafka_error::coordinator_load_in_progress:
    case kafka_error::request_timed_out:
    case kafka_error::network_exception:
      lose(self);
      return;
    default:
      fatal(self, err);
  }
}

void schedule_heartbeat(self_ptr self) {
  self->delayed_send(self, self->state.opts.heartbeat_interval, caf::tick_atom_v, self->state.round);
}

void schedule_auto_commit(self_ptr self) {
  if (self->state.opts.enable_auto_commit)
    self->delayed_send(self, self->state.opts.auto_commit_interval, autocommit_atom_v, self->state.round);
}

void become_stable(self_ptr self, std::vector<topic_partition> parts, const std::vector<group_offset>& found) {
  auto& st = self->state;
  st.ph = phase::stable;
  st.failures = 0;
  st.assigned = parts;
  st.positions.assign(parts, found);
  self->send(st.consumer, partitions_assigned{st.generation, parts});
  st.told_assigned = true;
  auto fopts = st.opts.fetch;
  fopts.auto_offset_reset = st.opts.auto_offset_reset;
  for (auto& tp : parts) {
    auto pos = start_for(st.positions.committed_offset(tp), st.opts.auto_offset_reset);
    st.fetchers.emplace(tp, subscribe(self->system(), st.node, caf::actor_cast<caf::actor>(self), tp, pos, fopts));
  }
  schedule_heartbeat(self);
  schedule_auto_commit(self);
}

void fetch_committed(self_ptr self, std::vector<topic_partition> parts) {
  auto& st = self->state;
  st.ph = phase::fetching_offsets;
  if (parts.empty()) {
    become_stable(self, {}, {});
    return;
  }
  auto round = st.round;
  self->request(st.group, request_timeout(self), fetch_offsets_atom_v, group_offset_query{false, parts})
    .then(
      [=](std::vector<group_offset>& found) {
        if (round == self->state.round)
          become_stable(self, parts, found);
      },
      [=](caf::error& err) {
        if (round == self->state.round)
          on_group_error(self, err);
      });
}

void sync(self_ptr self, std::vector<cluster::member_assignment> assignments) {
  auto& st = self->state;
  st.ph = phase::syncing;
  auto round = st.round;
  cluster::sync_request req{st.member_id, std::nullopt, st.generation, std::move(assignments)};
  self->request(st.group, held_timeout(self), sync_group_atom_v, std::move(req))
    .then(
      [=](cluster::sync_answer& a) {
        if (round != self->state.round)
          return;
        if (a.error != kafka_error::none) {
          on_group_error(self, caf::make_error(a.error, "SyncGroup"));
          return;
        }
        auto parts = decode_assignment(a.assignment);
        if (!parts) {
          fatal(self, caf::make_error(kafka_error::inconsistent_group_protocol,
                                      "the assignment does not decode: " + parts.error().message()));
          return;
        }
        fetch_committed(self, std::move(*parts));
      },
      [=](caf::error& err) {
        if (round == self->state.round)
          on_group_error(self, err);
      });
}

// The leader: partition counts from the node's metadata, then the assignor's plan.
void lead(self_ptr self, cluster::join_answer a) {
  auto& st = self->state;
  st.ph = phase::syncing;
  auto round = st.round;
  metadata_request req{subscribed_topics(a.members), false, false};
  self->request(st.link, request_timeout(self) + std::chrono::seconds(1), metadata_atom_v, std::move(req))
    .then(
      [=](cluster_metadata& md) {
        if (round != self->state.round)
          return;
        cluster::partition_counts counts;
        for (auto& t : md.topics)
          if (t.error == 0)
            counts[t.name] = static_cast<int32_t>(t.partitions.size());
        auto plan = leader_assignments(a.protocol_name, a.members, counts);
        if (!plan.error.empty()) {
          fatal(self, caf::make_error(kafka_error::inconsistent_group_protocol, plan.error));
          return;
        }
        sync(self, std::move(plan.assignments));
      },
      [=](caf::error&) {
        if (round == self->state.round)
          lose(self);
      });
}

void join(self_ptr self) {
  auto& st = self->state;
  st.ph = phase::joining;
  st.generation = -1;
  auto round = st.round;
  cluster::join_request req;
  req.member_id = st.member_id;
  req.client_id = st.opts.client_id;
  req.session_timeout_ms = static_cast<int32_t>(st.opts.session_timeout.count());
  req.rebalance_timeout_ms = static_cast<int32_t>(st.opts.max_poll_interval.count());
  req.protocol_type = consumer_protocol_type;
  req.protocols.push_back({st.opts.assignor, encode_subscription(st.opts.topics, {})});
  req.require_known_member_id = true;
  self->request(st.group, held_timeout(self), join_group_atom_v, std::move(req))
    .then(
      [=](cluster::join_answer& a) {
        auto& st = self->state;
        if (round != st.round)
          return;
        switch (a.error) {
          case kafka_error::none:
            st.member_id = a.member_id;
            st.generation = a.generation;
            if (a.leader == a.member_id)
              lead(self, std::move(a));
            else
              sync(self, {});
            return;
          case kafka_error::member_id_required:
            st.member_id = a.member_id;
            join(self);
            return;
          case kafka_error::unknown_member_id:
            st.member_id.clear();
            join(self);
            return;
          case kafka_error::rebalance_in_progress: // a superseded join
            join(self);
            return;
          default:
            on_group_error(self, caf::make_error(a.error, "JoinGroup of group '" + st.group_id + "'"));
        }
      },
      [=](caf::error& err) {
        if (round == self->state.round)
          on_group_error(self, err);
      });
}

// The node (through the link, which reconnects; the fetchers start from it), then the
// group's actor from the broker that coordinates the group (the link follows
// NOT_COORDINATOR there, cluster_link.hpp).
void start_over(self_ptr self) {
  auto& st = self->state;
  st.ph = phase::finding;
  auto round = st.round;
  auto lost = [=](caf::error&) {
    if (round == self->state.round)
      lose(self);
  };
  self->request(st.link, request_timeout(self) + std::chrono::seconds(1), caf::get_atom_v)
    .then(
      [=](node_actor& node) {
        if (round != self->state.round)
          return;
        self->state.node = node;
        self->request(self->state.link, request_timeout(self) + std::chrono::seconds(1), group_coordinator_atom_v,
                      self->state.group_id)
          .then(
            [=](group_actor& group) {
              auto& st = self->state;
              if (round != st.round)
                return;
              if (!same_object(group, st.group)) {
                if (st.group)
                  self->demonitor(st.group.address());
                st.group = group;
                self->monitor(st.group);
              }
              join(self);
            },
            lost);
      },
      lost);
}

// Stopping, part 2: commit (auto-commit), revoke, leave, quit.
void finish_stop(self_ptr self) {
  auto& st = self->state;
  if (st.ph == phase::stopping)
    return;
  auto was_stable = st.ph == phase::stable;
  stop_fetchers(self);
  auto leave = [self] {
    auto& st = self->state;
    revoke(self);
    st.ph = phase::stopping;
    if (!st.group || st.member_id.empty()) {
      self->quit();
      return;
    }
    std::vector<cluster::member_identity> leaving{{st.member_id, std::nullopt}};
    self->request(st.group, request_timeout(self), leave_group_atom_v, std::move(leaving))
      .then([self](cluster::leave_answer&) { self->quit(); }, [self](caf::error&) { self->quit(); });
  };
  if (was_stable && st.opts.enable_auto_commit && st.group) {
    st.ph = phase::stopping; // nothing else runs meanwhile
    commit(self, st.positions.uncommitted(), [leave](caf::error) { leave(); });
    return;
  }
  leave();
}

// Part 1: no new batches; wait (bounded) for those at the consumer.
void request_stop(self_ptr self) {
  auto& st = self->state;
  if (st.stop_requested)
    return;
  st.stop_requested = true;
  stop_fetchers(self);
  self->delayed_send(self, request_timeout(self), stop_atom_v, uint64_t{0});
  when_delivered(self, [self] { finish_stop(self); }, [self](caf::error) { finish_stop(self); });
}

// A batch from a fetcher of the current assignment: to the consumer, then answer.
caf::response_promise on_records(self_ptr self, consumer_records& recs) {
  auto& st = self->state;
  auto it = st.fetchers.find(recs.tp);
  // Before make_response_promise(), which takes the sender out of the message.
  auto current = it != st.fetchers.end()
                 && caf::actor_cast<caf::strong_actor_ptr>(it->second) == self->current_sender();
  auto rp = self->make_response_promise();
  if (st.ph != phase::stable || st.stop_requested || !current) {
    rp.deliver(caf::unit); // from a fetcher being stopped: dropped
    return rp;
  }
  auto round = st.round;
  auto seq = ++st.last_delivery;
  st.at_consumer.insert(seq);
  auto tp = recs.tp;
  auto next = recs.next_offset;
  auto done = [self, seq, rp](caf::error err = {}) mutable {
    self->state.at_consumer.erase(seq);
    if (err)
      rp.deliver(std::move(err)); // the fetcher stops
    else
      rp.deliver(caf::unit);
    run_waiting(self);
  };
  auto forward = [self, round, tp, next, done](consumer_records recs) mutable {
    self->request(self->state.consumer, caf::infinite, std::move(recs))
      .then(
        [=]() mutable {
          auto& st = self->state;
          if (round == st.round && st.opts.delivery == delivery_mode::at_least_once)
            st.positions.consumed(tp, next);
          done();
        },
        [=](caf::error& err) mutable {
          auto& st = self->state;
          // A handler that returned a value still took the batch; one that answered
          // with an error did not: not consumed, and its partition's fetcher stops.
          if (err != caf::sec::unexpected_response) {
            done(err);
            return;
          }
          if (round == st.round && st.opts.delivery == delivery_mode::at_least_once)
            st.positions.consumed(tp, next);
          done();
        });
  };
  if (st.opts.delivery == delivery_mode::at_least_once) {
    forward(std::move(recs));
    return rp;
  }
  // At most once: the next offset is stored before the consumer sees the batch.
  commit(self, {group_offset{tp, next, -1, {}}},
         [self, round, tp, next, forward, done, recs = std::move(recs)](caf::error err) mutable {
           auto& st = self->state;
           if (round != st.round) {
             done();
             return;
           }
           if (err) {
             done();
             on_group_error(self, err);
             return;
           }
           st.positions.consumed(tp, next);
           forward(std::move(recs));
         });
  return rp;
}

caf::response_promise on_commit(self_ptr self, std::optional<std::vector<group_offset>> offsets) {
  auto rp = self->make_response_promise();
  auto& st = self->state;
  if (st.ph != phase::stable || st.stop_requested) {
    rp.deliver(caf::make_error(kafka_error::rebalance_in_progress, "the member has no generation to commit in"));
    return rp;
  }
  auto run = [self, rp, offsets]() mutable {
    auto& st = self->state;
    if (st.ph != phase::stable) {
      rp.deliver(caf::make_error(kafka_error::rebalance_in_progress, "the member left its generation"));
      return;
    }
    auto round = st.round;
    commit(self, offsets ? *offsets : st.positions.uncommitted(), [self, rp, round](caf::error err) mutable {
      if (err) {
        rp.deliver(err);
        if (round == self->state.round)
          on_group_error(self, err);
      } else {
        rp.deliver(caf::unit);
      }
    });
  };
  if (offsets) // explicit offsets do not depend on what the consumer has answered
    run();
  else
    when_delivered(self, run, [rp](caf::error err) mutable { rp.deliver(std::move(err)); });
  return rp;
}

caf::behavior member(self_ptr self, node_actor node, caf::actor consumer, group_options opts) {
  auto& st = self->state;
  st.consumer = std::move(consumer);
  st.opts = std::move(opts);
  st.group_id = effective_group_id(st.opts);
  link_options lo;
  lo.request_timeout = st.opts.fetch.request_timeout;
  lo.reconnect_backoff = st.opts.fetch.retry_backoff;
  auto problem = validate(st.opts);
  if (problem.empty() && !st.opts.fetch.bootstrap.empty()) {
    if (auto eps = parse_bootstrap(st.opts.fetch.bootstrap))
      lo.endpoints = std::move(*eps);
    else
      problem = "bad fetch.bootstrap: " + describe(eps.error());
  }
  st.link = spawn_owned_cluster_link(self, std::move(node), std::move(lo));
  self->monitor(st.consumer);
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (same_actor(st.consumer, dm.source)) {
      st.consumer = nullptr;
      st.stop_requested = true;
      finish_stop(self);
      return;
    }
    if (same_actor(st.group, dm.source)) {
      st.group = nullptr;
      if (st.ph == phase::stopping) {
        self->quit();
        return;
      }
      if (st.stop_requested)
        finish_stop(self);
      else
        lose(self);
    }
  });
  if (!problem.empty()) {
    auto err = caf::make_error(caf::sec::invalid_argument, problem);
    self->send(st.consumer, consumer_error{topic_partition{}, err, -1});
    self->quit(err);
    return {};
  }
  start_over(self);
  return {
    [=](consumer_records& recs) { return on_records(self, recs); },
    [=](consumer_error& err) { // a fetcher's final error
      if (self->state.consumer)
        self->send(self->state.consumer, std::move(err));
    },
    [=](commit_atom) { return on_commit(self, std::nullopt); },
    [=](commit_atom, std::vector<group_offset>& offsets) { return on_commit(self, std::move(offsets)); },
    [=](stop_atom) { request_stop(self); },
    [=](stop_atom, uint64_t) { // the consumer did not answer its batches in time
      if (self->state.stop_requested)
        finish_stop(self);
    },
    [=](retry_atom, uint64_t round) {
      if (round == self->state.round && self->state.ph == phase::finding && !self->state.stop_requested)
        start_over(self);
    },
    [=](caf::tick_atom, uint64_t round) {
      auto& st = self->state;
      // Also while a stop waits for the consumer: the member stays in the group until it
      // leaves, so its session must not run out meanwhile.
      if (round != st.round || st.ph != phase::stable)
        return;
      cluster::heartbeat_request hb{st.member_id, std::nullopt, st.generation};
      self->request(st.group, request_timeout(self), heartbeat_atom_v, std::move(hb))
        .then(
          [=]() {
            if (round == self->state.round)
              schedule_heartbeat(self);
          },
          [=](caf::error& err) {
            if (round == self->state.round)
              on_group_error(self, err);
          });
    },
    [=](autocommit_atom, uint64_t round) {
      auto& st = self->state;
      if (round != st.round || st.ph != phase::stable || st.stop_requested)
        return;
      commit(self, st.positions.uncommitted(), [self, round](caf::error err) {
        if (round != self->state.round)
          return;
        if (err)
          on_group_error(self, err);
        else
          schedule_auto_commit(self);
      });
    },
  };
}

} // namespace

caf::actor join_group(caf::actor_system& sys, node_actor node, caf::actor consumer, group_options opts) {
  return sys.spawn(member, std::move(node), std::move(consumer), std::move(opts));
}

} // namespace cafka::client
