// The pure parts of the randomized scenario runner (sim/scenario.hpp, sim/invariants.hpp),
// without a cluster: plans are reproducible and well-formed, and each invariant check
// reports what it must (and nothing on a clean run). The runner itself:
// sim_runner_test.cpp.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "sim/invariants.hpp"
#include "sim/scenario.hpp"

using namespace cafka;

namespace {

bool mentions(const std::vector<std::string>& lines, const std::string& what) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
}

// A clean run: partition t/0 holds a, b, c at 0..2, all acknowledged; one controller.
sim::run_observations clean() {
  sim::run_observations o;
  o.acked = {{"t", 0, 0, "k0", "a"}, {"t", 0, 1, "k1", "b"}, {"t", 0, 2, "k2", "c"}};
  o.reads[{"t", 0}] = sim::partition_read{3, {{0, "k0", "a"}, {1, "k1", "b"}, {2, "k2", "c"}}};
  o.reads[{"t", 1}] = sim::partition_read{0, {}};
  o.commits = {{"g", "t", 0, 3}, {"g", "t", 1, 0}};
  o.deliveries = {{"g", "t", 0, 0, "a"}, {"g", "t", 0, 1, "b"}, {"g", "t", 0, 1, "b"}, {"g", "t", 0, 2, "c"}};
  o.controllers = {{1, 1, "x"}, {1, 1, "y"}, {2, 3, "z"}};
  return o;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sim_scenario)

BOOST_AUTO_TEST_CASE(a_seed_gives_one_plan_within_the_bounds) {
  std::map<int, int> broker_counts;
  bool some_faults = false, some_machine = false, some_expiry = false, some_flush = false, some_groups = false;
  std::set<sim::fault_kind> kinds;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto plan = sim::make_plan(seed);
    BOOST_TEST(sim::to_text(plan) == sim::to_text(sim::make_plan(seed)));
    BOOST_TEST(plan.sends.size() == sim::make_plan(seed).sends.size());
    BOOST_TEST(plan.brokers >= 3);
    BOOST_TEST(plan.brokers <= 5);
    ++broker_counts[plan.brokers];
    BOOST_TEST(!plan.topics.empty());
    for (auto& t : plan.topics) {
      BOOST_TEST(t.partitions >= 1);
      BOOST_TEST(t.partitions <= 6);
    }
    BOOST_TEST(std::is_sorted(plan.sends.begin(), plan.sends.end(),
                              [](auto& a, auto& b) { return a.at_ms < b.at_ms; }));
    for (auto& s : plan.sends) {
      auto t = std::find_if(plan.topics.begin(), plan.topics.end(), [&](auto& x) { return x.name == s.topic; });
      BOOST_REQUIRE(t != plan.topics.end());
      BOOST_TEST(s.partition < t->partitions);
    }
    BOOST_TEST(plan.groups.size() <= 2u);
    BOOST_TEST(std::is_sorted(plan.members.begin(), plan.members.end(),
                              [](auto& a, auto& b) { return a.join_at_ms < b.join_at_ms; }));
    for (auto& m : plan.members) {
      BOOST_REQUIRE(m.group < int(plan.groups.size()));
      some_groups = true;
    }
    for (auto& g : plan.groups)
      BOOST_TEST(std::any_of(plan.topics.begin(), plan.topics.end(), [&](auto& t) { return t.name == g.topic; }));
    BOOST_TEST(std::is_sorted(plan.faults.begin(), plan.faults.end(),
                              [](auto& a, auto& b) { return a.at_ms < b.at_ms; }));
    // Every crash is followed by a restart of that broker before its next fault, every
    // cut by its heal, every delay by its removal; a broker is up when it is paused or
    // its session expires; peers are valid and never the broker itself.
    std::vector<char> down(size_t(plan.brokers), 0);
    std::map<std::string, int> open_links; // cut or delayed, by description
    for (auto& f : plan.faults) {
      kinds.insert(f.kind);
      some_faults = true;
      if (f.kind == sim::fault_kind::cut_member || f.kind == sim::fault_kind::heal_member) {
        BOOST_REQUIRE(f.member < int(plan.members.size()));
        open_links["member " + std::to_string(f.member)] += f.kind == sim::fault_kind::cut_member ? 1 : -1;
        continue;
      }
      BOOST_REQUIRE(f.broker >= 0);
      BOOST_REQUIRE(f.broker < plan.brokers);
      bool link_fault = f.kind == sim::fault_kind::cut || f.kind == sim::fault_kind::heal ||
                        f.kind == sim::fault_kind::delay || f.kind == sim::fault_kind::undelay ||
                        f.kind == sim::fault_kind::drop;
      if (link_fault && f.peer.kind == sim::scenario_peer::broker)
        BOOST_TEST((f.peer.index >= 0 && f.peer.index < plan.brokers && f.peer.index != f.broker));
      if (f.peer.kind == sim::scenario_peer::member)
        BOOST_TEST((f.peer.index >= 0 && f.peer.index < int(plan.members.size())));
      auto link = std::to_string(f.broker) + " " + sim::to_string(f.peer) + " " + std::to_string(int(f.direction));
      auto& d = down[size_t(f.broker)];
      switch (f.kind) {
        case sim::fault_kind::crash_machine:
          some_machine = true;
          some_flush = some_flush || plan.flush_each_message;
          [[fallthrough]];
        case sim::fault_kind::crash_process:
        case sim::fault_kind::stop:
          BOOST_TEST(!d);
          d = 1;
          break;
        case sim::fault_kind::restart:
          BOOST_TEST(d);
          d = 0;
          break;
        case sim::fault_kind::expire_session:
          some_expiry = true;
          BOOST_TEST(!d);
          break;
        case sim::fault_kind::pause:
          BOOST_TEST(!d);
          BOOST_TEST(f.pause_ms > 0);
          break;
        case sim::fault_kind::cut:
          ++open_links["cut " + link];
          break;
        case sim::fault_kind::heal:
          --open_links["cut " + link];
          break;
        case sim::fault_kind::delay:
          BOOST_TEST(f.delay_min_ms >= 0);
          BOOST_TEST(f.delay_min_ms <= f.delay_max_ms);
          BOOST_TEST(f.peer.kind != sim::scenario_peer::coordinator); // cut only
          ++open_links["delay " + link];
          break;
        case sim::fault_kind::undelay:
          --open_links["delay " + link];
          break;
        case sim::fault_kind::drop:
          BOOST_TEST(f.peer.kind != sim::scenario_peer::coordinator);
          break;
        case sim::fault_kind::cut_member:
        case sim::fault_kind::heal_member:
          break;
      }
      for (auto& [what, n] : open_links)
        BOOST_TEST((n == 0 || n == 1), "seed " << seed << ": " << what << " twice");
    }
    BOOST_TEST(std::none_of(down.begin(), down.end(), [](char b) { return b != 0; }), "seed " << seed << " ends with a broker down");
    for (auto& [what, n] : open_links)
      BOOST_TEST(n == 0, "seed " << seed << " ends with " << what << " not undone");
  }
  BOOST_TEST(broker_counts.size() == 3u);
  BOOST_TEST(some_faults);
  BOOST_TEST(some_machine);
  BOOST_TEST(some_expiry);
  BOOST_TEST(some_flush);
  BOOST_TEST(some_groups);
  BOOST_TEST(kinds.size() == 13u, "fault kinds drawn: " << kinds.size());
  BOOST_TEST(sim::to_text(sim::make_plan(1)) != sim::to_text(sim::make_plan(2)));
}

BOOST_AUTO_TEST_CASE(a_clean_run_has_no_violations) {
  auto v = sim::check_invariants(clean());
  BOOST_TEST(v.empty(), v.size() << " violation(s), first: " << (v.empty() ? "" : v[0]));
}

BOOST_AUTO_TEST_CASE(a_lost_acknowledged_record_is_reported) {
  auto o = clean();
  o.reads[{"t", 0}] = sim::partition_read{2, {{0, "k0", "a"}, {1, "k1", "b"}}};
  o.commits.clear();
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "t/0@2 \"c\": lost"));
}

BOOST_AUTO_TEST_CASE(a_record_that_may_be_lost_is_not_checked) {
  auto o = clean();
  o.reads[{"t", 0}] = sim::partition_read{3, {{0, "k0", "a"}, {1, "k1", "b"}, {2, "k9", "later"}}};
  o.deliveries.clear(); // the group checks have their own cases
  o.commits.clear();
  o.acked[2].may_be_lost = true;
  BOOST_TEST(sim::check_invariants(o).empty());
  o.acked[2].may_be_lost = false;
  BOOST_TEST(sim::check_invariants(o).size() == 1u);
}

BOOST_AUTO_TEST_CASE(another_record_at_an_acknowledged_offset_is_reported) {
  auto o = clean();
  o.reads[{"t", 0}].records[1].value = "x";
  o.deliveries.clear(); // the group checks have their own cases
  o.commits.clear();
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "t/0@1 \"b\": offset holds key \"k1\" value \"x\""));
}

BOOST_AUTO_TEST_CASE(gaps_reordering_and_a_short_read_are_reported) {
  auto gap = clean();
  gap.reads[{"t", 0}].records.erase(gap.reads[{"t", 0}].records.begin() + 1);
  BOOST_TEST(mentions(sim::check_invariants(gap), "read offset 2 where 1 was next"));
  BOOST_TEST(mentions(sim::check_invariants(gap), "t/0@1 \"b\": lost"));

  auto swapped = clean();
  std::swap(swapped.reads[{"t", 0}].records[0], swapped.reads[{"t", 0}].records[1]);
  BOOST_TEST(mentions(sim::check_invariants(swapped), "read offset 1 where 0 was next"));

  auto dup = clean();
  dup.reads[{"t", 0}].records.push_back({2, "k2", "c"});
  dup.reads[{"t", 0}].log_end = 3;
  BOOST_TEST(mentions(sim::check_invariants(dup), "read offset 2 where 3 was next"));

  auto shortread = clean();
  shortread.reads[{"t", 1}].log_end = 1;
  BOOST_TEST(mentions(sim::check_invariants(shortread), "t/1: read offsets 0..-1 but the log end offset is 1"));
}

BOOST_AUTO_TEST_CASE(a_partition_not_read_back_is_reported) {
  auto o = clean();
  o.acked.push_back({"u", 0, 0, std::nullopt, "z"});
  BOOST_TEST(mentions(sim::check_invariants(o), "u/0@0 \"z\": partition not read back"));
}

BOOST_AUTO_TEST_CASE(a_commit_beyond_the_log_end_is_reported) {
  auto o = clean();
  o.commits.push_back({"g", "t", 0, 4});
  o.commits.push_back({"h", "nope", 0, 0});
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 2u);
  BOOST_TEST(mentions(v, "group g committed t/0@4: beyond the log end offset 3"));
  BOOST_TEST(mentions(v, "group h committed nope/0@0: unknown partition"));
  o.lossy.insert({"t", 0}); // a machine crash may have cut the log back
  BOOST_TEST(sim::check_invariants(o).size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_offset_a_group_skipped_is_reported) {
  auto o = clean();
  o.deliveries.erase(o.deliveries.begin() + 1, o.deliveries.begin() + 3); // nobody got t/0@1
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "group g committed t/0@3 but no member got offset 1"));
  // Another group's deliveries do not count for g.
  o.deliveries.push_back({"h", "t", 0, 1, "b"});
  BOOST_TEST(mentions(sim::check_invariants(o), "group g committed t/0@3 but no member got offset 1"));
  // A partition a machine crash may have cut back is not checked.
  o.lossy.insert({"t", 0});
  BOOST_TEST(sim::check_invariants(o).empty());
}

BOOST_AUTO_TEST_CASE(a_delivery_unlike_the_log_is_reported) {
  auto o = clean();
  o.deliveries.push_back({"g", "t", 0, 2, "x"});
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "group g got t/0@2 \"x\" but the log holds \"c\""));
}

BOOST_AUTO_TEST_CASE(two_controllers_in_one_epoch_are_reported) {
  auto o = clean();
  o.controllers.push_back({1, 2, "broker 3's view"});
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "controller epoch 1 has 2 controllers: broker 1 (x) broker 2 (broker 3's view)"));
}

BOOST_AUTO_TEST_CASE(controllers_are_read_from_a_trace) {
  std::vector<std::string> trace = {
    "[   0.000s] broker 2 view 2: brokers [1,2,3] controller 1 (epoch 1) topics [t/3]",
    "[   0.000s] controller is now broker 1 (epoch 1)",
    "[   6.000s] broker 3 view 3: brokers [2,3] controller none topics [t/3]",
    "[   6.000s] controller is now broker 3 (epoch 2)",
    "[   6.000s] broker 1 crashed (process)",
  };
  auto s = sim::controllers_in_trace(trace);
  BOOST_REQUIRE_EQUAL(s.size(), 3u);
  BOOST_TEST(s[0].epoch == 1);
  BOOST_TEST(s[0].controller == 1);
  BOOST_TEST(s[1].controller == 1);
  BOOST_TEST(s[2].epoch == 2);
  BOOST_TEST(s[2].controller == 3);
  BOOST_TEST(s[2].where == trace[3]);
}

BOOST_AUTO_TEST_SUITE_END()
