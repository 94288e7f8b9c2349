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
    case fault_kind::restart:
      return "restart";
    case fault_kind::expire_session:
      return "expire session";
  }
  return "?";
}

scenario_plan make_plan(uint64_t seed) {
  draw d{seed};
  scenario_plan plan;
  plan.seed = seed;
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
      s.value = "s" + std::to_string(seed) + "-p" + std::to_string(p) + "-" + std::to_string(i);
      s.timestamp = 1'700'000'000'000 + i;
      plan.sends.push_back(std::move(s));
    }
  }
  std::stable_sort(plan.sends.begin(), plan.sends.end(),
                   [](const scenario_send& a, const scenario_send& b) { return a.at_ms < b.at_ms; });

  // Episodes: a broker goes down (crash, or an expired session then a crash) and comes
  // back. A broker's next episode starts only after its previous one ended.
  std::vector<int64_t> free_from(size_t(plan.brokers), 0);
  auto episodes = d.between(0, 4);
  for (int64_t e = 0; e < episodes; ++e) {
    auto b = static_cast<int>(d.between(0, plan.brokers - 1));
    auto start = std::max(free_from[size_t(b)], d.between(500, workload_ms));
    auto kind = d.between(0, 9);
    int64_t t = start;
    if (kind >= 8) { // expire the session first; the broker keeps running a while
      plan.faults.push_back({t, fault_kind::expire_session, b});
      t += d.between(100, 8000);
    }
    auto mode = kind >= 5 && kind < 8 ? fault_kind::crash_machine : fault_kind::crash_process;
    if (mode == fault_kind::crash_machine)
      plan.flush_each_message = true; // decided below
    plan.faults.push_back({t, mode, b});
    t += d.between(200, 15000);
    plan.faults.push_back({t, fault_kind::restart, b});
    free_from[size_t(b)] = t + 1000; // a broker runs a while before its next fault
  }
  plan.flush_each_message = plan.flush_each_message && d.chance(25);
  std::stable_sort(plan.faults.begin(), plan.faults.end(),
                   [](const scenario_fault& a, const scenario_fault& b) { return a.at_ms < b.at_ms; });
  plan.end_ms = 0;
  if (!plan.sends.empty())
    plan.end_ms = plan.sends.back().at_ms;
  if (!plan.faults.empty())
    plan.end_ms = std::max(plan.end_ms, plan.faults.back().at_ms);
  return plan;
}

std::string to_text(const scenario_plan& plan) {
  std::ostringstream out;
  out << "plan of seed " << plan.seed << ": " << plan.brokers << " brokers, " << plan.producers
      << " producer(s), " << plan.sends.size() << " records (acks=all), replication factor 1"
      << (plan.flush_each_message ? ", log.flush.interval.messages=1" : "") << "\n";
  out << "  topics:";
  for (auto& t : plan.topics)
    out << " " << t.name << "/" << t.partitions;
  out << "\n  faults (ms after the workload starts):";
  if (plan.faults.empty())
    out << " none";
  out << "\n";
  for (auto& f : plan.faults)
    out << "    " << f.at_ms << " ms: broker " << f.broker + 1 << " " << to_string(f.kind) << "\n";
  out << "  sends: " << (plan.sends.empty() ? 0 : plan.sends.front().at_ms) << " .. " << (plan.sends.empty() ? 0 : plan.sends.back().at_ms)
      << " ms";
  return out.str();
}

} // namespace cafka::sim
