// Generating a scenario plan from a seed (scenario.hpp). Uses its own std::mt19937_64
// and only uniform integer draws done by hand (std::uniform_int_distribution's output is
// implementation-defined), so a seed names the same plan with any standard library.
#include "sim/scenario.hpp"

#include <algorithm>
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
    case fault_kind::cut_member:
      return "cut off";
    case fault_kind::heal_member:
      return "heal";
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
  }
  return "?";
}

namespace {

void draw_workload(draw& d, scenario_plan& plan) {
  plan.brokers = static_cast<int>(d.between(3, 5));
  auto topics = d.between(1, 3);
  for (int64_t t = 0; t < topics; ++t)
    plan.topics.push_back({"t" + std::to_string(t), static_cast<int32_t>(d.between(1, 6))});

  plan.producers = static_cast<int>(d.between(1, 3));
  for (int p = 0; p < plan.producers; ++p) {
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

// One fault episode of broker b from `start`; returns when it ends.
int64_t draw_broker_episode(draw& d, scenario_plan& plan, int b, int64_t start) {
  auto kind = d.between(0, 99);
  int64_t t = start;
  auto add = [&](scenario_fault f) {
    f.broker = b;
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
    if (mode == fault_kind::crash_machine)
      plan.flush_each_message = true; // decided by the caller
    add(fault_at(t, mode));
    t += d.between(200, 15000);
    add(fault_at(t, fault_kind::restart));
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

} // namespace

scenario_plan make_plan(uint64_t seed) {
  draw d{seed};
  scenario_plan plan;
  plan.seed = seed;
  draw_workload(d, plan);

  // Episodes: a broker's (or member host's) next episode starts only after its previous
  // one ended, and a while after.
  std::vector<int64_t> broker_free(size_t(plan.brokers), 0);
  std::vector<int64_t> member_free(plan.members.size(), 0);
  auto episodes = d.between(0, 6);
  for (int64_t e = 0; e < episodes; ++e) {
    if (!plan.members.empty() && d.chance(15)) {
      auto m = static_cast<int>(d.between(0, int64_t(plan.members.size()) - 1));
      auto t = std::max({member_free[size_t(m)], plan.members[size_t(m)].join_at_ms, d.between(500, workload_ms)});
      auto f = fault_at(t, fault_kind::cut_member);
      f.member = m;
      plan.faults.push_back(f);
      f.at_ms = t + d.between(100, 15000);
      f.kind = fault_kind::heal_member;
      plan.faults.push_back(f);
      member_free[size_t(m)] = f.at_ms + 1000;
      continue;
    }
    auto b = static_cast<int>(d.between(0, plan.brokers - 1));
    auto start = std::max(broker_free[size_t(b)], d.between(500, workload_ms));
    broker_free[size_t(b)] = draw_broker_episode(d, plan, b, start) + 1000;
  }
  plan.flush_each_message = plan.flush_each_message && d.chance(25);
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
  auto broker = "broker " + std::to_string(f.broker + 1);
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
    default:
      return broker + " " + to_string(f.kind);
  }
}

} // namespace

std::string to_text(const scenario_plan& plan) {
  std::ostringstream out;
  out << "plan of seed " << plan.seed << ": " << plan.brokers << " brokers, " << plan.producers
      << " producer(s), " << plan.sends.size() << " records (acks=all), replication factor 1"
      << (plan.flush_each_message ? ", log.flush.interval.messages=1" : "") << "\n";
  out << "  topics:";
  for (auto& t : plan.topics)
    out << " " << t.name << "/" << t.partitions;
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
    out << "    " << f.at_ms << " ms: " << describe(f) << "\n";
  out << "  sends: " << (plan.sends.empty() ? 0 : plan.sends.front().at_ms) << " .. "
      << (plan.sends.empty() ? 0 : plan.sends.back().at_ms) << " ms";
  return out.str();
}

} // namespace cafka::sim
