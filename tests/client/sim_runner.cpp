// Playing one randomized simulation plan (sim_runner.hpp).
#include "sim_runner.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>

#include <caf/all.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/node_actor.hpp"
#include "client/node_link.hpp"
#include "client/producer_actor.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"
#include "sim/ask.hpp"
#include "sim/cluster.hpp"
#include "sim/invariants.hpp"
#include "sim_fixtures.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace client_test {

namespace {

// Every broker up, the views agree, every partition of the plan (and every partition added
// since) has a live leader in every broker's view, and no reassignment is under way.
bool recovered(sim::cluster& c, const sim::scenario_plan& plan) {
  for (size_t i = 0; i < c.size(); ++i)
    if (!c.broker(i).up || c.paused(i)) // a pause may outlast the last fault
      return false;
  if (!c.converged())
    return false;
  for (size_t i = 0; i < c.size(); ++i)
    for (auto& t : plan.topics) {
      auto ls = client_test::sim_view_leaders(c, i, t.name);
      if (ls.size() < size_t(t.partitions)) // partitions may have been added
        return false;
      for (auto l : ls)
        if (l < 0)
          return false;
    }
  // And the coordinator records a leader for each (a view may lag it by a step).
  for (auto& t : plan.topics)
    for (int32_t p = 0; p < t.partitions; ++p)
      if (auto st = c.recorded_state(t.name, p); !st || st->leader <= 0)
        return false;
  for (auto& t : plan.topics)
    if (auto a = c.recorded_assignment(t.name); !a || !a->adding.empty() || !a->removing.empty())
      return false;
  return true;
}

// What the senders learnt; shared with the runner (everything runs on its thread).
struct send_log {
  std::vector<sim::acked_record> acked;
  std::vector<int64_t> acked_at_ms; ///< simulated time of each acknowledgement
  size_t answered = 0;
  size_t failed = 0;
};

// Hands each (sequence, producer_record) it gets to `prod` (producer `index`) and notes the
// answer.
caf::actor spawn_sender(caf::actor_system& sys, sim::cluster& c, client::producer_actor prod, int index,
                        std::shared_ptr<send_log> log) {
  auto* cl = &c;
  return sys.spawn([cl, prod, index, log](caf::event_based_actor* self) -> caf::behavior {
    return {
      [=](int64_t sequence, client::producer_record& r) {
        auto key = r.key;
        auto value = r.value;
        self->request(prod, caf::infinite, client::send_atom_v, std::move(r))
          .then(
            [=](client::record_metadata& md) {
              log->acked.push_back({md.topic, md.partition, md.offset, key, value, false, index, sequence});
              log->acked_at_ms.push_back(cl->now().count());
              ++log->answered;
            },
            [=](caf::error&) {
              ++log->failed; // not acknowledged: nothing to check
              ++log->answered;
            });
      },
    };
  });
}

std::string ids_text(const std::vector<int32_t>& ids) {
  std::string out = "[";
  for (auto id : ids)
    out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "]";
}

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The replicas of every partition of the plan (as the coordinator records them: reassignments
// change them).
using replica_map = std::map<sim::partition_key, std::vector<int32_t>>;

void refresh(sim::cluster& c, replica_map& replicas) {
  std::map<std::string, std::optional<cluster::topic_assignment>> read; // each topic's once
  for (auto& [tp, ids] : replicas) {
    auto it = read.find(tp.first);
    if (it == read.end())
      it = read.emplace(tp.first, c.recorded_assignment(tp.first)).first;
    if (auto& a = it->second; a && size_t(tp.second) < a->partitions.size())
      ids = a->partitions[size_t(tp.second)];
  }
}

// Plays the plan's faults: maps its peers to hosts of the cluster, resolves leader
// episodes (the broker that leads the target partition when the episode starts), skips an
// episode whose broker is in another one (or is down, or no broker leads its partition),
// and records when a machine crash exposes a partition (sim/invariants.hpp).
class fault_player {
public:
  fault_player(sim::cluster& c, const sim::scenario_plan& plan, replica_map& replicas,
               std::vector<size_t> member_hosts, std::map<sim::partition_key, std::vector<int64_t>>& exposures)
    : c_(c), plan_(plan), replicas_(replicas), member_hosts_(std::move(member_hosts)), exposures_(exposures),
      busy_(size_t(plan.brokers), -1) {
    for (size_t i = 0; i < plan.faults.size(); ++i)
      last_[plan.faults[i].episode] = i;
  }

  size_t skipped() const { return skipped_; }

  void play(size_t index) {
    auto& f = plan_.faults[index];
    if (f.kind == sim::fault_kind::cut_member) {
      c_.isolate(member_hosts_[size_t(f.member)]);
      return;
    }
    if (f.kind == sim::fault_kind::heal_member) {
      c_.rejoin(member_hosts_[size_t(f.member)]);
      return;
    }
    if (f.kind == sim::fault_kind::add_partitions || f.kind == sim::fault_kind::reassign) {
      operate(f);
      return;
    }
    auto& e = episodes_[f.episode];
    if (!e.started)
      start(e, f);
    if (e.skipped)
      return;
    apply(f, e);
    if (last_[f.episode] == index)
      busy_[e.broker] = -1;
  }

private:
  struct episode {
    bool started = false;
    bool skipped = false;
    bool machine = false; ///< its broker's machine crashed (exposure is judged at the restart)
    size_t broker = 0;
    std::vector<size_t> followers;
  };

  void skip(episode& e, const sim::scenario_fault& f, const std::string& why) {
    e.skipped = true;
    ++skipped_;
    c_.note("runner: episode " + std::to_string(f.episode) + " skipped: " + why);
  }

  void start(episode& e, const sim::scenario_fault& f) {
    e.started = true;
    int32_t id = f.broker + 1;
    if (f.broker < 0) {
      auto state = c_.recorded_state(f.target_topic, f.target_partition);
      id = state ? state->leader : -1;
      if (id <= 0) {
        skip(e, f, f.target_topic + "/" + std::to_string(f.target_partition) + " has no leader");
        return;
      }
      c_.note("runner: episode " + std::to_string(f.episode) + ": the leader of " + f.target_topic + "/"
              + std::to_string(f.target_partition) + " is broker " + std::to_string(id));
      refresh(c_, replicas_);
      for (auto r : replicas_.at({f.target_topic, f.target_partition}))
        if (r != id)
          e.followers.push_back(size_t(r - 1));
    }
    e.broker = size_t(id - 1);
    if (busy_[e.broker] >= 0) {
      skip(e, f, "broker " + std::to_string(id) + " is in episode " + std::to_string(busy_[e.broker]));
      return;
    }
    if (!c_.broker(e.broker).up || c_.paused(e.broker)) {
      skip(e, f, "broker " + std::to_string(id) + " is down or paused");
      return;
    }
    busy_[e.broker] = f.episode;
  }

  // Before broker b restarts after a machine crash (its unflushed tail is gone): b may come
  // back in the recorded ISR of a partition with a log shorter than what was committed there,
  // and then lead it — it is the last ISR member and the partition is offline (when b's
  // session expired no other ISR member was live), or no controller acted on b's expiry (the
  // controller was paused, cut off or down then; Kafka's ZooKeeper controller misses such a
  // bounce too: its successor finds b registered, in the ISR, and may elect it, or sends it
  // LeaderAndIsr at the same epoch if it led). Until b has fetched back what the other
  // replicas held at its restart (or left the ISR), the partition is at risk: the hazard
  // ends at the first look that finds it so (poll()), and that time is the exposure
  // (sim/invariants.hpp). A partition whose ISR no longer holds b is safe: b follows and
  // truncates. With quick machine restarts (before the session expired) b in the ISR while
  // another ISR member is up is NOT exempt: that is the bounce cafka's controller does not
  // detect (plan_options::quick_machine_restarts).
  void expose(size_t b) {
    if (plan_.flush_each_message)
      return;
    auto id = int32_t(b + 1);
    refresh(c_, replicas_);
    for (auto& [tp, replicas] : replicas_) {
      if (!contains(replicas, id))
        continue;
      auto state = c_.recorded_state(tp.first, tp.second);
      auto isr = state ? state->isr : replicas;
      auto leader = state ? state->leader : -1;
      if (!contains(isr, id))
        continue;
      bool other_up = std::any_of(isr.begin(), isr.end(),
                                  [&](int32_t r) { return r != id && c_.broker(size_t(r - 1)).up; });
      if (plan_.quick_machine_restarts && other_up)
        continue;
      int64_t target = 0; // what the others hold: b is safe once it has fetched that much back
      for (auto r : replicas)
        if (r != id)
          target = std::max(target, client_test::sim_log_end(c_, size_t(r - 1), {tp.first, tp.second}).value_or(0));
      hazards_.push_back({tp, id, target});
      if (leader == id)
        resumed_.insert(tp);
      c_.note("runner: " + tp.first + "/" + std::to_string(tp.second) + " at risk: broker " + std::to_string(id)
              + " returns from a machine crash in its ISR " + ids_text(isr) + " (leader " + std::to_string(leader)
              + ") until it holds " + std::to_string(target) + " records again");
    }
  }

public:
  /// Ends the hazards that are over (all of them with `all`, at the end of the workload),
  /// recording their exposures at the current time.
  void poll(bool all = false) {
    hazards_.erase(std::remove_if(hazards_.begin(), hazards_.end(),
                                  [&](const hazard& h) {
                                    bool over = all;
                                    if (!over) {
                                      auto state = c_.recorded_state(h.tp.first, h.tp.second);
                                      auto end = client_test::sim_log_end(c_, size_t(h.broker - 1),
                                                                          {h.tp.first, h.tp.second});
                                      over = (state && !contains(state->isr, h.broker)) || (end && *end >= h.target);
                                    }
                                    if (over) {
                                      exposures_[h.tp].push_back(c_.now().count());
                                      c_.note("runner: " + h.tp.first + "/" + std::to_string(h.tp.second)
                                              + " exposed until now (broker " + std::to_string(h.broker) + ")");
                                    }
                                    return over;
                                  }),
                   hazards_.end());
  }

  /// Partitions a machine-crashed broker came back to lead at the same leader epoch: its
  /// followers cannot tell its new records from their old ones by the epoch (sim/invariants.hpp).
  const std::set<sim::partition_key>& resumed() const { return resumed_; }

  /// Whether every operation asked (add_partitions, reassign) has been answered.
  bool operations_answered() const { return *answered_ >= asked_; }

private:
  struct hazard {
    sim::partition_key tp;
    int32_t broker = 0;
    int64_t target = 0;
  };
  std::vector<hazard> hazards_;
  std::set<sim::partition_key> resumed_;

  // An operation (CreatePartitions, AlterPartitionReassignments) asked of the first running
  // broker, as an admin client would; the timeline does not wait for the answer (the
  // controller may be unreachable: then it fails, and the plan goes on), the checks at the
  // end do (operations_answered).
  void operate(const sim::scenario_fault& f) {
    for (size_t i = 0; i < c_.size(); ++i) {
      auto b = c_.broker(i);
      if (!b.up || c_.paused(i))
        continue;
      c_.note("runner: " + sim::to_string(f.kind) + " asked of broker " + std::to_string(i + 1));
      ++asked_;
      auto answered = answered_;
      auto node = b.n->actor;
      auto note = [cl = &c_, answered, kind = sim::to_string(f.kind)](const std::string& outcome) {
        ++*answered;
        cl->note("runner: " + kind + " answered: " + outcome);
      };
      auto move = f;
      b.system->spawn([node, move, note](caf::event_based_actor* self) {
        if (move.kind == sim::fault_kind::add_partitions)
          self->request(node, 60s, add_partitions_atom_v,
                        partition_addition_request{move.target_topic, move.partition_count, {}, false})
            .then([note](int32_t n) { note(std::to_string(n) + " partitions"); },
                  [note](caf::error& e) { note(why(e)); });
        else
          self->request(node, 60s, reassign_atom_v,
                        std::vector<partition_move>{{{move.target_topic, move.target_partition}, false, move.replicas}})
            .then([note](std::vector<partition_outcome>& r) { note(r.empty() || r[0].error == 0 ? "ok" : r[0].message); },
                  [note](caf::error& e) { note(why(e)); });
      });
      return;
    }
    c_.note("runner: " + sim::to_string(f.kind) + " skipped: no broker runs");
  }

  void apply(const sim::scenario_fault& f, episode& e) {
    auto b = e.broker;
    switch (f.kind) {
      case sim::fault_kind::crash_process:
        return c_.crash(b, sim::crash_mode::process);
      case sim::fault_kind::crash_machine:
        e.machine = true;
        return c_.crash(b, sim::crash_mode::machine);
      case sim::fault_kind::stop:
        c_.stop(b);
        return;
      case sim::fault_kind::restart:
        if (e.machine)
          expose(b);
        return c_.restart(b);
      case sim::fault_kind::expire_session:
        return c_.expire_session(b);
      case sim::fault_kind::cut:
      case sim::fault_kind::heal: {
        auto set = [&](size_t from, size_t to) { f.kind == sim::fault_kind::cut ? c_.cut(from, to) : c_.heal(from, to); };
        auto peers = f.peer.kind == sim::scenario_peer::followers ? e.followers : std::vector<size_t>{host(f.peer)};
        for (auto peer : peers) {
          if (f.direction != sim::link_direction::inbound)
            set(b, peer);
          if (f.direction != sim::link_direction::outbound)
            set(peer, b);
        }
        return;
      }
      case sim::fault_kind::delay:
      case sim::fault_kind::undelay: {
        auto peer = host(f.peer);
        bool on = f.kind == sim::fault_kind::delay;
        std::chrono::milliseconds lo{on ? f.delay_min_ms : 0}, hi{on ? f.delay_max_ms : 0};
        c_.delay(b, peer, lo, hi);
        c_.delay(peer, b, lo, hi);
        return;
      }
      case sim::fault_kind::drop:
        c_.drop(b, host(f.peer));
        return;
      case sim::fault_kind::pause:
        return c_.pause(b, std::chrono::milliseconds(f.pause_ms));
      case sim::fault_kind::isolate:
        return c_.isolate(b);
      case sim::fault_kind::rejoin:
        return c_.rejoin(b);
      case sim::fault_kind::cut_member:
      case sim::fault_kind::heal_member:
      case sim::fault_kind::add_partitions:
      case sim::fault_kind::reassign:
        return; // played above
    }
  }

  size_t host(const sim::scenario_peer& p) const {
    switch (p.kind) {
      case sim::scenario_peer::broker:
        return size_t(p.index);
      case sim::scenario_peer::coordinator:
        return sim::cluster::coordinator_host;
      case sim::scenario_peer::producers:
        return sim::cluster::client_host;
      case sim::scenario_peer::member:
        return member_hosts_[size_t(p.index)];
      case sim::scenario_peer::followers:
        break; // expanded by apply()
    }
    return sim::cluster::client_host;
  }

  sim::cluster& c_;
  const sim::scenario_plan& plan_;
  replica_map& replicas_; ///< refreshed before each use: reassignments change it
  size_t asked_ = 0;
  std::shared_ptr<size_t> answered_ = std::make_shared<size_t>(0);
  std::vector<size_t> member_hosts_;
  std::map<sim::partition_key, std::vector<int64_t>>& exposures_;
  std::map<int, episode> episodes_;
  std::map<int, size_t> last_; ///< episode -> index of its last fault
  std::vector<int> busy_;      ///< per broker: the episode it is in, -1: none
  size_t skipped_ = 0;
};

// Every replicated partition has its whole assignment in the ISR (as recorded) and every
// replica's log ends where the leader's does; `why` says what is missing. Not for partitions
// a machine-crashed broker resumed leading at the same epoch (`resumed`): a follower that holds
// older records of that epoch beyond the leader's restart point can stay stuck there (its
// fetch lands inside one of the leader's new batches; Kafka marks such a partition failed).
bool caught_up(sim::cluster& c, const replica_map& replicas, const std::set<sim::partition_key>& resumed,
               std::string* why) {
  for (auto& [tp, ids] : replicas) {
    if (ids.size() < 2 || resumed.count(tp))
      continue;
    auto state = c.recorded_state(tp.first, tp.second);
    auto isr = state ? state->isr : std::vector<int32_t>{};
    std::vector<std::optional<int64_t>> ends;
    bool ok = state && state->leader > 0 && isr.size() == ids.size();
    for (auto id : ids) {
      ends.push_back(client_test::sim_log_end(c, size_t(id - 1), {tp.first, tp.second}));
      ok = ok && ends.back() && *ends.back() == *ends.front();
    }
    if (ok)
      continue;
    if (why) {
      *why = tp.first + "/" + std::to_string(tp.second) + " leader " + std::to_string(state ? state->leader : -1)
             + " ISR " + ids_text(isr) + " of " + ids_text(ids) + ", log ends";
      for (size_t k = 0; k < ids.size(); ++k)
        *why += " " + std::to_string(ids[k]) + ":" + (ends[k] ? std::to_string(*ends[k]) : std::string{"-"});
    }
    return false;
  }
  return true;
}

void tweak(const sim::scenario_plan& plan, config::server_config& cfg) {
  if (plan.flush_each_message)
    cfg.log_flush_interval_messages = 1;
  cfg.replica_lag_time_max_ms = plan.replica_lag_time_max_ms;
  cfg.group_initial_rebalance_delay_ms = 0;
  cfg.group_min_session_timeout_ms = 500;
  cfg.offsets_topic_num_partitions = 3;
}

} // namespace

sim_run_result run_sim_plan(const sim::scenario_plan& plan) {
  sim_run_result res;
  sim::cluster c{sim::options{plan.brokers, plan.seed, [&plan](config::server_config& cfg) { tweak(plan, cfg); }}};
  auto finish = [&](std::string why) {
    if (!why.empty())
      res.violations.push_back(std::move(why));
    res.trace = c.trace();
    res.sim_ms = c.now().count();
    return res;
  };
  if (!c.run_until([&] { return c.converged(); }, 30s))
    return finish("setup: the cluster did not converge within 30 s");
  std::map<std::string, const sim::scenario_topic*> topics;
  for (auto& t : plan.topics) {
    topics[t.name] = &t;
    auto b = c.broker(0);
    auto created = sim::ask<topic_description>(
      c, *b.system, b.n->actor, 20s, create_topic_atom_v,
      topic_spec{t.name, t.partitions, int16_t(t.replication_factor),
                 {{"min.insync.replicas", std::to_string(t.min_insync_replicas)}}});
    if (!created)
      return finish("setup: create " + t.name + ": " + why(created));
  }
  if (!c.run_until([&] { return recovered(c, plan); }, 30s))
    return finish("setup: topics not led everywhere within 30 s");

  // The assignment (until a reassignment changes it: refresh()).
  replica_map replicas;
  for (auto& t : plan.topics) {
    auto snap = c.broker(0).n->views->snapshot();
    auto* entry = snap->view.topic(t.name);
    for (int32_t p = 0; p < t.partitions; ++p)
      replicas[{t.name, p}] = entry->assignment.partitions[size_t(p)];
  }

  auto& sys = c.client();
  auto log = std::make_shared<send_log>();
  std::vector<client::producer_actor> producers;
  std::vector<bool> idempotent;
  std::vector<caf::actor> senders;
  for (int p = 0; p < plan.producers; ++p) {
    client::producer_config pc;
    pc.bootstrap_servers = c.bootstrap();
    pc.acks = plan.acks[size_t(p)];
    pc.retries = 1000; // bounded by the delivery timeout
    pc.delivery_timeout = 120s;
    pc.partitioner_seed = plan.seed + uint64_t(p) + 1;
    idempotent.push_back(client::idempotent(pc)); // acks=all: on by default
    producers.push_back(client::spawn_producer(sys, pc));
    senders.push_back(spawn_sender(sys, c, producers.back(), p, log));
  }
  std::vector<size_t> member_hosts;
  for (size_t m = 0; m < plan.members.size(); ++m)
    member_hosts.push_back(c.add_client());
  std::vector<sim_member> members;
  sim::run_observations obs;
  fault_player faults{c, plan, replicas, member_hosts, obs.exposures};

  // The timeline: faults, joins and sends by simulated time (in that order at equal times).
  auto start = c.now();
  size_t s = 0, f = 0, j = 0;
  constexpr int64_t none = INT64_MAX;
  for (;;) {
    auto fault_at = f < plan.faults.size() ? plan.faults[f].at_ms : none;
    auto join_at = j < plan.members.size() ? plan.members[j].join_at_ms : none;
    auto send_at = s < plan.sends.size() ? plan.sends[s].at_ms : none;
    auto at = std::min({fault_at, join_at, send_at});
    if (at == none)
      break;
    if (c.now() - start < std::chrono::milliseconds(at))
      c.advance(std::chrono::milliseconds(at) - (c.now() - start));
    faults.poll();
    if (at == fault_at) {
      faults.play(f++);
    } else if (at == join_at) {
      auto& g = plan.groups[size_t(plan.members[j].group)];
      c.note("runner: member " + std::to_string(j) + " of " + g.name + " joins");
      members.push_back(start_sim_member(c, member_hosts[j], g.name, g.topic));
      ++j;
    } else {
      auto& x = plan.sends[s++];
      caf::anon_send(senders[size_t(x.producer)], x.sequence,
                     client::producer_record{x.topic, x.key, x.value, {}, x.timestamp, x.partition});
    }
  }
  c.note("runner: workload and faults done");
  faults.poll();
  // An operation whose broker crashed before it answered never is: bounded, and no violation.
  if (!c.run_until([&] { return faults.operations_answered(); }, 90s))
    c.note("runner: an operation was not answered within 90 s");
  if (!c.run_until([&] { return log->answered == plan.sends.size(); }, 300s))
    return finish("liveness: " + std::to_string(plan.sends.size() - log->answered) +
                  " send(s) unanswered 300 s after the workload");
  if (!c.run_until([&] { return recovered(c, plan); }, 120s))
    return finish("recovery: not every broker back and leading its partitions (reassignments done) within 120 s");
  refresh(c, replicas);
  if (!c.run_until([&] { return caught_up(c, replicas, faults.resumed(), nullptr); }, 120s)) {
    std::string why;
    caught_up(c, replicas, faults.resumed(), &why);
    return finish("replication: not every replica in sync within 120 s of the recovery: " + why);
  }
  c.advance(2s); // a fetch round more: the leaders' high watermarks reach their log ends
  faults.poll(true);
  obs.resumed = faults.resumed();
  c.note("runner: recovered and in sync; reading back");

  // Which acknowledged records the invariants may not ask for (sim/invariants.hpp).
  obs.acked = log->acked;
  for (auto& x : plan.sends)
    if (idempotent[size_t(x.producer)])
      obs.idempotent_values.insert(x.value);
  for (auto& [tp, times] : obs.exposures)
    if (!times.empty())
      obs.lossy.insert(tp);
  size_t exposed = 0, acks1 = 0, checked_min2 = 0;
  for (size_t i = 0; i < obs.acked.size(); ++i) {
    auto& a = obs.acked[i];
    sim::partition_key tp{a.topic, a.partition};
    auto& t = *topics.at(a.topic);
    if (sim::exposed_after(obs, tp, log->acked_at_ms[i])) {
      a.may_be_lost = true;
      ++exposed;
    } else if (plan.acks[size_t(a.producer)] == 1 && t.replication_factor > 1) {
      a.may_be_lost = true;
      ++acks1;
    } else if (plan.acks[size_t(a.producer)] == -1 && t.replication_factor > 1 && t.min_insync_replicas > 1) {
      ++checked_min2;
    }
  }
  std::map<sim::partition_key, int32_t> leaders;
  for (auto& [tp, ids] : replicas) {
    auto state = c.recorded_state(tp.first, tp.second);
    if (!state || state->leader <= 0)
      return finish("read back: " + tp.first + "/" + std::to_string(tp.second) + " has no leader");
    leaders[tp] = state->leader;
    // The high watermark reaches the log end once every follower has fetched at its end.
    auto leader = size_t(state->leader - 1);
    caf::expected<offset_answer> end{caf::error{}};
    for (int attempt = 0; attempt < 60; ++attempt) {
      end = sim::ask_until_served<offset_answer>(c, leader, list_offsets_atom_v, topic_partition{tp.first, tp.second},
                                                 latest_timestamp);
      if (!end || end->offset >= sim_log_end(c, leader, {tp.first, tp.second}).value_or(0))
        break;
      c.advance(500ms);
    }
    if (!end)
      return finish("read back: high watermark of " + tp.first + "/" + std::to_string(tp.second) + ": " + why(end));
    if (auto leo = sim_log_end(c, leader, {tp.first, tp.second});
        leo && end->offset < *leo && !faults.resumed().count(tp)) // a stuck follower may hold it (caught_up)
      res.violations.push_back("replication: the high watermark of " + tp.first + "/" + std::to_string(tp.second)
                               + " stays at " + std::to_string(end->offset) + ", below the log end "
                               + std::to_string(*leo) + ", 30 s after every replica caught up");
    obs.reads[tp].log_end = end->offset;
  }

  auto link = client_test::spawn_link_to_broker(c, sys, 0);
  auto node = sim::ask<node_actor>(c, sys, link, 30s, caf::get_atom_v);
  if (!node)
    return finish("read back: no node link: " + why(node));
  std::map<std::string, std::shared_ptr<sink_log>> sinks_logs;
  std::vector<caf::actor> sinks;
  std::vector<client::subscription> subs;
  client::fetch_options fo;
  fo.bootstrap = c.bootstrap();
  fo.retry_timeout = 120s;
  for (auto& t : plan.topics) {
    auto slog = std::make_shared<sink_log>();
    sinks_logs[t.name] = slog;
    sinks.push_back(spawn_sink(sys, slog));
    for (int32_t p = 0; p < t.partitions; ++p)
      subs.push_back(client::subscribe(sys, *node, sinks.back(), {t.name, p}, client::start_position::earliest(), fo));
  }
  auto all_read = [&] {
    for (auto& [tp, r] : obs.reads) {
      auto& slog = *sinks_logs[tp.first];
      std::lock_guard<std::mutex> guard{slog.mtx};
      auto it = slog.by_partition.find(tp.second);
      auto n = it == slog.by_partition.end() ? 0 : it->second.size();
      if (int64_t(n) < r.log_end)
        return false;
    }
    return true;
  };
  bool read_all = c.run_until(all_read, 120s);
  c.advance(1s); // a duplicate delivery would show up in the checks
  for (auto& [tp, r] : obs.reads) {
    auto& slog = *sinks_logs[tp.first];
    std::lock_guard<std::mutex> guard{slog.mtx};
    for (auto& rec : slog.by_partition[tp.second])
      r.records.push_back({rec.offset, rec.key, rec.value});
    for (auto& e : slog.errors)
      res.violations.push_back("read back: consumer error on " + tp.first + ": " + why(e.error));
  }
  if (!read_all)
    res.violations.push_back("read back: not every partition read to its high watermark within 120 s");

  // The groups catch up: every partition committed up to its log end (bounded polling).
  auto groups_done = [&] {
    obs.commits.clear();
    bool done = true;
    for (auto& g : plan.groups) {
      auto committed = sim_committed(c, g.name, g.topic);
      for (auto& [tp, r] : obs.reads)
        if (tp.first == g.topic) {
          auto it = committed.find(tp.second);
          auto off = it == committed.end() ? 0 : it->second;
          done = done && off >= r.log_end;
          if (it != committed.end())
            obs.commits.push_back({g.name, g.topic, tp.second, off});
        }
    }
    return done;
  };
  bool groups_caught_up = false;
  for (int attempt = 0; attempt < 300 && !(groups_caught_up = groups_done()); ++attempt)
    c.advance(500ms);
  if (!groups_caught_up) {
    std::string line = "groups: not every partition committed up to its log end within the bound:";
    for (auto& x : obs.commits)
      line += " " + x.group + ":" + x.topic + "/" + std::to_string(x.partition) + "@" + std::to_string(x.offset) +
              "(end " + std::to_string(obs.reads[{x.topic, x.partition}].log_end) + ")";
    res.violations.push_back(line);
  }
  for (size_t m = 0; m < members.size(); ++m) {
    auto& g = plan.groups[size_t(plan.members[m].group)];
    for (auto& r : members[m].log->records)
      obs.deliveries.push_back({g.name, r.tp.topic, r.tp.partition, r.offset, r.value, r.at_ms});
    for (auto& e : members[m].log->errors)
      res.violations.push_back("group " + g.name + ": member " + std::to_string(m) + " got an error: " + why(e.error));
  }

  // Every replica's log, from its files (nothing runs between the world's runs).
  for (auto& [tp, ids] : replicas)
    for (auto id : ids) {
      sim::replica_contents rc;
      rc.broker = id;
      rc.leader = id == leaders[tp];
      if (auto got = sim_replica_log(c, size_t(id - 1), {tp.first, tp.second})) {
        rc.log_start = got->log_start;
        rc.log_end = got->log_end;
        rc.error = got->error;
        for (auto& r : got->records)
          rc.records.push_back({r.offset, r.leader_epoch, r.key, r.value});
      } else {
        rc.error = "no open log of it";
      }
      obs.replicas[tp].push_back(std::move(rc));
    }

  obs.controllers = sim::controllers_in_trace(c.trace());
  for (auto& v : sim::check_invariants(obs))
    res.violations.push_back(v);
  std::ostringstream sum;
  sum << plan.sends.size() << " sent, " << log->acked.size() << " acknowledged (" << checked_min2
      << " acks=all with min.insync.replicas=2 checked), " << log->failed << " failed, " << exposed
      << " exposed to a machine crash, " << acks1 << " acks=1 on replicated partitions unchecked, "
      << faults.skipped() << " episode(s) skipped, " << obs.deliveries.size() << " delivered to " << members.size()
      << " group member(s)";
  res.summary = sum.str();

  for (auto& m : members)
    m.stop();
  exit_all(subs, senders, producers, sinks, link);
  c.advance(100ms);
  return finish("");
}

} // namespace client_test
