// Groups survive a broker (docs/replication.md, "__consumer_offsets"): three nodes in one
// process, each with its own actor system and middleman. __consumer_offsets is created with
// three replicas; a commit on the coordinator is answered once the followers have it; when
// the coordinator stops, the new leader of the group's partition loads the committed offsets
// from its own replica and coordinates the group; the old coordinator comes back as a
// follower, catches up, and can coordinate the group again with every commit.
#include <boost/test/unit_test.hpp>

#include "cluster/offsets_partition.hpp"
#include "tests/actors/cluster_nodes.hpp"

using namespace cafka;
using namespace cafka::cluster_test;
using namespace std::chrono_literals;

namespace {

// Commits `offset` for events-1 as a simple (memberless) commit; the error, if any.
kafka_error commit(member_node& m, group_actor g, int64_t offset, const std::string& metadata) {
  caf::scoped_actor self{m.sys};
  kafka_error out = kafka_error::unknown_server_error;
  group_offset_commit c{"", std::nullopt, -1, {{topic_partition{"events", 1}, offset, -1, metadata}}};
  self->request(g, 20s, commit_offsets_atom_v, c)
    .receive([&] { out = kafka_error::none; }, [&](caf::error& e) { out = to_kafka_error(e); });
  return out;
}

// The replicas and ISR of __consumer_offsets-`p` as `m` reports them (sorted).
std::pair<std::vector<int32_t>, std::vector<int32_t>> replicas_of(member_node& m, int32_t p) {
  auto md = m.metadata({"__consumer_offsets"});
  if (!md || md->topics.size() != 1 || md->topics[0].partitions.size() <= static_cast<size_t>(p))
    return {};
  auto& pm = md->topics[0].partitions[static_cast<size_t>(p)];
  auto replicas = pm.replicas;
  auto isr = pm.isr;
  std::sort(replicas.begin(), replicas.end());
  std::sort(isr.begin(), isr.end());
  return {replicas, isr};
}

// The offset committed for events-1 that the coordinator `id` answers (-1: none, -2: no
// group actor there).
int64_t committed_on(three_nodes& c, int32_t id, const std::string& group, std::string* metadata = nullptr) {
  auto here = ask_coordinator(c.node(id), group);
  if (!here.actor)
    return -2;
  auto fetched = fetch_offsets(c.node(id), *here.actor);
  if (!fetched || fetched->size() != 1)
    return -1;
  if (metadata)
    *metadata = fetched->at(0).metadata;
  return fetched->at(0).offset;
}

} // namespace

BOOST_AUTO_TEST_SUITE(offsets_replication)

BOOST_AUTO_TEST_CASE(a_group_keeps_its_offsets_when_its_coordinator_stops) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"events", 3, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  const std::string group = "survivors";
  int32_t first = -1;
  BOOST_REQUIRE(eventually([&] { return (first = agreed_coordinator(c, group)) > 0; }));
  auto partition = cluster::offsets_partition_for(group, 50);
  // offsets.topic.replication.factor 3 (the default) on three live brokers.
  BOOST_REQUIRE(eventually([&] {
    auto [replicas, isr] = replicas_of(c.node(first), partition);
    return replicas == std::vector<int32_t>{1, 2, 3} && isr == replicas;
  }));

  // Answered only once the in-sync replicas have it (followers start fetching meanwhile:
  // a commit that timed out is retried).
  auto g = ask_coordinator(c.node(first), group);
  BOOST_REQUIRE(g.actor);
  BOOST_REQUIRE(eventually([&] { return commit(c.node(first), *g.actor, 42, "m") == kafka_error::none; }));
  BOOST_TEST(committed_on(c, first, group) == 42);

  // The coordinator goes: another replica leads the partition, loads the offsets from its
  // own log and coordinates the group.
  c.node(first).stop();
  int32_t second = -1;
  BOOST_REQUIRE(eventually([&] {
    second = agreed_coordinator(c, group);
    return second > 0 && second != first;
  }));
  std::string metadata;
  BOOST_REQUIRE(eventually([&] { return committed_on(c, second, group, &metadata) == 42; }));
  BOOST_TEST(metadata == "m");
  auto g2 = ask_coordinator(c.node(second), group);
  BOOST_REQUIRE(g2.actor);
  // Two replicas left in the ISR (the controller dropped the stopped broker): commits go on.
  BOOST_REQUIRE(eventually([&] { return commit(c.node(second), *g2.actor, 43, "n") == kafka_error::none; }));

  // The first coordinator returns as a follower and catches up; when the second stops too,
  // the group's offsets are the latest commit wherever it goes next.
  c.start(first - 1);
  BOOST_REQUIRE(eventually([&] {
    auto [replicas, isr] = replicas_of(c.node(second), partition);
    return isr == std::vector<int32_t>{1, 2, 3};
  }));
  c.node(second).stop();
  int32_t third = -1;
  BOOST_REQUIRE(eventually([&] {
    third = agreed_coordinator(c, group);
    return third > 0 && third != second;
  }));
  BOOST_REQUIRE(eventually([&] { return committed_on(c, third, group, &metadata) == 43; }));
  BOOST_TEST(metadata == "n");
}

BOOST_AUTO_TEST_SUITE_END()
