// Replicated topics in the in-process cluster simulation (sim/cluster.hpp): the replica
// fetchers connect to their leaders through CAF's middleman over the simulated network
// (sim/network.hpp), as between processes.
//
// - a topic with replication factor 3 and min.insync.replicas=2 on four brokers: cafka's
//   producer with acks=all (-1) is acknowledged once the ISR has each record; the leader's
//   machine crashes (power loss: every unflushed byte of its logs is gone); another ISR
//   member leads with every acknowledged record, a subscription reads each at its offset,
//   acks=all goes on with two in-sync replicas; the crashed broker comes back, truncates
//   where its log diverged, catches up and rejoins the ISR; every replica then holds the
//   same records at the same offsets, with the same leader epochs.
// - a leader back before its session expired (a bounce) loses its leadership: nothing lost;
// - acks=all is refused below min.insync.replicas (NOT_ENOUGH_REPLICAS) once two of the three
//   replicas are down; acks=1 still goes.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/producer_actor.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"
#include "protocol/record_batch.hpp"
#include "sim/ask.hpp"
#include "sim/cluster.hpp"
#include "sim_fixtures.hpp"

using namespace cafka;
using namespace std::chrono_literals;
using client_test::dump;
using client_test::sim_partition_state;

namespace {

std::vector<int32_t> sorted(std::vector<int32_t> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Every running broker's view names a live leader for each partition of `topic`, and its
// ISR holds `isr_size` brokers.
bool led_with_isr(sim::cluster& c, const std::string& topic, int32_t partitions, size_t isr_size) {
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c.broker(i).up)
      continue;
    auto ls = client_test::sim_view_leaders(c, i, topic);
    if (ls.size() != size_t(partitions))
      return false;
    for (int32_t p = 0; p < partitions; ++p)
      if (ls[size_t(p)] < 0 || client_test::sim_view_isr(c, i, topic, p).size() != isr_size)
        return false;
  }
  return true;
}

// run_until, and the trace if it did not get there (taken afterwards: Boost evaluates a
// message argument before the condition).
#define REQUIRE_RUN(c, pred, max)                                                                                      \
  do {                                                                                                                 \
    bool reached_ = (c).run_until(pred, max);                                                                          \
    BOOST_REQUIRE_MESSAGE(reached_, dump(c));                                                                          \
  } while (false)

std::string describe(const client_test::replica_log& log) {
  std::string out = "[" + std::to_string(log.log_start) + ", " + std::to_string(log.log_end) + "):";
  for (auto& r : log.records)
    out += " " + std::to_string(r.offset) + "/e" + std::to_string(r.leader_epoch) + "=" + r.value.value_or("null");
  return out + (log.error.empty() ? "" : " error: " + log.error);
}

} // namespace

BOOST_AUTO_TEST_SUITE(sim_replication)

BOOST_AUTO_TEST_CASE(acks_all_records_survive_a_leader_machine_crash_and_the_replicas_converge) {
  sim::cluster c{sim::options{4, 11, {}}};
  REQUIRE_RUN(c, ([&] { return c.converged(); }), 30s);
  auto b0 = c.broker(0);
  auto created = sim::ask<topic_description>(c, *b0.system, b0.n->actor, 20s, create_topic_atom_v,
                                             topic_spec{"r", 2, 3, {{"min.insync.replicas", "2"}}});
  BOOST_REQUIRE_MESSAGE(created, "create: " << client_test::why(created) << "\n" << dump(c));
  REQUIRE_RUN(c, ([&] { return led_with_isr(c, "r", 2, 3); }), 30s);
  auto before = sim_partition_state(c, "r", 0);
  BOOST_REQUIRE(before);
  BOOST_REQUIRE_EQUAL(before->replicas.size(), size_t{3});

  auto& sys = c.client();
  client::producer_config pc;
  pc.bootstrap_servers = c.bootstrap();
  pc.acks = -1;
  pc.retries = 1000;
  pc.delivery_timeout = 120s;
  auto prod = client::spawn_producer(sys, pc);
  std::vector<std::pair<int64_t, std::string>> acked; // partition 0: offset, value
  auto send = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      auto value = "v" + std::to_string(i);
      auto md = client_test::sim_send(c, sys, prod, "r", 0, value, 130s);
      BOOST_REQUIRE_MESSAGE(md, value << ": " << client_test::why(md) << "\n" << dump(c));
      acked.emplace_back(md->offset, value);
    }
  };
  send(0, 10);
  for (int i = 0; i < 10; ++i)
    BOOST_TEST(acked[size_t(i)].first == i);

  // Acknowledged means every ISR member has it: the followers' logs hold all ten already.
  for (auto id : before->replicas) {
    auto log = client_test::sim_replica_log(c, size_t(id - 1), {"r", 0});
    BOOST_REQUIRE_MESSAGE(log, "broker " << id << " has no log of r-0");
    BOOST_TEST(log->log_end >= 10, "broker " << id << ": " << describe(*log));
  }

  // The leader's machine dies: nothing was fsynced (default flush policy), so its copy of
  // every record is gone; the others elect an ISR member once its session expired.
  auto old_leader = before->leader;
  c.note("test: machine crash of the leader, broker " + std::to_string(old_leader));
  c.crash(size_t(old_leader - 1), sim::crash_mode::machine);
  auto new_leader_elected = [&] {
    auto now = sim_partition_state(c, "r", 0);
    if (!c.converged() || !now || now->leader == old_leader || now->leader <= 0
        || std::count(now->isr.begin(), now->isr.end(), old_leader) > 0)
      return false;
    auto ls = client_test::sim_view_leaders(c, size_t(now->leader - 1), "r"); // it knows it leads
    return ls.size() == 2 && ls[0] == now->leader;
  };
  REQUIRE_RUN(c, new_leader_elected, 60s);
  auto after = sim_partition_state(c, "r", 0);
  BOOST_TEST(after->leader_epoch > before->leader_epoch);
  BOOST_TEST(std::count(after->isr.begin(), after->isr.end(), old_leader) == 0);

  // acks=all goes on with two in-sync replicas (min.insync.replicas=2).
  send(10, 15);
  for (int i = 10; i < 15; ++i)
    BOOST_TEST(acked[size_t(i)].first == i);

  // Every acknowledged record, read from the new leader at its offset.
  auto link = client_test::spawn_link_to_broker(c, sys, size_t(after->leader - 1)); // broker 1 is gone
  auto node = sim::ask<node_actor>(c, sys, link, 30s, caf::get_atom_v);
  BOOST_REQUIRE_MESSAGE(node, "node link: " << client_test::why(node) << "\n" << dump(c));
  auto log = std::make_shared<client_test::sink_log>();
  auto sink = client_test::spawn_sink(sys, log);
  client::fetch_options fo;
  fo.bootstrap = c.bootstrap();
  fo.retry_timeout = 120s;
  auto sub = client::subscribe(sys, *node, sink, {"r", 0}, client::start_position::earliest(), fo);
  auto all_read = [&] {
    std::lock_guard<std::mutex> guard{log->mtx};
    return log->by_partition[0].size() >= acked.size();
  };
  REQUIRE_RUN(c, all_read, 60s);
  c.advance(1s);
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->errors.empty());
    auto& got = log->by_partition[0];
    BOOST_REQUIRE_EQUAL(got.size(), acked.size());
    for (size_t i = 0; i < acked.size(); ++i) {
      BOOST_TEST(got[i].offset == acked[i].first);
      BOOST_TEST(got[i].value.value_or("") == acked[i].second);
    }
  }

  // The crashed broker returns empty-handed, follows, catches up and rejoins the ISR.
  c.restart(size_t(old_leader - 1));
  REQUIRE_RUN(c, ([&] { return c.converged() && led_with_isr(c, "r", 2, 3); }), 120s);
  c.advance(2s); // the last fetch round brings the high watermark to the followers too

  // Every replica holds the same records at the same offsets, with the same epochs.
  auto reference = client_test::sim_replica_log(c, size_t(after->leader - 1), {"r", 0});
  BOOST_REQUIRE(reference);
  BOOST_TEST(reference->log_end == int64_t(acked.size()));
  BOOST_TEST(reference->error.empty());
  for (auto id : before->replicas) {
    auto replica = client_test::sim_replica_log(c, size_t(id - 1), {"r", 0});
    BOOST_REQUIRE_MESSAGE(replica, "broker " << id << " has no log of r-0");
    BOOST_TEST(describe(*replica) == describe(*reference), "broker " << id);
  }
  BOOST_TEST(sorted(sim_partition_state(c, "r", 0)->isr) == sorted(before->replicas));

  client_test::exit_all(sub, prod, link, sink);
  c.advance(100ms);
}

// A leader's machine crashes and the broker is back before its session expired (restart()
// expires it first and registers again at once): the controller sees the same live ids with
// a new broker epoch, a bounce (cluster/broker_epochs.hpp). It must not keep leading at the
// same leader epoch with the tail it lost: leadership moves to an ISR member, and every
// acknowledged record is still there.
BOOST_AUTO_TEST_CASE(a_leader_back_before_its_session_expired_is_handled_as_failed_and_started) {
  sim::cluster c{sim::options{3, 13, {}}};
  REQUIRE_RUN(c, ([&] { return c.converged(); }), 30s);
  auto b0 = c.broker(0);
  auto created = sim::ask<topic_description>(c, *b0.system, b0.n->actor, 20s, create_topic_atom_v,
                                             topic_spec{"b", 3, 3, {{"min.insync.replicas", "2"}}});
  BOOST_REQUIRE_MESSAGE(created, "create: " << client_test::why(created) << "\n" << dump(c));
  REQUIRE_RUN(c, ([&] { return led_with_isr(c, "b", 3, 3); }), 30s);
  int32_t partition = -1; // one led by a broker that is not the controller
  for (int32_t p = 0; p < 3 && partition < 0; ++p)
    if (sim_partition_state(c, "b", p)->leader != c.controller())
      partition = p;
  BOOST_REQUIRE(partition >= 0);
  auto before = sim_partition_state(c, "b", partition);
  auto leader = size_t(before->leader - 1);
  auto produce = [&](size_t on, int i) {
    auto batch = protocol::build_batch({{std::string("k"), "v" + std::to_string(i), {}, 1000}});
    return sim::ask_until_served<produce_result>(c, on, produce_atom_v, topic_partition{"b", partition},
                                                 produce_request{-1, batch, 5000});
  };
  for (int i = 0; i < 10; ++i) {
    auto r = produce(leader, i);
    BOOST_REQUIRE_MESSAGE(r, client_test::why(r) << "\n" << dump(c));
    BOOST_TEST(r->base_offset == i);
  }
  c.note("test: machine crash of leader broker " + std::to_string(before->leader) + " and an immediate restart");
  c.crash(leader, sim::crash_mode::machine);
  c.restart(leader);
  auto moved = [&] {
    auto now = sim_partition_state(c, "b", partition);
    return c.converged() && now && now->leader > 0 && now->leader_epoch > before->leader_epoch;
  };
  REQUIRE_RUN(c, moved, 60s);
  REQUIRE_RUN(c, ([&] { return led_with_isr(c, "b", 3, 3); }), 120s);
  auto after = sim_partition_state(c, "b", partition);
  auto log = client_test::sim_replica_log(c, size_t(after->leader - 1), {"b", partition});
  BOOST_REQUIRE(log);
  BOOST_TEST(log->log_end >= 10, describe(*log));
  for (int i = 0; i < 10 && size_t(i) < log->records.size(); ++i)
    BOOST_TEST(log->records[size_t(i)].value.value_or("") == "v" + std::to_string(i));
}

BOOST_AUTO_TEST_CASE(acks_all_is_refused_below_min_insync_replicas) {
  sim::cluster c{sim::options{3, 12, {}}};
  REQUIRE_RUN(c, ([&] { return c.converged(); }), 30s);
  auto b0 = c.broker(0);
  auto created = sim::ask<topic_description>(c, *b0.system, b0.n->actor, 20s, create_topic_atom_v,
                                             topic_spec{"m", 1, 3, {{"min.insync.replicas", "2"}}});
  BOOST_REQUIRE_MESSAGE(created, "create: " << client_test::why(created) << "\n" << dump(c));
  REQUIRE_RUN(c, ([&] { return led_with_isr(c, "m", 1, 3); }), 30s);
  auto state = sim_partition_state(c, "m", 0);
  auto leader = size_t(state->leader - 1);
  auto produce = [&](int16_t acks) {
    auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
    return sim::ask_until_served<produce_result>(c, leader, produce_atom_v, topic_partition{"m", 0},
                                                 produce_request{acks, batch, 5000});
  };
  auto first = produce(-1);
  BOOST_REQUIRE_MESSAGE(first, client_test::why(first) << "\n" << dump(c));
  BOOST_TEST(first->base_offset == 0);
  // Both followers go: the controller takes them out of the ISR, which keeps the leader.
  for (auto id : state->replicas)
    if (id != state->leader)
      c.stop(size_t(id - 1));
  auto leader_alone = [&] { return client_test::sim_view_isr(c, leader, "m", 0) == std::vector<int32_t>{state->leader}; };
  REQUIRE_RUN(c, leader_alone, 30s);
  auto b = c.broker(leader);
  auto batch = protocol::build_batch({{std::string("k"), std::string("w"), {}, 1000}});
  auto refused = sim::ask<produce_result>(c, *b.system, b.n->actor, 10s, produce_atom_v, topic_partition{"m", 0},
                                          produce_request{-1, batch, 5000});
  BOOST_REQUIRE(!refused);
  BOOST_TEST((to_kafka_error(refused.error()) == kafka_error::not_enough_replicas), client_test::why(refused));
  auto one = produce(1); // acks=1 ignores min.insync.replicas
  BOOST_REQUIRE_MESSAGE(one, client_test::why(one));
  BOOST_TEST(one->base_offset == 1);
}

BOOST_AUTO_TEST_SUITE_END()
