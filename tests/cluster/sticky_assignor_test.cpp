// The sticky assignor: Kafka's StickyAssignor javadoc examples, balance, stickiness when
// members leave and join, ownership conflicts, determinism; and the cooperative withholding.
#include "cluster/sticky_assignor.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include <boost/test/unit_test.hpp>

#include "assignor_fixtures.hpp"

using namespace cafka::cluster;
using namespace cafka::cluster::testing;

namespace {

const std::vector<std::string> t0_t3{"t0", "t1", "t2", "t3"};

/// A fixed pseudo-random sequence (no clock, no seed from outside), for varied shapes.
struct lcg {
  uint64_t state;
  uint32_t next(uint32_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33) % bound;
  }
};

std::size_t total(const partition_counts& counts) {
  std::size_t n = 0;
  for (auto& [topic, count] : counts)
    n += static_cast<std::size_t>(std::max(count, 0));
  return n;
}

/// Every partition of a subscribed, existing topic is assigned once, to a subscriber.
void check_complete(const std::vector<assignor_member>& ms, const partition_counts& counts,
                    const assignment_plan& plan) {
  std::set<topic_partition> seen;
  std::set<std::string> subscribed;
  for (auto& m : ms) {
    subscribed.insert(m.topics.begin(), m.topics.end());
    for (auto& tp : plan.at(m.member_id)) {
      BOOST_TEST(seen.insert(tp).second);
      BOOST_TEST((std::find(m.topics.begin(), m.topics.end(), tp.topic) != m.topics.end()));
    }
  }
  std::size_t expected = 0;
  for (auto& [topic, count] : counts)
    if (subscribed.count(topic) && count > 0)
      expected += static_cast<std::size_t>(count);
  BOOST_TEST(seen.size() == expected);
}

std::pair<std::size_t, std::size_t> min_max(const assignment_plan& plan) {
  std::size_t lo = SIZE_MAX, hi = 0;
  for (auto& [id, partitions] : plan) {
    lo = std::min(lo, partitions.size());
    hi = std::max(hi, partitions.size());
  }
  return {lo, hi};
}

/// The members again, each owning what the plan gave it, in `generation`.
std::vector<assignor_member> owning(std::vector<assignor_member> ms, const assignment_plan& plan,
                                    int32_t generation) {
  for (auto& m : ms) {
    m.owned_partitions = plan.at(m.member_id);
    m.generation = generation;
  }
  return ms;
}

/// How many partitions stayed with the member that owned them.
std::size_t kept(const std::vector<assignor_member>& before, const assignment_plan& after) {
  std::size_t n = 0;
  for (auto& m : before) {
    auto it = after.find(m.member_id);
    if (it == after.end())
      continue;
    for (auto& tp : m.owned_partitions)
      n += std::count(it->second.begin(), it->second.end(), tp);
  }
  return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sticky_assignor)

BOOST_AUTO_TEST_CASE(javadoc_example_1_member_leaves_and_nothing_else_moves) {
  partition_counts counts{{"t0", 2}, {"t1", 2}, {"t2", 2}, {"t3", 2}};
  std::vector<assignor_member> ms{member("C0", t0_t3), member("C1", t0_t3), member("C2", t0_t3)};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "C0 [t0p0 t1p1 t3p0] C1 [t0p1 t2p0 t3p1] C2 [t1p0 t2p1]");
  auto next = owning(ms, plan, 1);
  next.erase(next.begin() + 1); // C1 leaves
  BOOST_TEST(show(assign_sticky(next, counts)) ==
             "C0 [t0p0 t1p1 t2p0 t3p0] C2 [t0p1 t1p0 t2p1 t3p1]");
}

BOOST_AUTO_TEST_CASE(javadoc_example_2_different_subscriptions) {
  partition_counts counts{{"t0", 1}, {"t1", 2}, {"t2", 3}};
  std::vector<assignor_member> ms{member("C0", {"t0"}), member("C1", {"t0", "t1"}),
                                  member("C2", {"t0", "t1", "t2"})};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "C0 [t0p0] C1 [t1p0 t1p1] C2 [t2p0 t2p1 t2p2]");
  auto next = owning(ms, plan, 1);
  next.erase(next.begin()); // C0 leaves
  BOOST_TEST(show(assign_sticky(next, counts)) == "C1 [t0p0 t1p0 t1p1] C2 [t2p0 t2p1 t2p2]");
}

BOOST_AUTO_TEST_CASE(fresh_group_is_balanced) {
  partition_counts counts{{"a", 5}, {"b", 3}};
  std::vector<assignor_member> ms{member("m1", {"a", "b"}), member("m2", {"b", "a"}),
                                  member("m3", {"a", "b"})};
  auto plan = assign_sticky(ms, counts);
  check_complete(ms, counts, plan);
  BOOST_TEST(min_max(plan).first == 2u);
  BOOST_TEST(min_max(plan).second == 3u);
}

BOOST_AUTO_TEST_CASE(equal_subscriptions_are_balanced_whatever_was_owned) {
  lcg rng{42};
  for (int round = 0; round < 300; ++round) {
    partition_counts counts;
    auto topics = 1 + rng.next(4);
    std::vector<std::string> names;
    for (uint32_t t = 0; t < topics; ++t) {
      names.push_back("t" + std::to_string(t));
      counts[names.back()] = static_cast<int32_t>(rng.next(12));
    }
    std::vector<assignor_member> ms;
    auto members = 1 + rng.next(7);
    for (uint32_t i = 0; i < members; ++i)
      ms.push_back(member("m" + std::to_string(i), names));
    // Arbitrary, overlapping prior ownership of any generation, including stale partitions.
    for (auto& m : ms) {
      m.generation = static_cast<int32_t>(rng.next(3)) - 1;
      for (auto& [topic, count] : counts)
        for (int32_t p = 0; p < count + 1; ++p)
          if (rng.next(3) == 0)
            m.owned_partitions.push_back({topic, p});
    }
    auto plan = assign_sticky(ms, counts);
    check_complete(ms, counts, plan);
    auto [lo, hi] = min_max(plan);
    BOOST_TEST(hi - lo <= 1u, "round " << round << ": " << show(plan));
    BOOST_TEST(hi <= (total(counts) + members - 1) / members);
  }
}

BOOST_AUTO_TEST_CASE(no_partition_moves_in_a_balanced_group) {
  partition_counts counts{{"t0", 7}, {"t1", 4}};
  std::vector<assignor_member> ms{member("a", {"t0", "t1"}, "t0p6 t1p0 t1p3 t0p1"),
                                  member("b", {"t0", "t1"}, "t0p0 t0p2 t0p3 t0p4", 5),
                                  member("c", {"t0", "t1"}, "t0p5 t1p1 t1p2", 5)};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(kept(ms, plan) == 11u);
}

BOOST_AUTO_TEST_CASE(a_leaving_member_moves_only_its_own_partitions) {
  partition_counts counts{{"t", 12}};
  std::vector<assignor_member> ms;
  for (auto id : {"a", "b", "c", "d"})
    ms.push_back(member(id, {"t"}));
  auto before = owning(ms, assign_sticky(ms, counts), 3);
  auto leaving = before[2].owned_partitions;
  before.erase(before.begin() + 2);
  auto plan = assign_sticky(before, counts);
  check_complete(before, counts, plan);
  BOOST_TEST(kept(before, plan) == 9u); // everything the others had
  BOOST_TEST(min_max(plan).first == 4u);
  BOOST_TEST(min_max(plan).second == 4u);
  BOOST_TEST(plan.count("c") == 0u);
  for (auto& tp : leaving)
    BOOST_TEST((std::count_if(plan.begin(), plan.end(), [&](auto& e) {
                  return std::count(e.second.begin(), e.second.end(), tp) == 1;
                }) == 1));
}

BOOST_AUTO_TEST_CASE(a_joining_member_takes_only_what_balance_needs) {
  partition_counts counts{{"t0", 5}, {"t1", 4}};
  std::vector<assignor_member> ms{member("a", {"t0", "t1"}), member("b", {"t0", "t1"})};
  auto before = owning(ms, assign_sticky(ms, counts), 1);
  before.push_back(member("c", {"t0", "t1"}));
  auto plan = assign_sticky(before, counts);
  check_complete(before, counts, plan);
  BOOST_TEST(plan.at("c").size() == 3u);
  BOOST_TEST(kept(before, plan) == 6u); // 9 partitions, 3 move: the fewest possible
  // The ones given up are the last ones in (partition, topic) order.
  BOOST_TEST(show(plan) == "a [t0p0 t0p2 t1p1] b [t0p1 t1p0 t1p2] c [t0p3 t0p4 t1p3]");
}

BOOST_AUTO_TEST_CASE(a_partition_taken_by_a_newer_claim_goes_back_first) {
  // b held tp1 in generation 1; a claims all four in generation 2 and must give two to b:
  // tp1 goes back to b, then a's last one.
  partition_counts counts{{"t", 4}};
  std::vector<assignor_member> ms{member("a", {"t"}, "tp0 tp1 tp2 tp3", 2),
                                  member("b", {"t"}, "tp1", 1)};
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp0 tp2] b [tp1 tp3]");
}

BOOST_AUTO_TEST_CASE(a_partition_just_assigned_moves_before_an_owned_one) {
  // m1 {a, b} owns ap2 and is given ap1, bp3 and bp4 on the way; balance then takes one of
  // its a partitions for m2 {a}: the new ap1, so that m1 keeps what it owned.
  partition_counts counts{{"a", 3}, {"b", 5}};
  std::vector<assignor_member> ms{member("m1", {"a", "b"}, "ap2", 1), member("m2", {"a"}),
                                  member("m3", {"b"}, "bp0 bp1 bp2", 1)};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "m1 [ap2 bp3 bp4] m2 [ap0 ap1] m3 [bp0 bp1 bp2]");
  BOOST_TEST(kept(ms, plan) == 4u);
}

BOOST_AUTO_TEST_CASE(members_with_different_subscriptions_are_balanced_through_a_chain) {
  // a {x, y} holds 3, b {y, z} holds 2, c {z} holds 1: no single move helps, a chain does
  // (a gives y to b, b gives z to c). Kafka's one-step moves would stop at 3/2/1.
  partition_counts counts{{"x", 2}, {"y", 2}, {"z", 2}};
  std::vector<assignor_member> ms{member("a", {"x", "y"}, "xp0 xp1 yp0", 1),
                                  member("b", {"y", "z"}, "yp1 zp0", 1),
                                  member("c", {"z"}, "zp1", 1)};
  auto plan = assign_sticky(ms, counts);
  check_complete(ms, counts, plan);
  BOOST_TEST(show(plan) == "a [xp0 xp1] b [yp0 yp1] c [zp0 zp1]");
}

BOOST_AUTO_TEST_CASE(unequal_subscriptions_balance_what_can_be_balanced) {
  // Only b can take t1, so it keeps all of it; t0 goes to a.
  partition_counts counts{{"t0", 2}, {"t1", 6}};
  std::vector<assignor_member> ms{member("a", {"t0"}), member("b", {"t0", "t1"})};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "a [t0p0 t0p1] b [t1p0 t1p1 t1p2 t1p3 t1p4 t1p5]");
}

BOOST_AUTO_TEST_CASE(newest_generation_wins_a_claim) {
  partition_counts counts{{"t", 4}};
  // tp1 is claimed by a (generation 2) and b (generation 1): a keeps it, tp3 goes to b.
  std::vector<assignor_member> ms{member("a", {"t"}, "tp0 tp1", 2),
                                  member("b", {"t"}, "tp1 tp2", 1)};
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp0 tp1] b [tp2 tp3]");
  ms[0].generation = 0; // now b's claim is the newer one
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp0 tp3] b [tp1 tp2]");
}

BOOST_AUTO_TEST_CASE(claims_tied_at_the_newest_generation_cancel_out) {
  partition_counts counts{{"t", 3}};
  // tp1 is claimed by a and b in generation 2: neither keeps it, and c, with nothing, gets
  // it. Had a (b) kept it, balance would have given c a's tp2 (b's tp2) instead.
  std::vector<assignor_member> ms{member("a", {"t"}, "tp1 tp2", 2),
                                  member("b", {"t"}, "tp0 tp1", 2), member("c", {"t"})};
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp2] b [tp0] c [tp1]");
  ms[0].owned_partitions = tps("tp0 tp1");
  ms[1].owned_partitions = tps("tp1 tp2");
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp0] b [tp2] c [tp1]");
  // Between members of equal count, a cancelled partition goes to one that claimed it.
  std::vector<assignor_member> three{member("a", {"t"}), member("b", {"t"}, "tp0", 2),
                                     member("c", {"t"}, "tp0", 2)};
  BOOST_TEST(show(assign_sticky(three, {{"t", 1}})) == "a [] b [tp0] c []");
}

BOOST_AUTO_TEST_CASE(an_unknown_generation_loses_to_a_known_one) {
  partition_counts counts{{"t", 3}};
  std::vector<assignor_member> ms{member("a", {"t"}, "tp0 tp1"),
                                  member("b", {"t"}, "tp1 tp2", 0)};
  BOOST_TEST(show(assign_sticky(ms, counts)) == "a [tp0] b [tp1 tp2]");
}

BOOST_AUTO_TEST_CASE(owned_partitions_that_are_no_longer_assignable_are_dropped) {
  // a no longer subscribes to t1; t2 is gone; t0 shrank to 2 partitions.
  partition_counts counts{{"t0", 2}, {"t1", 2}};
  std::vector<assignor_member> ms{member("a", {"t0"}, "t0p0 t0p5 t1p0 t1p1 t2p0", 4),
                                  member("b", {"t0", "t1"}, "t0p1", 4)};
  auto plan = assign_sticky(ms, counts);
  check_complete(ms, counts, plan);
  // b alone takes t1, so a gets both of t0.
  BOOST_TEST(show(plan) == "a [t0p0 t0p1] b [t1p0 t1p1]");
}

BOOST_AUTO_TEST_CASE(members_without_existing_topics_get_nothing) {
  partition_counts counts{{"t0", 3}, {"empty", 0}};
  std::vector<assignor_member> ms{member("a", {"gone"}), member("b", {"t0", "gone"}),
                                  member("c", {}), member("d", {"empty"}, "emptyp0")};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "a [] b [t0p0 t0p1 t0p2] c [] d []");
  BOOST_TEST(assign_sticky({}, counts).empty());
  BOOST_TEST(show(assign_sticky(ms, {})) == "a [] b [] c [] d []");
}

BOOST_AUTO_TEST_CASE(plan_does_not_depend_on_input_order) {
  partition_counts counts{{"t0", 5}, {"t1", 3}, {"t2", 4}};
  std::vector<assignor_member> ms{member("m0", {"t0", "t1"}, "t0p0 t1p2 t2p1", 3),
                                  member("m1", {"t2", "t1", "t0"}, "t0p0 t0p1", 2),
                                  member("m2", {"t2"}, "t2p0 t2p1 t2p2", 3),
                                  member("m3", {"t1", "t0"}, "t1p0", 3)};
  auto expected = show(assign_sticky(ms, counts));
  auto by_id = [](auto& a, auto& b) { return a.member_id < b.member_id; };
  lcg rng{7};
  do {
    auto shuffled = ms;
    for (auto& m : shuffled) {
      std::reverse(m.topics.begin(), m.topics.end());
      for (std::size_t i = m.owned_partitions.size(); i > 1; --i)
        std::swap(m.owned_partitions[i - 1],
                  m.owned_partitions[rng.next(static_cast<uint32_t>(i))]);
    }
    BOOST_TEST(show(assign_sticky(shuffled, counts)) == expected);
  } while (std::next_permutation(ms.begin(), ms.end(), by_id));
}

BOOST_AUTO_TEST_CASE(repeated_rebalances_settle) {
  // Feeding a plan back in as ownership gives the same plan.
  partition_counts counts{{"t0", 9}, {"t1", 5}, {"t2", 2}};
  std::vector<assignor_member> ms{member("a", {"t0", "t1"}), member("b", {"t1", "t2"}),
                                  member("c", {"t0", "t2"}), member("d", {"t0"})};
  auto plan = assign_sticky(ms, counts);
  for (int32_t generation = 1; generation < 4; ++generation) {
    auto again = assign_sticky(owning(ms, plan, generation), counts);
    BOOST_TEST(show(again) == show(plan));
  }
}

// -- cooperative ------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(cooperative_withholds_partitions_another_member_still_owns) {
  partition_counts counts{{"t", 6}};
  std::vector<assignor_member> ms{member("a", {"t"}, "tp0 tp1 tp2 tp3 tp4 tp5", 1),
                                  member("b", {"t"})};
  auto plan = assign_sticky(ms, counts);
  BOOST_TEST(show(plan) == "a [tp0 tp1 tp2] b [tp3 tp4 tp5]");
  BOOST_TEST(show(withhold_partitions_changing_owner(plan, ms)) == "a [tp0 tp1 tp2] b []");
  // a has revoked tp3..tp5 and rejoined: the next round hands them to b.
  ms[0].owned_partitions = tps("tp0 tp1 tp2");
  plan = withhold_partitions_changing_owner(assign_sticky(ms, counts), ms);
  BOOST_TEST(show(plan) == "a [tp0 tp1 tp2] b [tp3 tp4 tp5]");
}

BOOST_AUTO_TEST_CASE(cooperative_keeps_a_partition_for_the_newest_claim_only) {
  std::vector<assignor_member> ms{member("a", {"t"}, "tp0 tp1", 2), member("b", {"t"}, "tp0", 1),
                                  member("c", {"t"}, "tp1", 2)};
  assignment_plan plan{{"a", tps("tp0 tp1")}, {"b", {}}, {"c", {}}};
  // tp0: a's claim is newer than b's; tp1: c claims it in the same generation.
  BOOST_TEST(show(withhold_partitions_changing_owner(plan, ms)) == "a [tp0] b [] c []");
}

BOOST_AUTO_TEST_SUITE_END()
