// Playing one randomized simulation plan (sim_runner.hpp).
#include "sim_runner.hpp"

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

// Every broker up, the views agree, and every partition of the plan has a live leader in
// every broker's view.
bool recovered(sim::cluster& c, const sim::scenario_plan& plan) {
  for (size_t i = 0; i < c.size(); ++i)
    if (!c.broker(i).up)
      return false;
  if (!c.converged())
    return false;
  for (size_t i = 0; i < c.size(); ++i)
    for (auto& t : plan.topics) {
      auto ls = client_test::sim_view_leaders(c, i, t.name);
      if (ls.size() != size_t(t.partitions))
        return false;
      for (auto l : ls)
        if (l < 0)
          return false;
    }
  return true;
}

// What the senders learnt; shared with the runner (everything runs on its thread).
struct send_log {
  std::vector<sim::acked_record> acked;
  std::vector<int64_t> acked_at_ms; ///< simulated time of each acknowledgement
  size_t answered = 0;
  size_t failed = 0;
};

// Hands each producer_record it gets to `prod` and notes the answer.
caf::actor spawn_sender(caf::actor_system& sys, sim::cluster& c, client::producer_actor prod,
                        std::shared_ptr<send_log> log) {
  auto* cl = &c;
  return sys.spawn([cl, prod, log](caf::event_based_actor* self) -> caf::behavior {
    return {
      [=](client::producer_record& r) {
        auto key = r.key;
        auto value = r.value;
        self->request(prod, caf::infinite, client::send_atom_v, std::move(r))
          .then(
            [=](client::record_metadata& md) {
              log->acked.push_back({md.topic, md.partition, md.offset, key, value});
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

// Plays the plan's faults: maps its peers to hosts of the cluster.
class fault_player {
public:
  fault_player(sim::cluster& c, std::vector<size_t> member_hosts) : c_(c), member_hosts_(std::move(member_hosts)) {}

  void play(const sim::scenario_fault& f) {
    auto b = size_t(f.broker);
    switch (f.kind) {
      case sim::fault_kind::crash_process:
        return c_.crash(b, sim::crash_mode::process);
      case sim::fault_kind::crash_machine:
        return c_.crash(b, sim::crash_mode::machine);
      case sim::fault_kind::stop:
        c_.stop(b);
        return;
      case sim::fault_kind::restart:
        return c_.restart(b);
      case sim::fault_kind::expire_session:
        return c_.expire_session(b);
      case sim::fault_kind::cut:
      case sim::fault_kind::heal: {
        auto peer = host(f.peer);
        auto set = [&](size_t from, size_t to) { f.kind == sim::fault_kind::cut ? c_.cut(from, to) : c_.heal(from, to); };
        if (f.direction != sim::link_direction::inbound)
          set(b, peer);
        if (f.direction != sim::link_direction::outbound)
          set(peer, b);
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
      case sim::fault_kind::cut_member:
      case sim::fault_kind::heal_member:
        if (f.kind == sim::fault_kind::cut_member)
          c_.isolate(member_hosts_[size_t(f.member)]);
        else
          c_.rejoin(member_hosts_[size_t(f.member)]);
        return;
    }
  }

private:
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
    }
    return sim::cluster::client_host;
  }

  sim::cluster& c_;
  std::vector<size_t> member_hosts_;
};

// Partitions whose leader a machine crash may have cut back (see scenario.hpp).
std::set<sim::partition_key> lossy_partitions(const sim::scenario_plan& plan,
                                              const std::map<sim::partition_key, int32_t>& placement) {
  std::set<sim::partition_key> out;
  if (plan.flush_each_message)
    return out;
  for (auto& f : plan.faults)
    if (f.kind == sim::fault_kind::crash_machine)
      for (auto& [tp, leader] : placement)
        if (leader == f.broker + 1)
          out.insert(tp);
  return out;
}

void tweak(const sim::scenario_plan& plan, config::server_config& cfg) {
  if (plan.flush_each_message)
    cfg.log_flush_interval_messages = 1;
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
  for (auto& t : plan.topics) {
    auto b = c.broker(0);
    auto created = sim::ask<topic_description>(c, *b.system, b.n->actor, 20s, create_topic_atom_v,
                                               topic_spec{t.name, t.partitions, 1, {}});
    if (!created)
      return finish("setup: create " + t.name + ": " + why(created));
  }
  if (!c.run_until([&] { return recovered(c, plan); }, 30s))
    return finish("setup: topics not led everywhere within 30 s");

  // Replication factor 1: a partition's leader is its only replica, for good.
  std::map<sim::partition_key, int32_t> placement;
  for (auto& t : plan.topics) {
    auto ls = client_test::sim_view_leaders(c, 0, t.name);
    for (int32_t p = 0; p < t.partitions; ++p)
      placement[{t.name, p}] = ls[size_t(p)];
  }

  auto& sys = c.client();
  auto log = std::make_shared<send_log>();
  std::vector<client::producer_actor> producers;
  std::vector<caf::actor> senders;
  for (int p = 0; p < plan.producers; ++p) {
    client::producer_config pc;
    pc.bootstrap_servers = c.bootstrap();
    pc.acks = -1;
    pc.retries = 1000; // bounded by the delivery timeout
    pc.delivery_timeout = 120s;
    pc.partitioner_seed = plan.seed + uint64_t(p) + 1;
    producers.push_back(client::spawn_producer(sys, pc));
    senders.push_back(spawn_sender(sys, c, producers.back(), log));
  }
  std::vector<size_t> member_hosts;
  for (size_t m = 0; m < plan.members.size(); ++m)
    member_hosts.push_back(c.add_client());
  std::vector<sim_member> members;
  fault_player faults{c, member_hosts};

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
    if (at == fault_at) {
      faults.play(plan.faults[f++]);
    } else if (at == join_at) {
      auto& g = plan.groups[size_t(plan.members[j].group)];
      c.note("runner: member " + std::to_string(j) + " of " + g.name + " joins");
      members.push_back(start_sim_member(c, member_hosts[j], g.name, g.topic));
      ++j;
    } else {
      auto& x = plan.sends[s++];
      caf::anon_send(senders[size_t(x.producer)],
                     client::producer_record{x.topic, x.key, x.value, {}, x.timestamp, x.partition});
    }
  }
  c.note("runner: workload and faults done");
  if (!c.run_until([&] { return log->answered == plan.sends.size(); }, 300s))
    return finish("liveness: " + std::to_string(plan.sends.size() - log->answered) +
                  " send(s) unanswered 300 s after the workload");
  if (!c.run_until([&] { return recovered(c, plan); }, 120s))
    return finish("recovery: not every broker back and leading its partitions within 120 s");
  c.note("runner: recovered; reading back");

  sim::run_observations obs;
  obs.acked = log->acked;
  obs.lossy = lossy_partitions(plan, placement);
  size_t exempt = 0;
  if (!plan.flush_each_message) // see scenario.hpp: unflushed records die with the machine
    for (size_t i = 0; i < obs.acked.size(); ++i) {
      auto& a = obs.acked[i];
      auto leader = placement[{a.topic, a.partition}];
      for (auto& x : plan.faults)
        if (x.kind == sim::fault_kind::crash_machine && x.broker + 1 == leader &&
            start.count() + x.at_ms >= log->acked_at_ms[i])
          a.may_be_lost = true;
      exempt += a.may_be_lost ? 1 : 0;
    }
  for (auto& t : plan.topics) {
    for (int32_t p = 0; p < t.partitions; ++p) {
      // The placement, not the current view: a late fault (an expiry) may leave a partition
      // briefly unled again, and its only replica is where it always was.
      auto leader = size_t(placement[{t.name, p}] - 1);
      auto end = sim::ask_until_served<offset_answer>(c, leader, list_offsets_atom_v, topic_partition{t.name, p},
                                                      latest_timestamp);
      if (!end)
        return finish("read back: log end of " + t.name + "/" + std::to_string(p) + ": " + why(end));
      obs.reads[{t.name, p}].log_end = end->offset;
    }
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
    res.violations.push_back("read back: not every partition read to its log end within 120 s");

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
      obs.deliveries.push_back({g.name, r.tp.topic, r.tp.partition, r.offset, r.value});
    for (auto& e : members[m].log->errors)
      res.violations.push_back("group " + g.name + ": member " + std::to_string(m) + " got an error: " + why(e.error));
  }

  obs.controllers = sim::controllers_in_trace(c.trace());
  for (auto& v : sim::check_invariants(obs))
    res.violations.push_back(v);
  std::ostringstream sum;
  sum << plan.sends.size() << " sent, " << log->acked.size() << " acknowledged, " << log->failed << " failed, " << exempt
      << " exposed to a machine crash, " << obs.deliveries.size() << " delivered to " << members.size()
      << " group member(s)";
  res.summary = sum.str();

  for (auto& m : members)
    m.stop();
  exit_all(subs, senders, producers, sinks, link);
  c.advance(100ms);
  return finish("");
}

} // namespace client_test
