// cafka's client routing by itself in a cluster: three nodes in cluster mode in one
// process (each in its own actor system, as separate processes would be, sharing one
// embedded_store as their coordinator), and the client in a fourth actor system that is
// given node 1's address only. A 6-partition topic has leaders on all three nodes: the
// producer writes to every partition and one subscription per partition reads everything
// back, each reaching the leaders it needs by itself (client/cluster_link.hpp). Then
// node 2 is stopped (its partitions become LEADER_NOT_AVAILABLE), records are sent
// meanwhile, and node 2 is restarted with the same broker id and log dir (on another
// caf.port): every acknowledged record is read back exactly once, in order.
//
// Waits are bounded polls or bounded condition waits; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <thread>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/errors.hpp"
#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "client/connect.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster_brokers.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

namespace {

std::string value_of(int32_t partition, int i) {
  return "p" + std::to_string(partition) + "-" + std::to_string(i);
}

constexpr int32_t partitions = 6;

// Sends records [from, to) to every partition; returns their acknowledgements by value.
std::map<std::string, caf::expected<record_metadata>> send_round(producer& p, const std::string& topic,
                                                                 int from, int to) {
  std::vector<std::pair<std::string, producer::result_future>> futs;
  for (int i = from; i < to; ++i)
    for (int32_t part = 0; part < partitions; ++part)
      futs.emplace_back(value_of(part, i),
                        p.send(producer_record{topic, std::nullopt, value_of(part, i), {}, std::nullopt, part}));
  std::map<std::string, caf::expected<record_metadata>> out;
  for (auto& [v, f] : futs) {
    if (f.wait_for(120s) != std::future_status::ready) {
      out.emplace(v, caf::make_error(kafka_error::request_timed_out, "no answer in the test"));
      continue;
    }
    out.emplace(v, f.get());
  }
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_routing)

BOOST_AUTO_TEST_CASE(the_client_routes_to_every_leader_and_recovers_when_one_restarts) {
  auto store = std::make_shared<cluster::embedded_store>();
  temp_dir dirs[3];
  std::unique_ptr<broker> nodes[3];
  for (int i = 0; i < 3; ++i)
    nodes[i] = std::make_unique<broker>(store, i + 1, dirs[i].path);
  BOOST_REQUIRE(eventually([&] {
    auto md = nodes[0]->metadata({}, true);
    return md && md->brokers.size() == 3 && md->controller_id >= 0;
  }));

  client_system cs;
  auto& sys = cs.sys();
  auto bootstrap = "127.0.0.1:" + std::to_string(nodes[0]->port);
  auto node1 = connect(sys, "127.0.0.1", nodes[0]->port, 10s);
  BOOST_REQUIRE_MESSAGE(node1, "connect: " << why(node1));
  const std::string topic = "routed";
  create_topic(sys, *node1, topic, partitions);
  std::vector<int32_t> placed;
  BOOST_REQUIRE(eventually([&] {
    placed = leaders(*nodes[0], topic);
    return placed.size() == partitions && std::count(placed.begin(), placed.end(), -1) == 0;
  }));
  for (int32_t id = 1; id <= 3; ++id) // leaders on all three nodes
    BOOST_TEST(std::count(placed.begin(), placed.end(), id) >= 1);

  producer_config pc;
  pc.bootstrap_servers = bootstrap;
  pc.delivery_timeout = 120s;
  producer prod{sys, pc};

  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  std::vector<subscription> subs;
  fetch_options fo;
  fo.bootstrap = bootstrap;
  fo.retry_timeout = 120s;
  for (int32_t part = 0; part < partitions; ++part)
    subs.push_back(subscribe(sys, *node1, sink, {topic, part}, start_position::earliest(), fo));

  // Round 1: every node up.
  constexpr int per_round = 20;
  auto acked = send_round(prod, topic, 0, per_round);
  for (auto& [v, md] : acked)
    BOOST_REQUIRE_MESSAGE(md, v << ": " << why(md));
  BOOST_REQUIRE_MESSAGE(log->wait_until([](sink_log& l) { return l.records >= partitions * per_round; }, 120s),
                        "round 1: read " << log->records << " of " << partitions * per_round);

  // Node 2 goes away; records are sent meanwhile (those for its partitions wait and
  // retry); then it comes back with the same broker id and log dir, on another caf.port.
  nodes[1]->stop();
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(*nodes[0], topic);
    return ls.size() == partitions && std::count(ls.begin(), ls.end(), 2) == 0;
  }));
  auto round2 = std::async(std::launch::async, [&] { return send_round(prod, topic, per_round, 2 * per_round); });
  std::this_thread::sleep_for(500ms); // some of round 2 meets the missing leader (not a timing assertion)
  nodes[1] = std::make_unique<broker>(store, 2, dirs[1].path);
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(*nodes[0], topic);
    return ls == placed;
  }));
  for (auto& [v, md] : round2.get()) {
    BOOST_REQUIRE_MESSAGE(md, v << ": " << why(md));
    acked.emplace(v, md);
  }
  BOOST_REQUIRE_MESSAGE(log->wait_until([](sink_log& l) { return l.records >= 2 * partitions * per_round; }, 120s),
                        "round 2: read " << log->records << " of " << 2 * partitions * per_round);

  // Every acknowledged record exactly once, in send order, at its acknowledged offset.
  std::this_thread::sleep_for(200ms); // a duplicate would show up in the counts below
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->errors.empty());
    BOOST_TEST(log->records == size_t{2 * partitions * per_round});
    for (int32_t part = 0; part < partitions; ++part) {
      auto& got = log->by_partition[part];
      BOOST_REQUIRE_EQUAL(got.size(), size_t{2 * per_round});
      for (int i = 0; i < 2 * per_round; ++i) {
        auto v = value_of(part, i);
        BOOST_TEST(got[i].value.value_or("") == v);
        auto& md = acked.at(v);
        BOOST_TEST(md->partition == part);
        BOOST_TEST(md->offset == got[i].offset);
      }
    }
  }

  for (auto& s : subs)
    stop_actor(sys, caf::actor_cast<caf::actor>(s));
  stop_actor(sys, sink);
  prod.close();
  for (int i = 2; i >= 0; --i)
    nodes[i].reset();
}

BOOST_AUTO_TEST_SUITE_END()
