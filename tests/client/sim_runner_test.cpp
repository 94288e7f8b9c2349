// The randomized scenario runner (issue 7, point 5): for each seed, sim::make_plan draws
// a cluster (3-5 brokers), topics, a workload of cafka's own producers (acks=all, known
// keys and values) and a fault schedule in simulated time (sim/scenario.hpp); the runner
// plays it against a sim::cluster, waits (bounded, in simulated time) until every broker
// is back and leads its partitions, reads every partition from offset 0 with
// subscriptions, and checks sim/invariants.hpp. Suite sim_runner:
//
// - random_seeds: seeds CAFKA_SIM_FIRST_SEED (default 1) .. +CAFKA_SIM_SEEDS-1 (default
//   below); stops at the first failing seed and prints its plan, its violations, the
//   replay command and the tail of its trace;
// - given_seed: only with `-- --seed=N` (then random_seeds does nothing), so
//     build/bin/client_tests --run_test=sim_runner -- --seed=N
//   replays one seed;
// - plan and invariant unit tests (pure, no cluster) in sim_scenario_test.cpp.
//
// Not yet in the workload: group consumers (the commit invariant is checked by
// check_invariants when commits are given; the runner gives none) and link cuts.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <iostream>
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
#include "sim/scenario.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

// Seeds per random_seeds run unless CAFKA_SIM_SEEDS says otherwise. Since the client reads
// simulated time a seed takes about 20 ms (RelWithDebInfo: 3000 seeds in 67 s on 2 cores);
// the sanitizer build (scripts/test.sh runs client_tests there too) is many times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t default_seeds = 30;
#else
constexpr uint64_t default_seeds = 300;
#endif

std::optional<uint64_t> env_number(const char* name) {
  if (auto* v = std::getenv(name); v && *v) {
    char* end = nullptr;
    auto n = std::strtoull(v, &end, 10);
    if (*end == 0)
      return n;
    BOOST_FAIL(name << "=" << v << " is not a number");
  }
  return std::nullopt;
}

// `--seed=N` after `--` on the command line.
std::optional<uint64_t> seed_argument() {
  auto& suite = boost::unit_test::framework::master_test_suite();
  const std::string prefix = "--seed=";
  for (int i = 1; i < suite.argc; ++i) {
    std::string arg = suite.argv[i];
    if (arg.rfind(prefix, 0) != 0)
      continue;
    char* end = nullptr;
    auto n = std::strtoull(arg.c_str() + prefix.size(), &end, 10);
    if (arg.size() == prefix.size() || *end != 0)
      BOOST_FAIL(arg << ": --seed wants a non-negative number");
    return n;
  }
  return std::nullopt;
}

// The leaders as broker i's loaded view records them (-1: none).
std::vector<int32_t> view_leaders(sim::cluster& c, size_t i, const std::string& topic) {
  std::vector<int32_t> out;
  auto b = c.broker(i);
  if (!b.up)
    return out;
  auto snap = b.n->views->snapshot();
  auto* t = snap->view.topic(topic);
  if (!t)
    return out;
  for (int32_t p = 0; p < static_cast<int32_t>(t->partitions.size()); ++p)
    out.push_back(snap->view.live_leader(topic, p));
  return out;
}

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
      auto ls = view_leaders(c, i, t.name);
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

std::string trace_tail(const sim::cluster& c, size_t lines) {
  auto& t = c.trace();
  std::string out;
  for (size_t i = t.size() > lines ? t.size() - lines : 0; i < t.size(); ++i)
    out += t[i] + "\n";
  return out;
}

struct run_result {
  std::vector<std::string> violations;
  std::string summary;
  std::string trace_tail;
  std::vector<std::string> trace;
  int64_t sim_ms = 0;
};

// Plays `plan` and checks the invariants. A step that does not come within its bound of
// simulated time (setup, recovery, reading back) is a violation too.
run_result run_plan(const sim::scenario_plan& plan) {
  run_result res;
  sim::cluster c{sim::options{plan.brokers, plan.seed, [&plan](config::server_config& cfg) {
                                if (plan.flush_each_message)
                                  cfg.log_flush_interval_messages = 1;
                              }}};
  auto finish = [&](std::string why) {
    if (!why.empty())
      res.violations.push_back(std::move(why));
    res.trace_tail = trace_tail(c, 40);
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
      return finish("setup: create " + t.name + ": " + client_test::why(created));
  }
  if (!c.run_until([&] { return recovered(c, plan); }, 30s))
    return finish("setup: topics not led everywhere within 30 s");

  // Replication factor 1: a partition's leader is its only replica, for good.
  std::map<sim::partition_key, int32_t> placement;
  for (auto& t : plan.topics) {
    auto ls = view_leaders(c, 0, t.name);
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

  // The timeline: sends and faults by simulated time (faults first at equal times).
  auto start = c.now();
  size_t s = 0, f = 0;
  while (s < plan.sends.size() || f < plan.faults.size()) {
    bool fault = f < plan.faults.size() && (s == plan.sends.size() || plan.faults[f].at_ms <= plan.sends[s].at_ms);
    auto at = std::chrono::milliseconds(fault ? plan.faults[f].at_ms : plan.sends[s].at_ms);
    if (c.now() - start < at)
      c.advance(at - (c.now() - start));
    if (fault) {
      auto& x = plan.faults[f++];
      auto b = size_t(x.broker);
      switch (x.kind) {
        case sim::fault_kind::crash_process:
          c.crash(b, sim::crash_mode::process);
          break;
        case sim::fault_kind::crash_machine:
          c.crash(b, sim::crash_mode::machine);
          break;
        case sim::fault_kind::restart:
          c.restart(b);
          break;
        case sim::fault_kind::expire_session:
          c.expire_session(b);
          break;
      }
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
  size_t exempt = 0;
  if (!plan.flush_each_message) // see scenario.hpp: unflushed records die with the machine
    for (size_t i = 0; i < obs.acked.size(); ++i) {
      auto& a = obs.acked[i];
      auto leader = placement[{a.topic, a.partition}];
      for (auto& f : plan.faults)
        if (f.kind == sim::fault_kind::crash_machine && f.broker + 1 == leader &&
            start.count() + f.at_ms >= log->acked_at_ms[i])
          a.may_be_lost = true;
      exempt += a.may_be_lost ? 1 : 0;
    }
  auto leaders_view = [&](const std::string& topic) { return view_leaders(c, 0, topic); };
  for (auto& t : plan.topics) {
    auto leaders = leaders_view(t.name);
    for (int32_t p = 0; p < t.partitions; ++p) {
      auto end = sim::ask_until_served<offset_answer>(c, size_t(leaders[size_t(p)] - 1), list_offsets_atom_v,
                                                 topic_partition{t.name, p}, latest_timestamp);
      if (!end)
        return finish("read back: log end of " + t.name + "/" + std::to_string(p) + ": " + client_test::why(end));
      obs.reads[{t.name, p}].log_end = end->offset;
    }
  }

  client::link_options lo;
  lo.endpoints = {client::endpoint{c.broker(0).address, c.broker(0).caf_port}};
  auto link = client::spawn_node_link(sys, node_actor{}, lo);
  auto node = sim::ask<node_actor>(c, sys, link, 30s, caf::get_atom_v);
  if (!node)
    return finish("read back: no node link: " + client_test::why(node));
  std::map<std::string, std::shared_ptr<client_test::sink_log>> sinks_logs;
  std::vector<caf::actor> sinks;
  std::vector<client::subscription> subs;
  client::fetch_options fo;
  fo.bootstrap = c.bootstrap();
  fo.retry_timeout = 120s;
  for (auto& t : plan.topics) {
    auto slog = std::make_shared<client_test::sink_log>();
    sinks_logs[t.name] = slog;
    sinks.push_back(client_test::spawn_sink(sys, slog));
    for (int32_t p = 0; p < t.partitions; ++p)
      subs.push_back(
        client::subscribe(sys, *node, sinks.back(), {t.name, p}, client::start_position::earliest(), fo));
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
      res.violations.push_back("read back: consumer error on " + tp.first + ": " + client_test::why(e.error));
  }
  if (!read_all)
    res.violations.push_back("read back: not every partition read to its log end within 120 s");
  obs.controllers = sim::controllers_in_trace(c.trace());
  for (auto& v : sim::check_invariants(obs))
    res.violations.push_back(v);
  std::ostringstream sum;
  sum << plan.sends.size() << " sent, " << log->acked.size() << " acknowledged, " << log->failed << " failed, " << exempt
      << " exposed to a machine crash";
  res.summary = sum.str();

  for (auto& x : subs)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  for (auto& x : senders)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  for (auto& x : producers)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  for (auto& x : sinks)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(link, caf::exit_reason::user_shutdown);
  c.advance(100ms);
  return finish("");
}

// Runs one seed; false (with a BOOST_ERROR carrying the whole report) if it failed.
bool run_seed(uint64_t seed) {
  auto plan = sim::make_plan(seed);
  auto res = run_plan(plan);
  if (std::getenv("CAFKA_SIM_VERBOSE"))
    std::cerr << "seed " << seed << ": " << res.summary << ", " << plan.faults.size() << " fault(s), "
              << res.trace.size() << " trace lines, " << res.sim_ms << " ms simulated\n";
  if (res.violations.empty())
    return true;
  std::ostringstream out;
  out << "seed " << seed << " failed:";
  for (auto& v : res.violations)
    out << "\n  " << v;
  out << "\nreplay: build/bin/client_tests --run_test=sim_runner -- --seed=" << seed << "\n"
      << sim::to_text(plan) << "\n"
      << res.summary << "\ntrace tail:\n"
      << res.trace_tail;
  BOOST_ERROR(out.str());
  return false;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sim_runner)

BOOST_AUTO_TEST_CASE(random_seeds) {
  if (seed_argument()) {
    BOOST_TEST_MESSAGE("--seed given: only given_seed runs");
    return;
  }
  auto first = env_number("CAFKA_SIM_FIRST_SEED").value_or(1);
  auto count = env_number("CAFKA_SIM_SEEDS").value_or(default_seeds);
  uint64_t ran = 0;
  for (uint64_t seed = first; seed < first + count; ++seed, ++ran)
    if (!run_seed(seed))
      break; // the first failing seed is the report
  BOOST_TEST(ran == count, "stopped at seed " << first + ran);
  BOOST_TEST_MESSAGE("sim_runner: ran seeds " << first << ".." << first + ran - (ran == count ? 1 : 0));
}

BOOST_AUTO_TEST_CASE(given_seed) {
  auto seed = seed_argument();
  if (!seed) {
    BOOST_TEST_MESSAGE("no --seed given");
    return;
  }
  BOOST_TEST_MESSAGE(sim::to_text(sim::make_plan(*seed)));
  BOOST_TEST(run_seed(*seed));
}

BOOST_AUTO_TEST_SUITE_END()
