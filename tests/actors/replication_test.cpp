// Replication between three nodes inside one process, each in its own actor system with
// CAF's middleman, as separate processes (docs/replication.md): followers fetch from the
// leader, acks=all answers once the ISR has a batch, a failover keeps every acknowledged
// record, a restarted replica catches up and rejoins the ISR, and every replica's log ends
// up byte for byte the same.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>

#include "storage/partition_log.hpp"
#include "tests/actors/cluster_nodes.hpp"

using namespace cafka;
using namespace cafka::cluster_test;
using namespace std::chrono_literals;

namespace {

caf::expected<produce_result> produce_acks_all(member_node& m, const topic_partition& tp, int value) {
  caf::scoped_actor self{m.sys};
  caf::expected<produce_result> out{caf::error{}};
  auto batch = protocol::build_batch({{std::string("k"), "v" + std::to_string(value), {}, 1000}});
  self->request(m.n.actor, 20s, produce_atom_v, tp, produce_request{-1, batch, 15000})
    .receive([&](produce_result& r) { out = r; }, [&](caf::error& e) { out = std::move(e); });
  return out;
}

// The partition's ISR as `m` reports it.
std::vector<int32_t> isr_of(member_node& m, const std::string& topic) {
  auto md = m.metadata({topic});
  if (!md || md->topics.size() != 1 || md->topics[0].partitions.empty())
    return {};
  auto isr = md->topics[0].partitions[0].isr;
  std::sort(isr.begin(), isr.end());
  return isr;
}

// Every byte of the partition's segments (the node must be stopped).
std::string log_bytes(const std::string& dir, const std::string& topic) {
  std::string out;
  std::vector<std::filesystem::path> logs;
  for (auto& e : std::filesystem::directory_iterator(std::filesystem::path(dir) / (topic + "-0")))
    if (e.path().extension() == ".log")
      logs.push_back(e.path());
  std::sort(logs.begin(), logs.end());
  for (auto& p : logs) {
    std::ifstream in(p, std::ios::binary);
    out.append(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

// The broker that leads partition 0 of `topic` and serves it already (its own metadata says
// so: a broker reports itself leader only once its partition actor is open); -1 if none.
int32_t leader_of(three_nodes& c, const std::string& topic, int skip = 0) {
  for (int id = 1; id <= 3; ++id)
    if (id != skip && c.node(id).running) {
      auto ls = leaders(c.node(id), topic);
      if (all_led(ls) && ls[0] == id)
        return id;
    }
  return -1;
}

} // namespace

BOOST_AUTO_TEST_SUITE(replication)

BOOST_AUTO_TEST_CASE(acknowledged_records_survive_the_leader_and_replicas_converge) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  topic_spec spec{"r", 1, 3, {{"min.insync.replicas", "2"}}};
  auto created = c.node(1).create(spec);
  BOOST_REQUIRE_MESSAGE(created, why(created));
  topic_partition tp{"r", 0};
  int32_t first = -1;
  BOOST_REQUIRE(eventually([&] { return (first = leader_of(c, "r")) > 0; }));

  // acks=all: answered once the ISR has the batch; the leader's high watermark follows.
  for (int i = 0; i < 20; ++i) {
    auto r = produce_acks_all(c.node(first), tp, i);
    BOOST_REQUIRE_MESSAGE(r, "record " << i << ": " << why(r));
    BOOST_TEST(r->base_offset == i);
  }
  BOOST_TEST(c.node(first).log_end(tp)->offset == 20);

  // The leader goes: another ISR member leads with every acknowledged record.
  c.node(first).stop();
  int32_t second = -1;
  BOOST_REQUIRE(eventually([&] { return (second = leader_of(c, "r", first)) > 0; }));
  BOOST_TEST(second != first);
  BOOST_REQUIRE(eventually([&] {
    auto end = c.node(second).log_end(tp);
    return end && end->offset == 20;
  }));
  for (int i = 20; i < 25; ++i) { // min.insync.replicas=2 still holds with two brokers
    auto r = produce_acks_all(c.node(second), tp, i);
    BOOST_REQUIRE_MESSAGE(r, "record " << i << ": " << why(r));
    BOOST_TEST(r->base_offset == i);
  }

  // The old leader returns as a follower, catches up and rejoins the ISR.
  c.start(first - 1);
  BOOST_REQUIRE(eventually([&] { return isr_of(c.node(second), "r") == std::vector<int32_t>{1, 2, 3}; }));
  for (int i = 25; i < 30; ++i)
    BOOST_REQUIRE(static_cast<bool>(produce_acks_all(c.node(second), tp, i)));

  for (int id = 1; id <= 3; ++id)
    c.node(id).stop();
  auto reference = log_bytes(c.dirs[0].path, "r");
  BOOST_TEST(!reference.empty());
  BOOST_TEST((log_bytes(c.dirs[1].path, "r") == reference));
  BOOST_TEST((log_bytes(c.dirs[2].path, "r") == reference));
}

BOOST_AUTO_TEST_CASE(acks_all_is_refused_below_min_insync_replicas) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"m", 1, 2, {{"min.insync.replicas", "2"}}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  topic_partition tp{"m", 0};
  int32_t leader = -1;
  BOOST_REQUIRE(eventually([&] { return (leader = leader_of(c, "m")) > 0; }));
  auto first = produce_acks_all(c.node(leader), tp, 0);
  BOOST_REQUIRE_MESSAGE(first, why(first));
  auto md = c.node(leader).metadata({"m"});
  auto replicas = md->topics[0].partitions[0].replicas;
  auto follower = replicas[0] == leader ? replicas[1] : replicas[0];
  c.node(follower).stop(); // the controller takes it out of the ISR
  BOOST_REQUIRE(eventually([&] { return isr_of(c.node(leader), "m") == std::vector<int32_t>{leader}; }));
  auto refused = produce_acks_all(c.node(leader), tp, 1);
  BOOST_REQUIRE(!refused);
  BOOST_TEST((to_kafka_error(refused.error()) == kafka_error::not_enough_replicas));
  BOOST_TEST(static_cast<bool>(c.node(leader).produce(tp))); // acks=1 ignores min.insync.replicas
}

// A follower that stops is taken out of the ISR by the controller, at the same leader epoch.
// From then on acks=all waits for the rest of the ISR only, not until the stopped replica's last
// catch-up is older than replica.lag.time.max.ms (30 s, beyond the produce's 15 s timeout). The
// partition is idle when it stops, so its last long poll is still parked at the leader and is
// answered (second round) after the ISR change: that must not count as a fetch of it.
BOOST_AUTO_TEST_CASE(acks_all_stops_waiting_for_a_follower_taken_out_of_the_isr) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"d", 1, 3, {{"min.insync.replicas", "2"}}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  topic_partition tp{"d", 0};
  int32_t leader = -1;
  BOOST_REQUIRE(eventually([&] { return (leader = leader_of(c, "d")) > 0; }));
  for (int i = 0; i < 5; ++i) {
    auto r = produce_acks_all(c.node(leader), tp, i);
    BOOST_REQUIRE_MESSAGE(r, "record " << i << ": " << why(r));
  }
  auto controller = c.controller();
  int32_t follower = -1; // neither the leader nor the controller: no election in between
  for (int32_t id = 1; id <= 3 && follower < 0; ++id)
    if (id != leader && id != controller)
      follower = id;
  c.node(follower).stop();
  std::vector<int32_t> rest;
  for (int32_t id = 1; id <= 3; ++id)
    if (id != follower)
      rest.push_back(id);
  BOOST_REQUIRE(eventually([&] { return isr_of(c.node(leader), "d") == rest; }));
  for (int i = 5; i < 10; ++i) {
    auto r = produce_acks_all(c.node(leader), tp, i);
    BOOST_REQUIRE_MESSAGE(r, "record " << i << " with broker " << follower << " out of the ISR: " << why(r));
    BOOST_TEST(r->base_offset == i);
  }
}

BOOST_AUTO_TEST_SUITE_END()
