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
  std::set<int32_t> replication_factors, min_isrs;
  std::set<int16_t> acks;
  bool some_leader_episode = false, some_follower_cut = false, some_leader_machine = false;
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
      BOOST_TEST(t.replication_factor >= 1);
      BOOST_TEST(t.replication_factor <= std::min(3, plan.brokers));
      BOOST_TEST((t.min_insync_replicas == 1 || t.min_insync_replicas == 2));
      replication_factors.insert(t.replication_factor);
      min_isrs.insert(t.min_insync_replicas);
    }
    BOOST_REQUIRE_EQUAL(plan.acks.size(), size_t(plan.producers));
    for (auto a : plan.acks) {
      BOOST_TEST((a == 1 || a == -1));
      acks.insert(a);
    }
    BOOST_TEST((plan.replica_lag_time_max_ms == 4000 || plan.replica_lag_time_max_ms == 10000
                || plan.replica_lag_time_max_ms == 30000));
    std::map<int, int64_t> last_sequence; // per producer: sends in sequence order
    for (auto& s : plan.sends) {
      auto it = last_sequence.find(s.producer);
      BOOST_TEST((it == last_sequence.end() ? s.sequence == 0 : s.sequence == it->second + 1));
      last_sequence[s.producer] = s.sequence;
    }
    // At most one machine lost at a time: a machine crash starts machine_gap_ms after the
    // previous one's restart at the earliest.
    // A machine-crashed broker restarts after its session expired.
    int64_t machine_free = 0;
    std::map<int, int64_t> machine_crashed_at; // episode -> time
    for (auto& f : plan.faults) {
      if (f.kind == sim::fault_kind::crash_machine) {
        BOOST_TEST(f.at_ms >= machine_free, "seed " << seed << ": overlapping machine crashes");
        machine_crashed_at[f.episode] = f.at_ms;
        machine_free = INT64_MAX;
      } else if (f.kind == sim::fault_kind::restart && machine_crashed_at.count(f.episode)) {
        BOOST_TEST(f.at_ms - machine_crashed_at[f.episode] >= sim::machine_restart_min_ms);
        machine_free = f.at_ms + sim::machine_gap_ms;
      }
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
    // Leader episodes (broker -1) are tracked by episode, as if each had a broker of its own.
    std::vector<char> down(size_t(plan.brokers), 0);
    std::map<int, char> leader_down;
    std::map<std::string, int> open_links; // cut or delayed, by description
    for (auto& f : plan.faults) {
      kinds.insert(f.kind);
      some_faults = true;
      if (f.kind == sim::fault_kind::cut_member || f.kind == sim::fault_kind::heal_member) {
        BOOST_REQUIRE(f.member < int(plan.members.size()));
        open_links["member " + std::to_string(f.member)] += f.kind == sim::fault_kind::cut_member ? 1 : -1;
        continue;
      }
      if (f.broker == sim::operation_broker) { // an operation: a topic of the plan, a valid target
        auto t = std::find_if(plan.topics.begin(), plan.topics.end(),
                              [&](auto& x) { return x.name == f.target_topic; });
        BOOST_REQUIRE(t != plan.topics.end());
        if (f.kind == sim::fault_kind::add_partitions) {
          BOOST_TEST(f.partition_count > t->partitions);
        } else {
          BOOST_REQUIRE((f.kind == sim::fault_kind::reassign));
          BOOST_TEST((f.target_partition >= 0 && f.target_partition < t->partitions));
          BOOST_TEST(f.replicas.size() == size_t(t->replication_factor));
          std::set<int32_t> distinct(f.replicas.begin(), f.replicas.end());
          BOOST_TEST(distinct.size() == f.replicas.size());
          BOOST_TEST((*distinct.begin() >= 1 && *distinct.rbegin() <= plan.brokers));
        }
        continue;
      }
      if (f.broker < 0) {
        some_leader_episode = true;
        some_follower_cut = some_follower_cut || f.peer.kind == sim::scenario_peer::followers;
        some_leader_machine = some_leader_machine || f.kind == sim::fault_kind::crash_machine;
        auto t = std::find_if(plan.topics.begin(), plan.topics.end(),
                              [&](auto& x) { return x.name == f.target_topic; });
        BOOST_REQUIRE(t != plan.topics.end());
        BOOST_TEST(t->replication_factor > 1);
        BOOST_TEST((f.target_partition >= 0 && f.target_partition < t->partitions));
        auto& d = leader_down[f.episode];
        auto link = "leader episode " + std::to_string(f.episode) + " " + sim::to_string(f.peer) + " "
                    + std::to_string(int(f.direction));
        switch (f.kind) {
          case sim::fault_kind::crash_machine:
          case sim::fault_kind::crash_process:
          case sim::fault_kind::stop:
          case sim::fault_kind::isolate:
            BOOST_TEST(!d);
            d = 1;
            break;
          case sim::fault_kind::restart:
          case sim::fault_kind::rejoin:
            BOOST_TEST(d);
            d = 0;
            break;
          case sim::fault_kind::cut:
            BOOST_TEST((f.peer.kind == sim::scenario_peer::coordinator || f.peer.kind == sim::scenario_peer::followers));
            ++open_links["cut " + link];
            break;
          case sim::fault_kind::heal:
            --open_links["cut " + link];
            break;
          case sim::fault_kind::pause:
            BOOST_TEST(f.pause_ms > 0);
            break;
          default:
            BOOST_ERROR("seed " << seed << ": " << sim::to_string(f.kind) << " in a leader episode");
        }
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
        case sim::fault_kind::isolate:
        case sim::fault_kind::rejoin:
          BOOST_ERROR("seed " << seed << ": isolate outside a leader episode");
          break;
      }
      for (auto& [what, n] : open_links)
        BOOST_TEST((n == 0 || n == 1), "seed " << seed << ": " << what << " twice");
    }
    BOOST_TEST(std::none_of(down.begin(), down.end(), [](char b) { return b != 0; }), "seed " << seed << " ends with a broker down");
    for (auto& [episode, d] : leader_down)
      BOOST_TEST(!d, "seed " << seed << " ends with leader episode " << episode << " not undone");
    for (auto& [what, n] : open_links)
      BOOST_TEST(n == 0, "seed " << seed << " ends with " << what << " not undone");
  }
  BOOST_TEST(broker_counts.size() == 3u);
  BOOST_TEST(some_faults);
  BOOST_TEST(some_machine);
  BOOST_TEST(some_expiry);
  BOOST_TEST(some_flush);
  BOOST_TEST(some_groups);
  BOOST_TEST(kinds.size() == 17u, "fault kinds drawn: " << kinds.size());
  BOOST_TEST(replication_factors == (std::set<int32_t>{1, 2, 3}));
  BOOST_TEST(min_isrs == (std::set<int32_t>{1, 2}));
  BOOST_TEST(acks == (std::set<int16_t>{-1, 1}));
  BOOST_TEST(some_leader_episode);
  BOOST_TEST(some_follower_cut);
  BOOST_TEST(some_leader_machine);
  BOOST_TEST(sim::to_text(sim::make_plan(1)) != sim::to_text(sim::make_plan(2)));
  // With quick machine restarts, some restart comes before the session timeout.
  bool quick = false;
  sim::plan_options o;
  o.quick_machine_restarts = true;
  for (uint64_t seed = 1; seed <= 200 && !quick; ++seed) {
    auto plan = sim::make_plan(seed, o);
    std::map<int, int64_t> crashed;
    for (auto& f : plan.faults)
      if (f.kind == sim::fault_kind::crash_machine)
        crashed[f.episode] = f.at_ms;
      else if (f.kind == sim::fault_kind::restart && crashed.count(f.episode))
        quick = quick || f.at_ms - crashed[f.episode] < 6000;
  }
  BOOST_TEST(quick);
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
  BOOST_TEST(v.size() == 2u);
  BOOST_TEST(mentions(v, "t/0@2 \"c\": lost"));
  BOOST_TEST(mentions(v, "group g got t/0@2 \"c\", later lost")); // g had read it
  o.deliveries.clear();
  BOOST_TEST(sim::check_invariants(o).size() == 1u);
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

BOOST_AUTO_TEST_CASE(an_exposure_exempts_only_what_came_before_it) {
  auto o = clean();
  o.commits.clear();
  // The leader's machine crashed at 50 ms as the last ISR member: c (acked before) may be gone.
  o.exposures[{"t", 0}] = {50};
  o.lossy.insert({"t", 0});
  o.reads[{"t", 0}] = sim::partition_read{2, {{0, "k0", "a"}, {1, "k1", "b"}}};
  o.deliveries = {{"g", "t", 0, 2, "c", 40}};
  BOOST_TEST(sim::exposed_after(o, {"t", 0}, 50));
  BOOST_TEST(!sim::exposed_after(o, {"t", 0}, 51));
  BOOST_TEST(!sim::exposed_after(o, {"t", 1}, 0));
  o.acked[2].may_be_lost = true; // the runner marks it: acknowledged before the exposure
  BOOST_TEST(sim::check_invariants(o).empty());
  // A record delivered after the exposure must stay.
  o.deliveries = {{"g", "t", 0, 2, "c", 60}};
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "group g got t/0@2 \"c\", later lost: the log ends at 2"));
}

BOOST_AUTO_TEST_CASE(a_consumer_read_of_a_record_later_lost_is_reported) {
  auto o = clean();
  o.deliveries.push_back({"g", "t", 0, 3, "d", 10}); // beyond the final log end 3
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "group g got t/0@3 \"d\", later lost: the log ends at 3"));
}

BOOST_AUTO_TEST_CASE(records_of_one_producer_out_of_order_are_reported) {
  auto o = clean();
  for (size_t i = 0; i < o.acked.size(); ++i) {
    o.acked[i].producer = 0;
    o.acked[i].sequence = int64_t(i);
  }
  BOOST_TEST(sim::check_invariants(o).empty());
  std::swap(o.acked[1].sequence, o.acked[2].sequence); // sent c before b, yet c got the later offset
  auto v = sim::check_invariants(o);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "order: producer 0's send 2 \"b\" was acknowledged at t/0@1, not after its send 1 at @2"));
  o.acked[1].may_be_lost = true; // an unchecked record does not count
  BOOST_TEST(sim::check_invariants(o).empty());
}

namespace {

sim::replica_contents replica(int32_t broker, bool leader, std::vector<std::string> values, int32_t epoch = 0) {
  sim::replica_contents r;
  r.broker = broker;
  r.leader = leader;
  for (size_t i = 0; i < values.size(); ++i)
    r.records.push_back({int64_t(i), epoch, "k" + std::to_string(i), values[i]});
  r.log_end = int64_t(values.size());
  return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(replicas_that_differ_below_the_high_watermark_are_reported) {
  auto o = clean();
  o.replicas[{"t", 0}] = {replica(1, true, {"a", "b", "c"}), replica(2, false, {"a", "b", "c"}),
                          replica(3, false, {"a", "b"})}; // broker 3 behind: a prefix is fine
  BOOST_TEST(sim::check_invariants(o).empty());
  // Above the high watermark a follower may differ (here: the high watermark is 2).
  auto above = o;
  above.reads[{"t", 0}].log_end = 2;
  above.reads[{"t", 0}].records.pop_back();
  above.acked.pop_back();
  above.commits.clear();
  above.deliveries.clear();
  above.replicas[{"t", 0}][2] = replica(3, false, {"a", "b", "x"});
  BOOST_TEST(sim::check_invariants(above).empty());
  // Below it: reported.
  auto differs = o;
  differs.replicas[{"t", 0}][2] = replica(3, false, {"a", "x", "c"});
  auto v = sim::check_invariants(differs);
  BOOST_TEST(v.size() == 1u);
  BOOST_TEST(mentions(v, "t/0 on broker 3 differs from the leader below the high watermark 3: 1 (epoch 0, key "
                         "\"k1\", value \"x\") where the leader, broker 1, has 1 (epoch 0, key \"k1\", value \"b\")"));
  // Another leader epoch is a difference too.
  auto epoch = o;
  epoch.replicas[{"t", 0}][1] = replica(2, false, {"a", "b", "c"}, 1);
  BOOST_TEST(mentions(sim::check_invariants(epoch), "t/0 on broker 2 differs from the leader"));
  // Gaps in a replica, a decode error, and a leader unlike the read-back.
  auto gap = o;
  gap.replicas[{"t", 0}][1].records.erase(gap.replicas[{"t", 0}][1].records.begin() + 1);
  BOOST_TEST(mentions(sim::check_invariants(gap), "t/0 on broker 2: offsets not dense: offset 2 where 1 was next"));
  auto bad = o;
  bad.replicas[{"t", 0}][1].error = "bad crc";
  BOOST_TEST(mentions(sim::check_invariants(bad), "t/0 on broker 2: bad crc"));
  auto unread = o;
  unread.replicas[{"t", 0}][0] = replica(1, true, {"a", "z", "c"});
  unread.replicas[{"t", 0}][1] = replica(2, false, {"a", "z", "c"});
  unread.replicas[{"t", 0}][2] = replica(3, false, {"a", "z"});
  BOOST_TEST(mentions(sim::check_invariants(unread), "t/0: read back \"b\" at 1 but the leader's log holds 1"));
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
