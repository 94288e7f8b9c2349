// Generating a scenario plan from a seed (scenario.hpp). Uses its own std::mt19937_64
// and only uniform integer draws done by hand (std::uniform_int_distribution's output is
// implementation-defined), so a seed names the same plan with any standard library.
#include "sim/scenario.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <sstream>

namespace cafka::sim {

namespace {

class draw {
public:
  explicit draw(uint64_t seed) : gen_(seed) {}
  /// Uniform in [lo, hi] (the modulo bias is irrelevant here).
  int64_t between(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(gen_() % uint64_t(hi - lo + 1)); }
  bool chance(int percent) { return between(0, 99) < percent; }

private:
  std::mt19937_64 gen_;
};

constexpr int64_t workload_ms = 20000; // sends and fault episodes start within this span

} // namespace

std::string to_string(fault_kind k) {
  switch (k) {
    case fault_kind::crash_process:
      return "crash (process)";
    case fault_kind::crash_machine:
      return "crash (machine)";
    case fault_kind::stop:
      return "stop (clean)";
    case fault_kind::restart:
      return "restart";
    case fault_kind::expire_session:
      return "expire session";
    case fault_kind::cut:
      return "cut";
    case fault_kind::heal:
      return "heal";
    case fault_kind::delay:
      return "delay";
    case fault_kind::undelay:
      return "undelay";
    case fault_kind::drop:
      return "drop";
    case fault_kind::pause:
      return "pause";
    case fault_kind::add_partitions:
      return "add partitions";
    case fault_kind::reassign:
      return "reassign";
    case fault_kind::cut_member:
      return "cut off";
    case fault_kind::heal_member:
      return "heal";
    case fault_kind::isolate:
      return "isolate";
    case fault_kind::rejoin:
      return "rejoin";
  }
  return "?";
}

std::string to_string(const scenario_peer& p) {
  switch (p.kind) {
    case scenario_peer::broker:
      return "broker " + std::to_string(p.index + 1);
    case scenario_peer::coordinator:
      return "the coordinator";
    case scenario_peer::producers:
      return "the producers' host";
    case scenario_peer::member:
      return "member " + std::to_string(p.index) + "'s host";
    case scenario_peer::followers:
      return "its followers";
  }
  return "?";
}

namespace {

void draw_workload(draw& d, scenario_plan& plan) {
  plan.brokers = static_cast<int>(d.between(3, 5));
  auto topics = d.between(1, 3);
  for (int64_t t = 0; t < topics; ++t) {
    scenario_topic topic{"t" + std::to_string(t), static_cast<int32_t>(d.between(1, 6))};
    topic.replication_factor = static_cast<int32_t>(d.between(1, std::min(3, plan.brokers)));
    topic.min_insync_replicas = static_cast<int32_t>(d.between(1, 2));
    plan.topics.push_back(topic);
  }

  plan.producers = static_cast<int>(d.between(1, 3));
  for (int p = 0; p < plan.producers; ++p) {
    plan.acks.push_back(d.chance(50) ? int16_t{-1} : int16_t{1});
    auto n = d.between(5, 30);
    for (int64_t i = 0; i < n; ++i) {
      scenario_send s;
      s.at_ms = d.between(0, workload_ms);
      s.producer = p;
      auto& topic = plan.topics[size_t(d.between(0, int64_t(plan.topics.size()) - 1))];
      s.topic = topic.name;
      s.partition = static_cast<int32_t>(d.between(0, topic.partitions - 1));
      s.key = "k" + std::to_string(p) + "-" + std::to_string(i);
      s.value = "s" + std::to_string(plan.seed) + "-p" + std::to_string(p) + "-" + std::to_string(i);
      s.timestamp = 1'700'000'000'000 + i;
      plan.sends.push_back(std::move(s));
    }
  }
  std::stable_sort(plan.sends.begin(), plan.sends.end(),
                   [](const scenario_send& a, const scenario_send& b) { return a.at_ms < b.at_ms; });
  std::vector<int64_t> next(size_t(plan.producers), 0); // each producer's sends in the order it makes them
  for (auto& s : plan.sends)
    s.sequence = next[size_t(s.producer)]++;
  plan.replica_lag_time_max_ms = std::array<int64_t, 3>{4000, 10000, 30000}[size_t(d.between(0, 2))];

  auto groups = d.between(0, 2);
  for (int64_t g = 0; g < groups; ++g) {
    auto& topic = plan.topics[size_t(d.between(0, int64_t(plan.topics.size()) - 1))];
    plan.groups.push_back({"g" + std::to_string(g), topic.name});
    auto members = d.between(1, 3);
    for (int64_t m = 0; m < members; ++m)
      plan.members.push_back({int(g), m == 0 ? 0 : d.between(0, workload_ms)});
  }
  std::stable_sort(plan.members.begin(), plan.members.end(),
                   [](const scenario_member& a, const scenario_member& b) { return a.join_at_ms < b.join_at_ms; });
}

scenario_fault fault_at(int64_t at_ms, fault_kind kind) {
  scenario_fault f;
  f.at_ms = at_ms;
  f.kind = kind;
  return f;
}

// A peer for a link fault of broker b: another broker, the producers' host, a member's
// host, or (with_coordinator) the coordinator.
scenario_peer draw_peer(draw& d, const scenario_plan& plan, int b, bool with_coordinator) {
  for (;;) {
    auto pick = d.between(0, 9);
    if (pick < 4 && plan.brokers > 1) {
      auto other = static_cast<int>(d.between(0, plan.brokers - 2));
      return {scenario_peer::broker, other >= b ? other + 1 : other};
    }
    if (pick < 6 && with_coordinator)
      return {scenario_peer::coordinator, 0};
    if (pick < 8 && !plan.members.empty())
      return {scenario_peer::member, static_cast<int>(d.between(0, int64_t(plan.members.size()) - 1))};
    if (pick >= 8)
      return {scenario_peer::producers, 0};
  }
}

// What make_plan keeps across episodes.
struct episode_context {
  int64_t machine_free = 0; ///< no machine crash may start before (one machine lost at a time)
  int next_episode = 0;
  plan_options options;
};

// A crash of the episode's broker at `t` in `mode` (process, machine or stop) and its restart;
// a machine crash that would start before ctx.machine_free becomes a process crash. Returns
// when the episode ends.
int64_t add_crash(draw& d, episode_context& ctx, fault_kind mode, int64_t t,
                  const std::function<void(scenario_fault)>& add) {
  if (mode == fault_kind::crash_machine && t < ctx.machine_free)
    mode = fault_kind::crash_process;
  add(fault_at(t, mode));
  auto delay = d.between(200, 15000);
  if (mode == fault_kind::crash_machine && !ctx.options.quick_machine_restarts)
    delay = std::max(delay, machine_restart_min_ms);
  auto restart = t + delay;
  add(fault_at(restart, fault_kind::restart));
  if (mode == fault_kind::crash_machine)
    ctx.machine_free = restart + machine_gap_ms;
  return restart;
}

// One fault episode of broker b from `start`; returns when it ends.
int64_t draw_broker_episode(draw& d, scenario_plan& plan, episode_context& ctx, int b, int64_t start) {
  auto kind = d.between(0, 99);
  int64_t t = start;
  auto episode = ctx.next_episode++;
  auto add = [&](scenario_fault f) {
    f.broker = b;
    f.episode = episode;
    plan.faults.push_back(f);
  };
  if (kind < 40) { // a crash or a stop and the restart, sometimes a crash after an expired session
    if (kind >= 32) {
      add(fault_at(t, fault_kind::expire_session));
      t += d.between(100, 8000);
    }
    auto mode = kind < 8                   ? fault_kind::stop
                : kind >= 20 && kind < 32 ? fault_kind::crash_machine
                                          : fault_kind::crash_process;
    t = add_crash(d, ctx, mode, t, add);
  } else if (kind < 48) {
    add(fault_at(t, fault_kind::expire_session));
  } else if (kind < 66) {
    auto f = fault_at(t, fault_kind::cut);
    f.peer = draw_peer(d, plan, b, true);
    f.direction = static_cast<link_direction>(d.between(0, 2));
    add(f);
    f.at_ms = t += d.between(100, 15000);
    f.kind = fault_kind::heal;
    add(f);
  } else if (kind < 78) {
    auto f = fault_at(t, fault_kind::delay);
    f.peer = draw_peer(d, plan, b, false);
    f.delay_min_ms = d.between(0, 50);
    f.delay_max_ms = f.delay_min_ms + d.between(0, 500);
    add(f);
    f.at_ms = t += d.between(1000, 15000);
    f.kind = fault_kind::undelay;
    add(f);
  } else if (kind < 88) {
    auto f = fault_at(t, fault_kind::drop);
    f.peer = draw_peer(d, plan, b, false);
    add(f);
  } else {
    auto f = fault_at(t, fault_kind::pause);
    f.pause_ms = d.between(100, 10000);
    add(f);
    t += f.pause_ms;
  }
  return t;
}

// One leader episode from `start`: its faults hit whichever broker leads a drawn partition
// of a replicated topic then (the runner resolves it).
void draw_leader_episode(draw& d, scenario_plan& plan, episode_context& ctx, int64_t start) {
  std::vector<const scenario_topic*> replicated;
  for (auto& t : plan.topics)
    if (t.replication_factor > 1)
      replicated.push_back(&t);
  auto& topic = *replicated[size_t(d.between(0, int64_t(replicated.size()) - 1))];
  auto partition = static_cast<int32_t>(d.between(0, topic.partitions - 1));
  auto episode = ctx.next_episode++;
  auto add = [&](scenario_fault f) {
    f.broker = -1;
    f.episode = episode;
    f.target_topic = topic.name;
    f.target_partition = partition;
    plan.faults.push_back(f);
  };
  auto kind = d.between(0, 99);
  auto t = start;
  if (kind < 30) {
    add_crash(d, ctx, d.chance(40) ? fault_kind::crash_machine : fault_kind::crash_process, t, add);
  } else if (kind < 38) {
    add_crash(d, ctx, fault_kind::stop, t, add);
  } else if (kind < 73) { // cut from the coordinator (ZooKeeper) or from its followers
    auto f = fault_at(t, fault_kind::cut);
    f.peer = kind < 53 ? scenario_peer{scenario_peer::coordinator, 0} : scenario_peer{scenario_peer::followers, 0};
    f.direction = static_cast<link_direction>(d.between(0, 2));
    add(f);
    f.at_ms = t + d.between(100, 15000);
    f.kind = fault_kind::heal;
    add(f);
  } else if (kind < 85) {
    auto f = fault_at(t, fault_kind::pause);
    f.pause_ms = d.between(100, 10000);
    add(f);
  } else {
    add(fault_at(t, fault_kind::isolate));
    add(fault_at(t + d.between(100, 15000), fault_kind::rejoin));
  }
}

// The operations (see the header), from their own stream of draws.
void draw_operations(uint64_t seed, scenario_plan& plan, episode_context& ctx) {
  draw d{seed ^ 0x6f70657261746e73ull}; // "operatns"
  std::vector<int32_t> partitions;
  for (auto& t : plan.topics)
    partitions.push_back(t.partitions);
  auto count = d.between(0, 2);
  for (int64_t i = 0; i < count; ++i) {
    auto topic = static_cast<size_t>(d.between(0, int64_t(plan.topics.size()) - 1));
    auto& t = plan.topics[topic];
    scenario_fault f = fault_at(d.between(500, workload_ms), fault_kind::add_partitions);
    f.broker = operation_broker;
    f.episode = ctx.next_episode++;
    f.target_topic = t.name;
    if (d.chance(50)) {
      partitions[topic] += static_cast<int32_t>(d.between(1, 2));
      f.partition_count = partitions[topic];
    } else {
      f.kind = fault_kind::reassign;
      f.target_partition = static_cast<int32_t>(d.between(0, t.partitions - 1));
      std::vector<int32_t> ids;
      for (int32_t id = 1; id <= plan.brokers; ++id)
        ids.push_back(id);
      for (int32_t k = 0; k < t.replication_factor; ++k) { // a draw without putting back
        auto pick = static_cast<size_t>(d.between(k, int64_t(ids.size()) - 1));
        std::swap(ids[size_t(k)], ids[pick]);
        f.replicas.push_back(ids[size_t(k)]);
      }
    }
    plan.faults.push_back(f);
  }
}

} // namespace

scenario_plan make_plan(uint64_t seed, const plan_options& options) {
  draw d{seed};
  scenario_plan plan;
  plan.seed = seed;
  plan.quick_machine_restarts = options.quick_machine_restarts;
  draw_workload(d, plan);
  bool replicated = std::any_of(plan.topics.begin(), plan.topics.end(),
                                [](const scenario_topic& t) { return t.replication_factor > 1; });

  // Episodes: a broker's (or member host's) next episode starts only after its previous
  // one ended, and a while after.
  std::vector<int64_t> broker_free(size_t(plan.brokers), 0);
  std::vector<int64_t> member_free(plan.members.size(), 0);
  episode_context ctx;
  ctx.options = options;
  auto episodes = d.between(0, 6);
  for (int64_t e = 0; e < episodes; ++e) {
    if (!plan.members.empty() && d.chance(15)) {
      auto m = static_cast<int>(d.between(0, int64_t(plan.members.size()) - 1));
      auto t = std::max({member_free[size_t(m)], plan.members[size_t(m)].join_at_ms, d.between(500, workload_ms)});
      auto f = fault_at(t, fault_kind::cut_member);
      f.member = m;
      f.episode = ctx.next_episode++;
      plan.faults.push_back(f);
      f.at_ms = t + d.between(100, 15000);
      f.kind = fault_kind::heal_member;
      plan.faults.push_back(f);
      member_free[size_t(m)] = f.at_ms + 1000;
      continue;
    }
    if (replicated && d.chance(45)) {
      draw_leader_episode(d, plan, ctx, d.between(500, workload_ms));
      continue;
    }
    auto b = static_cast<int>(d.between(0, plan.brokers - 1));
    auto start = std::max(broker_free[size_t(b)], d.between(500, workload_ms));
    broker_free[size_t(b)] = draw_broker_episode(d, plan, ctx, b, start) + 1000;
  }
  draw_operations(seed, plan, ctx);
  plan.flush_each_message =
    std::any_of(plan.faults.begin(), plan.faults.end(),
                [](const scenario_fault& f) { return f.kind == fault_kind::crash_machine; })
    && d.chance(25);
  std::stable_sort(plan.faults.begin(), plan.faults.end(),
                   [](const scenario_fault& a, const scenario_fault& b) { return a.at_ms < b.at_ms; });
  plan.end_ms = 0;
  if (!plan.sends.empty())
    plan.end_ms = plan.sends.back().at_ms;
  if (!plan.members.empty())
    plan.end_ms = std::max(plan.end_ms, plan.members.back().join_at_ms);
  if (!plan.faults.empty())
    plan.end_ms = std::max(plan.end_ms, plan.faults.back().at_ms);
  return plan;
}

namespace {

std::string describe(const scenario_fault& f) {
  auto broker = f.broker < 0 ? "the leader of " + f.target_topic + "/" + std::to_string(f.target_partition)
                             : "broker " + std::to_string(f.broker + 1);
  switch (f.kind) {
    case fault_kind::cut:
    case fault_kind::heal: {
      auto peer = to_string(f.peer);
      auto link = f.direction == link_direction::outbound  ? broker + " -> " + peer
                  : f.direction == link_direction::inbound ? peer + " -> " + broker
                                                           : broker + " <-> " + peer;
      return to_string(f.kind) + " " + link;
    }
    case fault_kind::delay:
      return "delay " + broker + " <-> " + to_string(f.peer) + " by " + std::to_string(f.delay_min_ms) + ".." +
             std::to_string(f.delay_max_ms) + " ms";
    case fault_kind::undelay:
      return "undelay " + broker + " <-> " + to_string(f.peer);
    case fault_kind::drop:
      return "drop " + broker + " <-> " + to_string(f.peer);
    case fault_kind::pause:
      return "pause " + broker + " for " + std::to_string(f.pause_ms) + " ms";
    case fault_kind::cut_member:
    case fault_kind::heal_member:
      return to_string(f.kind) + " member " + std::to_string(f.member) + "'s host from every broker";
    case fault_kind::isolate:
    case fault_kind::rejoin:
      return to_string(f.kind) + " " + broker;
    case fault_kind::add_partitions:
      return "grow " + f.target_topic + " to " + std::to_string(f.partition_count) + " partitions";
    case fault_kind::reassign: {
      std::string ids;
      for (auto id : f.replicas)
        ids += (ids.empty() ? "" : ",") + std::to_string(id);
      return "reassign " + f.target_topic + "/" + std::to_string(f.target_partition) + " to brokers " + ids;
    }
    default:
      return broker + " " + to_string(f.kind);
  }
}

} // namespace

std::string to_text(const scenario_plan& plan) {
  std::ostringstream out;
  out << "plan of seed " << plan.seed << ": " << plan.brokers << " brokers, " << plan.producers
      << " producer(s) (acks";
  for (auto a : plan.acks)
    out << " " << (a == -1 ? "all" : std::to_string(a));
  out << "), " << plan.sends.size() << " records, replica.lag.time.max.ms=" << plan.replica_lag_time_max_ms
      << (plan.flush_each_message ? ", log.flush.interval.messages=1" : "") << "\n";
  out << "  topics (partitions, replication factor, min.insync.replicas):";
  for (auto& t : plan.topics)
    out << " " << t.name << "/" << t.partitions << "/rf" << t.replication_factor << "/min" << t.min_insync_replicas;
  out << "\n  groups:";
  if (plan.groups.empty())
    out << " none";
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    out << " " << plan.groups[g].name << " on " << plan.groups[g].topic << " (members joining at";
    for (size_t m = 0; m < plan.members.size(); ++m)
      if (plan.members[m].group == int(g))
        out << " " << plan.members[m].join_at_ms << " ms [" << m << "]";
    out << ")";
  }
  out << "\n  faults (ms after the workload starts):";
  if (plan.faults.empty())
    out << " none";
  out << "\n";
  for (auto& f : plan.faults)
    out << "    " << f.at_ms << " ms: [" << f.episode << "] " << describe(f) << "\n";
  out << "  sends: " << (plan.sends.empty() ? 0 : plan.sends.front().at_ms) << " .. "
      << (plan.sends.empty() ? 0 : plan.sends.back().at_ms) << " ms";
  return out.str();
}

} // namespace cafka::sim
