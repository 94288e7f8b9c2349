// cafka-example-simulated-cluster: test YOUR consumer actor against a simulated 3-node
// cluster, with a broker crash and a link cut, in one process, in well under a second,
// the same way every time (docs/simulation.md, "Writing a test against a simulated
// cluster").
//
// The consumer below (it counts records per key) is the kind of actor an application
// runs in production against real brokers; here it runs unchanged against cafka::sim:
// three brokers, each its own actor system under CAF's deterministic scheduler, over a
// simulated network, with simulated time. The program
//   1. starts the cluster and creates a topic of 3 partitions;
//   2. subscribes the consumer to every partition and produces 20 keyed records;
//   3. crashes broker 2 (kill -9), lets the others notice, restarts it, produces 20 more;
//   4. cuts the link between the client and broker 3 (both directions), produces 20 more
//      (those for broker 3's partition wait), heals it after 5 simulated seconds;
//   5. checks that the consumer counted every record of every key exactly once.
// It prints the cluster's trace and "ok" (exit 0), or what went wrong and the command that
// replays the run (exit 1). Every choice the simulation makes comes from --seed.
//
//   cafka-example-simulated-cluster [--seed=N]
//
// tests/integration/examples_test.cpp runs it (with two seeds) as part of scripts/test.sh.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/node_link.hpp"
#include "client/producer_actor.hpp"
#include "client/subscription.hpp"
#include "sim/ask.hpp"
#include "sim/cluster.hpp"

using namespace cafka;
using namespace std::chrono_literals;

// ---- the application's consumer actor (nothing simulation-specific in it) ----

using key_counts = std::map<std::string, int>;

caf::behavior key_counter(caf::event_based_actor*, std::shared_ptr<key_counts> counts) {
  return {
    [=](client::consumer_records& batch) {
      for (auto& rec : client::records(batch))
        ++(*counts)[rec.key.value_or("")];
    },
    [=](client::consumer_error& e) { std::fprintf(stderr, "consumer error: %s\n", describe(e.error).c_str()); },
  };
}

// ---- the test ----

namespace {

const std::string topic = "events";
constexpr int keys = 5;

struct sent_log {
  int acked = 0;
  int failed = 0;
};

// Hands records [from, to) to the producer (keys k0..k4 round robin, so the key picks the
// partition); the callbacks count acknowledgements.
void send_records(const client::producer_actor& prod, int from, int to, std::shared_ptr<sent_log> sent,
                  key_counts& expected) {
  for (int i = from; i < to; ++i) {
    auto key = "k" + std::to_string(i % keys);
    ++expected[key];
    client::producer_record rec{topic, key, "v" + std::to_string(i), {}, int64_t{1'700'000'000'000}, std::nullopt};
    caf::anon_send(prod, client::send_atom_v, std::move(rec),
                   client::send_callback{[sent](caf::expected<client::record_metadata> r) {
                     if (r)
                       ++sent->acked;
                     else
                       ++sent->failed;
                   }});
  }
}

int fail(const sim::cluster& c, uint64_t seed, const std::string& what) {
  for (auto& line : c.trace())
    std::printf("%s\n", line.c_str());
  std::printf("FAILED: %s\nreplay: cafka-example-simulated-cluster --seed=%llu\n", what.c_str(),
              static_cast<unsigned long long>(seed));
  return 1;
}

int run(uint64_t seed) {
  sim::cluster c{sim::options{3, seed, {}}};
  if (!c.run_until([&] { return c.converged(); }, 30s))
    return fail(c, seed, "the cluster did not form");
  auto b1 = c.broker(0);
  auto created = sim::ask<topic_description>(c, *b1.system, b1.n->actor, 20s, create_topic_atom_v,
                                             topic_spec{topic, 3, 1, {}});
  if (!created)
    return fail(c, seed, "create topic: " + describe(created.error()));

  // The consumer, subscribed to every partition from the start, in the client host.
  auto& sys = c.client();
  auto counts = std::make_shared<key_counts>();
  auto consumer = sys.spawn(key_counter, counts);
  client::link_options lo;
  lo.endpoints = {client::endpoint{b1.address, b1.caf_port}};
  auto link = client::spawn_node_link(sys, node_actor{}, lo);
  auto node = sim::ask<node_actor>(c, sys, link, 30s, caf::get_atom_v);
  if (!node)
    return fail(c, seed, "connect: " + describe(node.error()));
  client::fetch_options fo;
  fo.bootstrap = c.bootstrap(); // where to find a partition's leader again
  fo.retry_timeout = 120s;      // keep retrying while a leader is down
  std::vector<client::subscription> subs;
  for (int32_t p = 0; p < 3; ++p)
    subs.push_back(client::subscribe(sys, *node, consumer, {topic, p}, client::start_position::earliest(), fo));

  client::producer_config pc;
  pc.bootstrap_servers = c.bootstrap();
  pc.delivery_timeout = 120s;
  auto prod = client::spawn_producer(sys, pc);
  auto sent = std::make_shared<sent_log>();
  key_counts expected;
  auto all_acked = [&](int n) {
    return c.run_until([&] { return sent->acked + sent->failed >= n; }, 130s) && sent->failed == 0;
  };

  send_records(prod, 0, 20, sent, expected);
  if (!all_acked(20))
    return fail(c, seed, "round 1 not acknowledged");

  c.crash(1); // broker 2, kill -9: its session expires after zookeeper.session.timeout.ms
  if (!c.run_until([&] { return c.converged(); }, 60s))
    return fail(c, seed, "the others did not notice the crash");
  c.restart(1);
  if (!c.run_until([&] { return c.converged(); }, 60s))
    return fail(c, seed, "broker 2 did not come back");
  send_records(prod, 20, 40, sent, expected);
  if (!all_acked(40))
    return fail(c, seed, "round 2 not acknowledged");

  c.cut(sim::cluster::client_host, 2); // client <-> broker 3, both directions
  c.cut(2, sim::cluster::client_host);
  send_records(prod, 40, 60, sent, expected);
  c.advance(5s);
  // Records for broker 3's partition cannot have been acknowledged meanwhile.
  std::printf("during the cut: %d of 20 records acknowledged\n", sent->acked - 40);
  if (sent->acked == 60)
    return fail(c, seed, "the cut held nothing back");
  c.heal(sim::cluster::client_host, 2);
  c.heal(2, sim::cluster::client_host);
  if (!all_acked(60))
    return fail(c, seed, "round 3 not acknowledged");

  // The consumer saw every record once: its counts reach the expected ones, and a while
  // later they are still exactly those (no duplicates).
  if (!c.run_until([&] { return *counts == expected; }, 120s))
    return fail(c, seed, "the consumer did not count every record");
  c.advance(2s);
  if (*counts != expected)
    return fail(c, seed, "the consumer counted a record twice");

  for (auto& line : c.trace())
    std::printf("%s\n", line.c_str());
  for (auto& [key, n] : *counts)
    std::printf("%s: %d\n", key.c_str(), n);
  for (auto& s : subs)
    caf::anon_send_exit(s, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(prod, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(link, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  c.advance(100ms);
  std::printf("ok (seed %llu)\n", static_cast<unsigned long long>(seed));
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const std::string prefix = "--seed=";
    char* end = nullptr;
    if (arg.rfind(prefix, 0) == 0 && arg.size() > prefix.size() && arg[prefix.size()] != '-') {
      seed = std::strtoull(arg.c_str() + prefix.size(), &end, 10);
      if (*end == '\0')
        continue;
    }
    std::fprintf(stderr, "bad argument '%s'; usage: cafka-example-simulated-cluster [--seed=N]\n", arg.c_str());
    return 2;
  }
  return run(seed);
}
