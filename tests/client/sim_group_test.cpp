// Consumer groups in the cluster simulation (sim/cluster.hpp, docs/simulation.md): two
// native group members (client/group_consumer.hpp, the production actor, unchanged), each
// with a small recording consumer actor, in two client hosts of their own (add_client), so
// that one of them can be cut off alone.
//
// "A group rebalances when a member's node is cut off" (issue 7):
//  1. both members join; the 4 partitions are split 2/2; they read every record and commit;
//  2. member B's host is isolated (cut from every broker, both directions): after the session timeout
//     the coordinator drops B; A gets all 4 partitions (partitions_assigned) and continues
//     B's partitions from B's committed offsets (never re-reads them); B, whose requests
//     time out, revokes its partitions itself;
//  3. heal: B's held bytes flow, B learns it was removed (UNKNOWN_MEMBER_ID) and rejoins;
//     the group rebalances to 2/2 again at a newer generation; both read on;
//  4. every record was read exactly once, and the committed offsets reach the log end.
//
// Group timings are short (session 2 s, heartbeat 200 ms, request timeout 3 s) and the
// group starts at once (group.initial.rebalance.delay.ms=0); they are SIMULATED time. Every
// wait is a run_until with a bound; the test asserts outcomes, never times.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <caf/all.hpp>

#include "actors/node_actor.hpp"
#include "client/producer_actor.hpp"
#include "fixtures.hpp"
#include "sim/ask.hpp"
#include "sim/cluster.hpp"
#include "sim_fixtures.hpp"

using namespace cafka;
using namespace std::chrono_literals;
using client_test::dump;

namespace {

constexpr int32_t partitions = 4;
constexpr int per_round = 3; // records per partition and round
const std::string topic = "orders";
const std::string group = "billing";

// Both members hold a share (same generation, at least `min_generation`), together every
// partition once.
bool balanced(const client_test::sim_member& a, const client_test::sim_member& b, int32_t min_generation) {
  std::multiset<int32_t> seen;
  for (auto* m : {&a, &b}) {
    if (m->log->current.empty() || m->log->generation() < min_generation)
      return false;
    for (auto& tp : m->log->current)
      seen.insert(tp.partition);
  }
  if (a.log->generation() != b.log->generation() || seen.size() != size_t(partitions))
    return false;
  for (int32_t p = 0; p < partitions; ++p)
    if (seen.count(p) != 1)
      return false;
  return true;
}

std::string value_of(int round, int32_t p, int i) {
  return "r" + std::to_string(round) + "-p" + std::to_string(p) + "-" + std::to_string(i);
}

// per_round records to every partition, each acknowledged at the expected offset.
std::set<std::string> produce_round(sim::cluster& c, const client::producer_actor& prod, int round) {
  std::set<std::string> values;
  for (int32_t p = 0; p < partitions; ++p)
    for (int i = 0; i < per_round; ++i) {
      auto v = value_of(round, p, i);
      auto md = client_test::sim_send(c, c.client(), prod, topic, p, v, 130s);
      BOOST_REQUIRE_MESSAGE(md, v << ": " << client_test::why(md) << "\n" << dump(c));
      BOOST_REQUIRE_EQUAL(md->offset, int64_t{round * per_round + i});
      values.insert(v);
    }
  return values;
}

// Waits (bounded: 100 polls, 200 ms of simulated time apart) until every partition's
// committed offset is `end`.
bool committed_reaches(sim::cluster& c, int64_t end, std::map<int32_t, int64_t>& last) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    last = client_test::sim_committed(c, group, topic);
    bool all = last.size() == size_t(partitions);
    for (auto& [p, off] : last)
      all = all && off == end;
    if (all)
      return true;
    c.advance(200ms);
  }
  return false;
}

std::string show(const std::map<int32_t, int64_t>& offsets) {
  std::string out;
  for (auto& [p, off] : offsets)
    out += " p" + std::to_string(p) + "=" + std::to_string(off);
  return out;
}

void tweak(config::server_config& cfg) {
  cfg.group_initial_rebalance_delay_ms = 0;
  cfg.group_min_session_timeout_ms = 500;
  cfg.offsets_topic_num_partitions = 3;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sim_group)

BOOST_AUTO_TEST_CASE(add_client_gives_hosts_that_can_be_cut_alone) {
  sim::cluster c{sim::options{3, 1, {}}};
  auto second = c.add_client();
  auto third = c.add_client();
  BOOST_TEST(second == c.size() + 1);
  BOOST_TEST(third == c.size() + 2);
  BOOST_TEST(&c.client(sim::cluster::client_host) == &c.client());
  BOOST_TEST(&c.client(second) != &c.client());
  BOOST_TEST(&c.client(second) != &c.client(third));
  BOOST_CHECK_THROW(c.client(c.size()), std::out_of_range); // the first client's slot: use client_host
  BOOST_CHECK_THROW(c.client(third + 1), std::out_of_range);
  BOOST_CHECK_THROW(c.cut(third + 1, 0), std::out_of_range);
  c.cut(second, 0);
  c.heal(second, 0);
  BOOST_TEST(std::any_of(c.trace().begin(), c.trace().end(),
                         [](const std::string& l) { return l.find("link client 2 -> broker 1 cut") != std::string::npos; }));
}

BOOST_AUTO_TEST_CASE(a_group_rebalances_when_a_members_node_is_cut_off) {
  sim::cluster c{sim::options{3, 21, tweak}};
  BOOST_REQUIRE_MESSAGE(c.run_until([&] { return c.converged(); }, 30s), dump(c));
  {
    auto b = c.broker(0);
    auto created = sim::ask<topic_description>(c, *b.system, b.n->actor, 20s, create_topic_atom_v,
                                               topic_spec{topic, partitions, 1, {}});
    BOOST_REQUIRE_MESSAGE(created, "create: " << client_test::why(created) << "\n" << dump(c));
  }
  client::producer_config pc;
  pc.bootstrap_servers = c.bootstrap();
  pc.delivery_timeout = 120s;
  auto prod = client::spawn_producer(c.client(), pc);

  // 1. Two members, one per client host; 2/2; every record read and committed.
  auto a = client_test::start_sim_member(c, sim::cluster::client_host, group, topic);
  auto b = client_test::start_sim_member(c, c.add_client(), group, topic);
  BOOST_REQUIRE_MESSAGE(c.run_until([&] { return balanced(a, b, 0); }, 60s), dump(c));
  auto first_generation = a.log->generation();
  c.note("test: members balanced at generation " + std::to_string(first_generation));
  std::set<std::string> produced = produce_round(c, prod, 0);
  BOOST_REQUIRE_MESSAGE(c.run_until([&] { return a.log->records.size() + b.log->records.size() >= produced.size(); },
                                    60s),
                        dump(c));
  std::map<int32_t, int64_t> offsets;
  BOOST_REQUIRE_MESSAGE(committed_reaches(c, per_round, offsets), "committed:" << show(offsets) << "\n" << dump(c));

  // 2. B's host is cut off from every broker, both directions.
  auto b_partitions = b.log->current;
  BOOST_REQUIRE_EQUAL(b_partitions.size(), size_t(partitions / 2));
  c.note("test: cutting client 2 off");
  c.isolate(b.host);
  BOOST_REQUIRE_MESSAGE(c.run_until(
                          [&] {
                            return a.log->current.size() == size_t(partitions)
                                   && a.log->generation() > first_generation && b.log->current.empty();
                          },
                          60s),
                        "A holds " << a.log->current.size() << ", B holds " << b.log->current.size() << "\n"
                                   << dump(c));
  auto takeover_generation = a.log->generation();
  c.note("test: A took over at generation " + std::to_string(takeover_generation));
  BOOST_TEST(b.log->revocations >= 1);
  // A continues B's partitions from B's commits: it never reads their first round again.
  auto round1 = produce_round(c, prod, 1);
  produced.insert(round1.begin(), round1.end());
  BOOST_REQUIRE_MESSAGE(c.run_until(
                          [&] {
                            for (auto& tp : b_partitions)
                              if (a.log->offsets(tp.partition).size() < size_t(per_round))
                                return false;
                            return a.log->records.size() + b.log->records.size() >= produced.size();
                          },
                          60s),
                        dump(c));
  for (auto& tp : b_partitions) {
    std::vector<int64_t> expected;
    for (int i = 0; i < per_round; ++i)
      expected.push_back(per_round + i);
    BOOST_TEST(a.log->offsets(tp.partition) == expected, "A read partition " << tp.partition << " from its commit");
  }
  BOOST_REQUIRE_MESSAGE(committed_reaches(c, 2 * per_round, offsets), "committed:" << show(offsets) << "\n"
                                                                                   << dump(c));

  // 3. Heal: B rejoins (it was removed) and the group rebalances again.
  c.note("test: healing client 2");
  c.rejoin(b.host);
  BOOST_REQUIRE_MESSAGE(c.run_until([&] { return balanced(a, b, takeover_generation + 1); }, 60s),
                        "A holds " << a.log->current.size() << " at " << a.log->generation() << ", B holds "
                                   << b.log->current.size() << " at " << b.log->generation() << "\n"
                                   << dump(c));
  c.note("test: balanced again at generation " + std::to_string(a.log->generation()));
  auto round2 = produce_round(c, prod, 2);
  produced.insert(round2.begin(), round2.end());
  BOOST_REQUIRE_MESSAGE(c.run_until([&] { return a.log->records.size() + b.log->records.size() >= produced.size(); },
                                    60s),
                        dump(c));
  BOOST_REQUIRE_MESSAGE(committed_reaches(c, 3 * per_round, offsets), "committed:" << show(offsets) << "\n"
                                                                                   << dump(c));
  BOOST_TEST(!b.log->records.empty());

  // 4. Every record read exactly once (commits were complete before each change of hands).
  std::multiset<std::string> read;
  for (auto* m : {&a, &b})
    for (auto& r : m->log->records)
      read.insert(r.value.value_or(""));
  BOOST_TEST(read.size() == produced.size());
  for (auto& v : produced)
    BOOST_TEST(read.count(v) == 1u, v << " read " << read.count(v) << " times");
  BOOST_TEST(a.log->errors.empty());
  BOOST_TEST(b.log->errors.empty());

  a.stop();
  b.stop();
  caf::anon_send_exit(prod, caf::exit_reason::user_shutdown);
  c.advance(100ms);
}

BOOST_AUTO_TEST_SUITE_END()
