// Native group members in a cluster: the group's coordinator is not the broker the client
// bootstraps from. Three brokers in cluster mode in this process (cluster_brokers.hpp); the
// group is chosen so that broker 2 coordinates it (the leader of its __consumer_offsets
// partition); member A joins through broker 1, member B through broker 3. Their cluster
// links follow NOT_COORDINATOR to broker 2 (client/cluster_link.hpp).
//
// A consumes all 6 partitions and commits; B joins and both rebalance to 3 + 3; the
// committed offsets are read from the coordinator; broker 2 restarts (replication factor 1:
// the group's offsets partition comes back on it, with the offsets) and both members rejoin
// and resume from the committed offsets: nothing is delivered twice.
//
// Waits are bounded polls or bounded condition waits; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/connect.hpp"
#include "client/group_consumer.hpp"
#include "client/producer.hpp"
#include "cluster/offsets_partition.hpp"
#include "cluster_brokers.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

namespace {

constexpr int32_t partitions = 6;
constexpr int32_t offsets_partitions = 6;

// What one member's consumer saw.
struct member_log {
  std::mutex mtx;
  std::condition_variable cv;
  std::vector<topic_partition> current; ///< assigned and not revoked
  int32_t generation = -1;
  size_t revocations = 0;
  std::multiset<std::string> values;
  std::vector<consumer_error> errors;

  template <class F>
  auto with(F f) {
    std::lock_guard<std::mutex> guard{mtx};
    return f(*this);
  }
};

caf::behavior member_sink(caf::event_based_actor*, std::shared_ptr<member_log> log) {
  auto note = [log](auto f) {
    {
      std::lock_guard<std::mutex> guard{log->mtx};
      f(*log);
    }
    log->cv.notify_all();
  };
  return {
    [=](partitions_assigned& a) {
      note([&](member_log& l) {
        l.current = a.partitions;
        l.generation = a.generation;
      });
    },
    [=](partitions_revoked&) {
      note([&](member_log& l) {
        l.current.clear();
        ++l.revocations;
      });
    },
    [=](consumer_records& recs) {
      auto decoded = records(recs);
      note([&](member_log& l) {
        for (auto& r : decoded)
          l.values.insert(r.value.value_or(""));
      });
    },
    [=](consumer_error& err) { note([&](member_log& l) { l.errors.push_back(err); }); },
  };
}

std::string value_of(int round, int32_t partition, int i) {
  return "r" + std::to_string(round) + "-p" + std::to_string(partition) + "-" + std::to_string(i);
}

// `per` records to every partition of `topic`; returns their values.
std::set<std::string> produce_round(producer& p, const std::string& topic, int round, int per) {
  std::vector<producer::result_future> futs;
  std::set<std::string> values;
  for (int32_t part = 0; part < partitions; ++part)
    for (int i = 0; i < per; ++i) {
      auto v = value_of(round, part, i);
      values.insert(v);
      futs.push_back(p.send(producer_record{topic, std::nullopt, v, {}, std::nullopt, part}));
    }
  for (auto& f : futs) {
    BOOST_REQUIRE(f.wait_for(120s) == std::future_status::ready);
    auto md = f.get();
    BOOST_REQUIRE_MESSAGE(md, "send: " << why(md));
  }
  return values;
}

// The group's committed offsets, asked from its coordinator `b` directly (bounded).
std::vector<group_offset> committed_at(broker& b, const std::string& group) {
  caf::scoped_actor self{*b.sys};
  std::vector<group_offset> out;
  self->request(b.n.actor, 10s, group_coordinator_atom_v, group)
    .receive(
      [&](group_actor& g) {
        self->request(g, 10s, fetch_offsets_atom_v, group_offset_query{true, {}})
          .receive([&](std::vector<group_offset>& found) { out = std::move(found); }, [](caf::error&) {});
      },
      [](caf::error&) {});
  return out;
}

// The same from whichever broker coordinates the group now (__consumer_offsets has three
// replicas: when broker 2 stops, another one leads the group's partition).
std::vector<group_offset> committed_at_coordinator(std::unique_ptr<broker> (&nodes)[3], const std::string& group) {
  for (auto& b : nodes) {
    auto found = committed_at(*b, group);
    if (!found.empty())
      return found;
  }
  return {};
}

int64_t sum_offsets(const std::vector<group_offset>& offsets) {
  return std::accumulate(offsets.begin(), offsets.end(), int64_t{0},
                         [](int64_t acc, const group_offset& o) { return acc + o.offset; });
}

void tweak(config::server_config& c) {
  c.group_initial_rebalance_delay_ms = 0;
  c.group_min_session_timeout_ms = 500;
  c.offsets_topic_num_partitions = offsets_partitions;
}

// Sends stop and waits (bounded) until the member is gone.
void stop_member(caf::actor_system& sys, const caf::actor& member) {
  caf::scoped_actor self{sys};
  self->monitor(member);
  self->send(member, stop_atom_v);
  bool down = false;
  self->receive_while([&] { return !down; })([&](caf::down_msg&) { down = true; },
                                             caf::after(30s) >> [&] {
                                               BOOST_ERROR("member did not stop within 30 s");
                                               down = true;
                                             });
}

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_group)

BOOST_AUTO_TEST_CASE(members_reach_the_coordinator_through_other_brokers_and_resume_after_it_restarts) {
  auto store = std::make_shared<cluster::embedded_store>();
  temp_dir dirs[3];
  std::unique_ptr<broker> nodes[3];
  for (int i = 0; i < 3; ++i)
    nodes[i] = std::make_unique<broker>(store, i + 1, dirs[i].path, tweak);
  BOOST_REQUIRE(eventually([&] {
    auto md = nodes[0]->metadata({}, true);
    return md && md->brokers.size() == 3 && md->controller_id >= 0;
  }));

  client_system cs;
  auto& sys = cs.sys();
  auto node1 = connect(sys, "127.0.0.1", nodes[0]->port, 10s);
  BOOST_REQUIRE_MESSAGE(node1, "connect: " << why(node1));
  auto node3 = connect(sys, "127.0.0.1", nodes[2]->port, 10s);
  BOOST_REQUIRE_MESSAGE(node3, "connect: " << why(node3));
  const std::string topic = "grouped";
  create_topic(sys, *node1, topic, partitions);
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(*nodes[0], topic);
    return ls.size() == partitions && std::count(ls.begin(), ls.end(), -1) == 0;
  }));

  // The first group lookup creates __consumer_offsets; then pick a group broker 2 leads.
  {
    caf::scoped_actor self{sys};
    self->request(*node1, 10s, group_coordinator_atom_v, std::string{"probe"}).receive([](group_actor&) {},
                                                                                       [](caf::error&) {});
  }
  std::vector<int32_t> offsets_leaders;
  BOOST_REQUIRE(eventually([&] {
    offsets_leaders = leaders(*nodes[0], "__consumer_offsets");
    return offsets_leaders.size() == size_t{offsets_partitions}
           && std::count(offsets_leaders.begin(), offsets_leaders.end(), -1) == 0;
  }));
  std::string group;
  for (int i = 0; i < 1000 && group.empty(); ++i) {
    auto candidate = "spread-" + std::to_string(i);
    if (offsets_leaders.at(static_cast<size_t>(cluster::offsets_partition_for(candidate, offsets_partitions))) == 2)
      group = candidate;
  }
  BOOST_REQUIRE_MESSAGE(!group.empty(), "no group name maps to broker 2");
  // Broker 1 does not coordinate it: a member asking there alone would never join.
  {
    caf::scoped_actor self{sys};
    caf::error err;
    self->request(*node1, 10s, group_coordinator_atom_v, group)
      .receive([](group_actor&) {}, [&](caf::error& e) { err = std::move(e); });
    BOOST_TEST((to_kafka_error(err) == kafka_error::not_coordinator));
  }

  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(nodes[0]->port);
  pc.delivery_timeout = 120s;
  producer prod{sys, pc};
  constexpr int per = 10;
  auto round1 = produce_round(prod, topic, 1, per);

  auto options = [&](uint16_t port) {
    group_options o;
    o.group_id = group;
    o.topics = {topic};
    o.session_timeout = 2s;
    o.heartbeat_interval = 200ms;
    o.max_poll_interval = 5s;
    o.auto_offset_reset = offset_reset::earliest;
    o.auto_commit_interval = 200ms;
    o.fetch.max_wait = 100ms;
    o.fetch.request_timeout = 10s;
    o.fetch.bootstrap = "127.0.0.1:" + std::to_string(port);
    return o;
  };
  auto log_a = std::make_shared<member_log>();
  auto log_b = std::make_shared<member_log>();
  auto sink_a = sys.spawn(member_sink, log_a);
  auto sink_b = sys.spawn(member_sink, log_b);
  auto has_all = [](member_log& l, const std::set<std::string>& want) {
    return std::all_of(want.begin(), want.end(), [&](auto& v) { return l.values.count(v) > 0; });
  };
  auto union_has = [&](const std::set<std::string>& want) {
    std::set<std::string> seen;
    for (auto* log : {log_a.get(), log_b.get()})
      log->with([&](member_log& l) { seen.insert(l.values.begin(), l.values.end()); });
    return std::includes(seen.begin(), seen.end(), want.begin(), want.end());
  };

  // A alone, through broker 1: every partition, every record, committed at the coordinator.
  auto member_a = join_group(sys, *node1, sink_a, options(nodes[0]->port));
  BOOST_REQUIRE_MESSAGE(eventually([&] {
                          return log_a->with([&](member_log& l) {
                            return l.current.size() == size_t{partitions} && has_all(l, round1);
                          });
                        }),
                        "member A did not get all partitions and records");
  BOOST_REQUIRE(eventually([&] { return sum_offsets(committed_at(*nodes[1], group)) == partitions * per; }));

  // B through broker 3: both rebalance to three partitions each, in the same generation.
  auto member_b = join_group(sys, *node3, sink_b, options(nodes[2]->port));
  auto split = [&] {
    auto a = log_a->with([](member_log& l) { return std::make_pair(l.current.size(), l.generation); });
    auto b = log_b->with([](member_log& l) { return std::make_pair(l.current.size(), l.generation); });
    return a.first == 3u && b.first == 3u && a.second == b.second;
  };
  BOOST_REQUIRE_MESSAGE(eventually(split), "no 3/3 split");
  auto round2 = produce_round(prod, topic, 2, per);
  BOOST_REQUIRE(eventually([&] { return union_has(round2); }));
  BOOST_REQUIRE(eventually([&] { return sum_offsets(committed_at(*nodes[1], group)) == 2 * partitions * per; }));
  auto revoked_a = log_a->with([](member_log& l) { return l.revocations; });
  auto revoked_b = log_b->with([](member_log& l) { return l.revocations; });

  // The coordinator restarts (another caf.port); another replica of the group's offsets
  // partition takes over meanwhile; the members lose the group, find it again and resume
  // from the committed offsets.
  nodes[1]->stop();
  nodes[1] = std::make_unique<broker>(store, 2, dirs[1].path, tweak);
  BOOST_REQUIRE_MESSAGE(eventually([&] {
                          return log_a->with([&](member_log& l) { return l.revocations > revoked_a; })
                                 && log_b->with([&](member_log& l) { return l.revocations > revoked_b; })
                                 && split();
                        }),
                        "the members did not rejoin after the coordinator restarted");
  auto round3 = produce_round(prod, topic, 3, per);
  BOOST_REQUIRE(eventually([&] { return union_has(round3); }));
  BOOST_REQUIRE(eventually([&] { return sum_offsets(committed_at_coordinator(nodes, group)) == 3 * partitions * per; }));

  stop_member(sys, member_a);
  stop_member(sys, member_b);
  // Every record exactly once across both members: nothing before the committed offsets
  // came again after the restart.
  std::multiset<std::string> all;
  for (auto* log : {log_a.get(), log_b.get()})
    log->with([&](member_log& l) {
      all.insert(l.values.begin(), l.values.end());
      BOOST_TEST(l.errors.empty());
    });
  BOOST_TEST(all.size() == size_t{3 * partitions * per});
  for (auto* round : {&round1, &round2, &round3})
    for (auto& v : *round)
      BOOST_TEST(all.count(v) == 1u, v << " delivered " << all.count(v) << " times");
  stop_actor(sys, sink_a);
  stop_actor(sys, sink_b);
}

BOOST_AUTO_TEST_SUITE_END()
