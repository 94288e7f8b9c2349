// The key counter (key_counter.hpp) against three simulated brokers (cafka::sim): a topic of
// 3 partitions, the counter subscribed to each, 30 keyed records produced; every key must
// be counted as often as it was sent. Exit 0 and "ok", or 1 with the cluster's trace and
// the seed that replays the run.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/node_link.hpp"
#include "client/producer_actor.hpp"
#include "client/subscription.hpp"
#include "key_counter.hpp"
#include "sim/ask.hpp"
#include "sim/cluster.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

int fail(const sim::cluster& c, const std::string& what) {
  for (auto& line : c.trace())
    std::printf("%s\n", line.c_str());
  std::printf("FAILED: %s (seed 7)\n", what.c_str());
  return 1;
}

} // namespace

int main() {
  const std::string topic = "events";
  sim::cluster c{sim::options{3, 7, {}}};
  if (!c.run_until([&] { return c.converged(); }, 30s))
    return fail(c, "the cluster did not form");
  auto b1 = c.broker(0);
  auto created = sim::ask<topic_description>(c, *b1.system, b1.n->actor, 20s, create_topic_atom_v,
                                             topic_spec{topic, 3, 1, {}});
  if (!created)
    return fail(c, "create topic: " + describe(created.error()));

  auto& sys = c.client();
  auto counts = std::make_shared<key_counts>();
  auto counter = spawn_key_counter(sys, counts);
  client::link_options lo;
  lo.endpoints = {client::endpoint{b1.address, b1.caf_port}};
  auto link = client::spawn_node_link(sys, node_actor{}, lo);
  auto node = sim::ask<node_actor>(c, sys, link, 30s, caf::get_atom_v);
  if (!node)
    return fail(c, "connect: " + describe(node.error()));
  client::fetch_options fo;
  fo.bootstrap = c.bootstrap();
  std::vector<client::subscription> subs;
  for (int32_t p = 0; p < 3; ++p)
    subs.push_back(client::subscribe(sys, *node, counter, {topic, p}, client::start_position::earliest(), fo));

  client::producer_config pc;
  pc.bootstrap_servers = c.bootstrap();
  auto prod = client::spawn_producer(sys, pc);
  auto acked = std::make_shared<int>(0);
  key_counts expected;
  for (int i = 0; i < 30; ++i) {
    auto key = "k" + std::to_string(i % 4);
    ++expected[key];
    client::producer_record rec{topic, key, "v" + std::to_string(i), {}, int64_t{1'700'000'000'000}, std::nullopt};
    caf::anon_send(prod, client::send_atom_v, std::move(rec),
                   client::send_callback{[acked](caf::expected<client::record_metadata> r) {
                     if (r)
                       ++*acked;
                   }});
  }
  if (!c.run_until([&] { return *acked == 30; }, 60s))
    return fail(c, "only " + std::to_string(*acked) + " of 30 records acknowledged");
  if (!c.run_until([&] { return *counts == expected; }, 60s))
    return fail(c, "the counter did not see every record exactly once");
  std::printf("ok: %d records over %zu keys counted\n", *acked, counts->size());
  return 0;
}
