// Three nodes in cluster mode inside one process (real scheduler threads), each in its own
// caf::actor_system as separate processes would be, sharing one embedded_store as their
// coordinator: membership, the controller and its failover, topic placement over the live
// brokers, leadership (partition folders opened only on their leader), NOT_LEADER_OR_FOLLOWER
// from a non-leader (native and Kafka wire), LEADER_NOT_AVAILABLE while a leader is gone, a
// restarted broker leading its partitions again with its data intact, topic deletion, and
// topic requests forwarded to the controller over CAF's middleman (the suites with
// "network" load it; the others have none and so write topics where they arrive).
//
// Waits for the cluster to converge are bounded polls (a fixed number of short sleeps):
// they fail when the state never arrives, and never assert on how long it took.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <cstring>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/errors.hpp"
#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster/offsets_partition.hpp"
#include "cluster/znode_paths.hpp"
#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/record_batch.hpp"
#include "tests/actors/cluster_nodes.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

using namespace cafka::cluster_test;

namespace {

// A blocking loopback connection with bounded reads, for one Kafka request and its answer.
struct wire_connection {
  int fd = -1;

  explicit wire_connection(uint16_t port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  }
  ~wire_connection() { ::close(fd); }

  bool read_exactly(char* out, size_t n) {
    while (n > 0) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 10'000) <= 0)
        return false;
      auto got = ::read(fd, out, n);
      if (got <= 0)
        return false;
      out += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  }

  // Sends a request (header v1) and returns the response body after the correlation id.
  std::vector<char> call(int16_t api_key, int16_t version, const std::vector<char>& body) {
    std::vector<char> frame;
    protocol::byte_writer w{frame};
    w.write_i32(0); // size, patched below
    w.write_i16(api_key);
    w.write_i16(version);
    w.write_i32(7);
    w.write_string("cluster-test");
    w.write_raw({body.data(), body.size()});
    auto size = htonl(static_cast<uint32_t>(frame.size() - 4));
    std::memcpy(frame.data(), &size, 4);
    BOOST_REQUIRE(::write(fd, frame.data(), frame.size()) == static_cast<ssize_t>(frame.size()));
    char header[4];
    BOOST_REQUIRE(read_exactly(header, 4));
    uint32_t n;
    std::memcpy(&n, header, 4);
    std::vector<char> response(ntohl(n));
    BOOST_REQUIRE(read_exactly(response.data(), response.size()));
    return std::vector<char>(response.begin() + 4, response.end());
  }
};

// The error code of the only partition of a Produce v3 response.
int16_t produce_error_v3(wire_connection& conn, const topic_partition& tp) {
  auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
  std::vector<char> body;
  protocol::byte_writer w{body};
  w.write_i16(-1); // transactional_id null
  w.write_i16(1);  // acks
  w.write_i32(10'000);
  w.write_i32(1);
  w.write_string(tp.topic);
  w.write_i32(1);
  w.write_i32(tp.partition);
  w.write_bytes({batch.data(), batch.size()});
  auto response = conn.call(0, 3, body);
  protocol::byte_reader r{{response.data(), response.size()}};
  BOOST_REQUIRE(r.read_i32() == 1);
  r.read_string();
  BOOST_REQUIRE(r.read_i32() == 1);
  BOOST_TEST(r.read_i32() == tp.partition);
  auto error = r.read_i16();
  BOOST_REQUIRE(r.ok());
  return error;
}

// -- groups across nodes --

constexpr int16_t not_coordinator_code = 16;

// FindCoordinator v0 over the wire: error code, node id, port.
std::tuple<int16_t, int32_t, int32_t> find_coordinator_v0(wire_connection& conn, const std::string& group) {
  std::vector<char> body;
  protocol::byte_writer w{body};
  w.write_string(group);
  auto response = conn.call(10, 0, body);
  protocol::byte_reader r{{response.data(), response.size()}};
  auto error = r.read_i16();
  auto id = r.read_i32();
  r.read_string();
  auto port = r.read_i32();
  BOOST_REQUIRE(r.ok());
  return {error, id, port};
}

// Heartbeat v0 over the wire: its error code.
int16_t heartbeat_v0(wire_connection& conn, const std::string& group) {
  std::vector<char> body;
  protocol::byte_writer w{body};
  w.write_string(group);
  w.write_i32(1);
  w.write_string("nobody");
  auto response = conn.call(12, 0, body);
  protocol::byte_reader r{{response.data(), response.size()}};
  auto error = r.read_i16();
  BOOST_REQUIRE(r.ok());
  return error;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_node)

BOOST_AUTO_TEST_CASE(three_nodes_place_lead_fail_over_and_recover) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto md = c.node(3).metadata({}, true);
  BOOST_REQUIRE(md);
  for (auto& b : md->brokers) {
    BOOST_TEST(b.host == "127.0.0.1");
    BOOST_TEST(b.kafka_port == 19090 + b.id);
    BOOST_TEST(b.caf_port == 19190 + b.id);
  }

  // A 6-partition topic created through node 2 is spread 2/2/2.
  auto created = c.node(2).create(topic_spec{"orders", 6, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  std::vector<int32_t> ls;
  BOOST_REQUIRE(eventually([&] {
    ls = leaders(c.node(1), "orders");
    return all_led(ls) && leaders(c.node(2), "orders") == ls && leaders(c.node(3), "orders") == ls;
  }));
  std::map<int32_t, int> per_broker;
  for (auto l : ls)
    ++per_broker[l];
  BOOST_TEST(per_broker.size() == 3u);
  for (auto& [id, count] : per_broker)
    BOOST_TEST(count == 2, "broker " << id << " leads " << count);
  // Each node opened exactly the partitions it leads.
  for (int id = 1; id <= 3; ++id) {
    std::vector<std::string> mine;
    for (size_t p = 0; p < ls.size(); ++p)
      if (ls[p] == id)
        mine.push_back("orders-" + std::to_string(p));
    BOOST_TEST(folders_of(c.dirs[id - 1].path, "orders") == mine);
  }

  // Produce to the leader works; a non-leader answers NOT_LEADER_OR_FOLLOWER.
  std::vector<topic_partition> of3;
  for (size_t p = 0; p < ls.size(); ++p)
    if (ls[p] == 3)
      of3.push_back(topic_partition{"orders", static_cast<int32_t>(p)});
  BOOST_REQUIRE_EQUAL(of3.size(), 2u);
  auto r = c.node(3).produce(of3[0], 5);
  BOOST_REQUIRE_MESSAGE(r, why(r));
  BOOST_TEST(r->base_offset == 4);
  auto wrong = c.node(1).produce(of3[0]);
  BOOST_REQUIRE(!wrong);
  BOOST_TEST((to_kafka_error(wrong.error()) == kafka_error::not_leader_or_follower));
  auto unknown = c.node(1).produce(topic_partition{"nope", 0});
  BOOST_REQUIRE(!unknown);
  BOOST_TEST((to_kafka_error(unknown.error()) == kafka_error::unknown_topic_or_partition));

  // Node 3 goes: its partitions are LEADER_NOT_AVAILABLE on the others.
  c.node(3).stop();
  BOOST_REQUIRE(eventually([&] {
    auto md1 = c.node(1).metadata({"orders"});
    if (!md1 || md1->brokers.size() != 2)
      return false;
    for (auto& tp : of3)
      if (md1->topics.at(0).partitions.at(static_cast<size_t>(tp.partition)).error != leader_not_available)
        return false;
    return true;
  }));
  BOOST_TEST(leaders(c.node(2), "orders").empty() == false);

  // Restarted with the same log dir and id, it leads them again; the data is intact.
  c.start(2);
  BOOST_REQUIRE(eventually([&] { return c.converged(3) && leaders(c.node(1), "orders") == ls; }));
  BOOST_REQUIRE(eventually([&] { return static_cast<bool>(c.node(3).log_end(of3[0])); }));
  auto end = c.node(3).log_end(of3[0]);
  BOOST_REQUIRE_MESSAGE(end, why(end));
  BOOST_TEST(end->offset == 5);
}

BOOST_AUTO_TEST_CASE(a_new_controller_takes_over_and_topics_can_still_be_created) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto first = c.controller();
  BOOST_REQUIRE(first >= 1 && first <= 3);
  auto epoch_of = [&](member_node& m) -> int32_t {
    auto views = m.n.views->snapshot();
    return views->view.controller() ? views->view.controller()->epoch : 0;
  };
  auto old_epoch = epoch_of(c.node(first));
  c.node(first).stop();
  int32_t other = first == 1 ? 2 : 1;
  BOOST_REQUIRE(eventually([&] { return c.converged(2) && c.controller() != first; }));
  BOOST_TEST(epoch_of(c.node(other)) > old_epoch);
  auto created = c.node(other).create(topic_spec{"after", 4, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(c.node(other), "after");
    return all_led(ls) && ls.size() == 4u;
  }));
  for (auto l : leaders(c.node(other), "after"))
    BOOST_TEST(l != first);
}

BOOST_AUTO_TEST_CASE(replication_factor_above_the_live_brokers_is_refused) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto refused = c.node(1).create(topic_spec{"wide", 3, 4, {}});
  BOOST_REQUIRE(!refused);
  BOOST_TEST((to_kafka_error(refused.error()) == kafka_error::invalid_replication_factor));
  BOOST_TEST(describe(refused.error()).find("3 live broker") != std::string::npos, describe(refused.error()));
  auto twice = c.node(3).create(topic_spec{"t", 3, 1, {}});
  BOOST_REQUIRE(twice);
  auto again = c.node(2).create(topic_spec{"t", 3, 1, {}});
  BOOST_REQUIRE(!again);
  BOOST_TEST((to_kafka_error(again.error()) == kafka_error::topic_already_exists));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cluster_node_more)

BOOST_AUTO_TEST_CASE(a_closed_session_makes_partitions_unavailable_and_deletion_removes_folders) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"gone", 3, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  std::vector<int32_t> ls;
  BOOST_REQUIRE(eventually([&] {
    ls = leaders(c.node(2), "gone");
    return all_led(ls) && leaders(c.node(1), "gone") == ls;
  }));
  // Node 3 loses its session but keeps running: the others no longer count it.
  c.node(3).n.coordinator->close();
  BOOST_REQUIRE(eventually([&] {
    auto md = c.node(1).metadata({"gone"});
    if (!md || md->brokers.size() != 2)
      return false;
    for (size_t p = 0; p < ls.size(); ++p)
      if ((ls[p] == 3) != (md->topics.at(0).partitions.at(p).error == leader_not_available))
        return false;
    return true;
  }));
  // Deleted through node 2: nodes 1 and 2 close their partitions and remove their folders.
  caf::scoped_actor self{c.node(2).sys};
  bool deleted = false;
  self->request(c.node(2).n.actor, 10s, delete_topic_atom_v, std::string{"gone"})
    .receive([&](std::string&) { deleted = true; }, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_REQUIRE(deleted);
  BOOST_REQUIRE(eventually([&] {
    return folders_of(c.dirs[0].path, "gone").empty() && folders_of(c.dirs[1].path, "gone").empty();
  }));
  auto md = c.node(1).metadata({"gone"});
  BOOST_REQUIRE(md);
  BOOST_TEST(md->topics.at(0).error == protocol::wire_code(kafka_error::unknown_topic_or_partition));
}

BOOST_AUTO_TEST_CASE(the_kafka_wire_answers_not_leader_or_follower_on_a_non_leader) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"wire", 3, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  std::vector<int32_t> ls;
  BOOST_REQUIRE(eventually([&] {
    ls = leaders(c.node(1), "wire");
    return all_led(ls) && leaders(c.node(2), "wire") == ls && leaders(c.node(3), "wire") == ls;
  }));
  // The brokers are registered with the ports their listeners bound.
  auto md = c.node(1).metadata({}, true);
  BOOST_REQUIRE(md);
  for (auto& b : md->brokers)
    BOOST_TEST(b.kafka_port == c.node(b.id).n.listeners.at(0).address.port);
  topic_partition tp{"wire", 0};
  auto leader = ls[0];
  auto other = leader == 1 ? 2 : 1;
  wire_connection to_leader{c.node(leader).n.listeners.at(0).address.port};
  BOOST_TEST(produce_error_v3(to_leader, tp) == 0);
  wire_connection to_other{c.node(other).n.listeners.at(0).address.port};
  BOOST_TEST(produce_error_v3(to_other, tp) == protocol::wire_code(kafka_error::not_leader_or_follower));
  BOOST_TEST(produce_error_v3(to_other, topic_partition{"nope", 0})
             == protocol::wire_code(kafka_error::unknown_topic_or_partition));
}

BOOST_AUTO_TEST_CASE(topic_requests_are_forwarded_to_the_controller_over_the_middleman) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto controller = c.controller();
  auto x = controller == 3 ? 2 : 3;
  // x loses its coordinator session: it can no longer write topics itself, only forward.
  c.node(x).n.coordinator->close();
  BOOST_REQUIRE(eventually([&] {
    auto md = c.node(controller).metadata({}, true);
    return md && md->brokers.size() == 2;
  }));
  auto created = c.node(x).create(topic_spec{"fwd", 4, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(c.node(controller), "fwd");
    return all_led(ls) && ls.size() == 4u && std::count(ls.begin(), ls.end(), x) == 0;
  }));
  // The controller's own errors come back as they are.
  auto again = c.node(x).create(topic_spec{"fwd", 4, 1, {}});
  BOOST_REQUIRE(!again);
  BOOST_TEST((to_kafka_error(again.error()) == kafka_error::topic_already_exists));
  caf::scoped_actor self{c.node(x).sys};
  bool deleted = false;
  self->request(c.node(x).n.actor, 30s, delete_topic_atom_v, std::string{"fwd"})
    .receive([&](std::string&) { deleted = true; }, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_REQUIRE(deleted);
  BOOST_REQUIRE(eventually([&] {
    auto md = c.node(controller).metadata({"fwd"});
    return md && md->topics.at(0).error == protocol::wire_code(kafka_error::unknown_topic_or_partition);
  }));
}

BOOST_AUTO_TEST_CASE(a_group_is_coordinated_by_the_leader_of_its_offsets_partition) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"events", 3, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  const std::string group = "billing";
  // The first lookup creates __consumer_offsets; then every node names the same broker.
  int32_t coordinator = -1;
  BOOST_REQUIRE(eventually([&] { return (coordinator = agreed_coordinator(c, group)) > 0; }));
  // ... which leads the group's partition of __consumer_offsets (hidden from all-topics).
  auto partition = cluster::offsets_partition_for(group, 50);
  auto ls = leaders(c.node(2), "__consumer_offsets");
  BOOST_REQUIRE_EQUAL(ls.size(), 50u);
  BOOST_TEST(ls.at(static_cast<size_t>(partition)) == coordinator);
  std::set<int32_t> coordinators(ls.begin(), ls.end());
  BOOST_TEST(coordinators.size() == 3u, "the offsets partitions are spread over every broker");
  auto all = c.node(1).metadata({}, true);
  BOOST_REQUIRE(all);
  for (auto& t : all->topics)
    BOOST_TEST(t.name != "__consumer_offsets");

  // A commit to the coordinator is fetched back.
  auto other = coordinator == 1 ? 2 : 1;
  auto here = ask_coordinator(c.node(coordinator), group);
  BOOST_REQUIRE(here.actor);
  {
    caf::scoped_actor self{c.node(coordinator).sys};
    bool committed = false;
    group_offset_commit commit{"", std::nullopt, -1, {{topic_partition{"events", 1}, 42, -1, "m"}}};
    self->request(*here.actor, 10s, commit_offsets_atom_v, commit)
      .receive([&] { committed = true; }, [](caf::error& e) { BOOST_FAIL(describe(e)); });
    BOOST_REQUIRE(committed);
  }
  auto fetched = fetch_offsets(c.node(coordinator), *here.actor);
  BOOST_REQUIRE_MESSAGE(fetched, why(fetched));
  BOOST_REQUIRE_EQUAL(fetched->size(), 1u);
  BOOST_TEST(fetched->at(0).offset == 42);
  // Another node does not coordinate it: not_coordinator, naming the coordinator.
  auto elsewhere = ask_coordinator(c.node(other), group);
  BOOST_TEST(!elsewhere.actor);
  BOOST_TEST((elsewhere.error == kafka_error::not_coordinator));
  BOOST_TEST(elsewhere.named == coordinator);

  // The coordinator goes (replication factor 1): nobody coordinates the group.
  c.node(coordinator).stop();
  BOOST_REQUIRE(eventually([&] {
    return ask_coordinator(c.node(other), group).error == kafka_error::coordinator_not_available;
  }));
  // It comes back with its log dir: it coordinates the group again, with its offsets.
  c.start(coordinator - 1);
  BOOST_REQUIRE(eventually([&] { return agreed_coordinator(c, group) == coordinator; }));
  // (Named as soon as it leads the partition; it serves the group once it loaded its offsets.)
  coordinator_reply back;
  BOOST_REQUIRE(eventually([&] { return (back = ask_coordinator(c.node(coordinator), group)).actor.has_value(); }));
  auto again = fetch_offsets(c.node(coordinator), *back.actor);
  BOOST_REQUIRE_MESSAGE(again, why(again));
  BOOST_REQUIRE_EQUAL(again->size(), 1u);
  BOOST_TEST(again->at(0).offset == 42);
  BOOST_TEST(again->at(0).metadata == "m");
}

BOOST_AUTO_TEST_CASE(the_kafka_wire_names_the_coordinator_and_refuses_groups_of_others) {
  three_nodes c{true};
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  const std::string group = "wire-group";
  auto port_of = [&](int id) { return c.node(id).n.listeners.at(0).address.port; };
  int32_t coordinator = -1;
  BOOST_REQUIRE(eventually([&] {
    wire_connection conn{port_of(1)};
    auto [error, id, port] = find_coordinator_v0(conn, group);
    if (error != 0) { // COORDINATOR_NOT_AVAILABLE while the offsets topic is created
      BOOST_TEST(error == protocol::wire_code(kafka_error::coordinator_not_available));
      return false;
    }
    coordinator = id;
    return true;
  }));
  for (int id = 1; id <= 3; ++id) {
    wire_connection conn{port_of(id)};
    auto [error, named, port] = find_coordinator_v0(conn, group);
    BOOST_TEST(error == 0);
    BOOST_TEST(named == coordinator);
    BOOST_TEST(port == port_of(coordinator));
  }
  auto other = coordinator == 1 ? 2 : 1;
  wire_connection to_other{port_of(other)};
  BOOST_TEST(heartbeat_v0(to_other, group) == not_coordinator_code);
  // The coordinator itself knows no such member (the group was never joined).
  BOOST_REQUIRE(eventually([&] {
    wire_connection to_coordinator{port_of(coordinator)};
    return heartbeat_v0(to_coordinator, group) == protocol::wire_code(kafka_error::unknown_member_id);
  }));
}

BOOST_AUTO_TEST_SUITE_END()

// -- the coordinator session: expiry and connection loss (cluster/renewing_session.hpp) --

namespace {

// The owner of the ephemeral at `path` as `observer` reads it (0: no node). The embedded store
// answers before the call returns.
cluster::session_id owner_of(cluster::coordinator& observer, const std::string& path) {
  cluster::session_id out = 0;
  observer.get(path, {}, [&](result<cluster::node_data> r) {
    if (r)
      out = r->stat.ephemeral_owner;
  });
  return out;
}

// How many running brokers act as controller now (their member's acting epoch is not 0).
int acting_controllers(three_nodes& c) {
  int n = 0;
  for (auto& m : c.nodes)
    if (m && m->running && m->n.views->acting_controller_epoch() != 0)
      ++n;
  return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_session_expiry)

BOOST_AUTO_TEST_CASE(an_expired_controller_session_is_renewed_and_a_single_controller_remains) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto created = c.node(1).create(topic_spec{"kept", 6, 1, {}});
  BOOST_REQUIRE_MESSAGE(created, why(created));
  std::vector<int32_t> ls;
  BOOST_REQUIRE(eventually([&] {
    ls = leaders(c.node(1), "kept");
    return all_led(ls) && leaders(c.node(2), "kept") == ls && leaders(c.node(3), "kept") == ls;
  }));
  cluster::embedded_coordinator observer{c.store};
  auto expired = c.controller();
  BOOST_REQUIRE(expired >= 1 && expired <= 3);
  auto& victim = c.node(expired);
  BOOST_REQUIRE(eventually([&] { return victim.n.views->acting_controller_epoch() != 0; }));
  auto old_epoch = victim.n.views->acting_controller_epoch();
  auto old_session = victim.n.coordinator->session();
  BOOST_REQUIRE(owner_of(observer, cluster::broker_path(expired)) == old_session);

  int most_acting = 0; // sampled on every poll below
  BOOST_REQUIRE(c.store->expire_session(old_session));
  BOOST_REQUIRE(eventually([&] {
    auto acting = acting_controllers(c);
    most_acting = std::max(most_acting, acting);
    auto owner = owner_of(observer, cluster::broker_path(expired));
    return owner != 0 && owner != old_session && acting == 1 && c.converged(3)
           && leaders(c.node(1), "kept") == ls && leaders(c.node(expired), "kept") == ls;
  }));
  // Registered again, in the broker's new session, with the same data.
  auto new_session = victim.n.coordinator->session();
  BOOST_TEST(new_session != old_session);
  BOOST_TEST(owner_of(observer, cluster::broker_path(expired)) == new_session);
  BOOST_TEST((c.store->state_of(old_session) == cluster::session_state::expired));
  auto md = c.node(1).metadata({}, true);
  BOOST_REQUIRE(md);
  bool listed = false;
  for (auto& b : md->brokers)
    if (b.id == expired)
      listed = b.kafka_port == 19090 + expired && b.caf_port == 19190 + expired;
  BOOST_TEST(listed);
  // Never two brokers acting as controller; the one now acting does so at a newer epoch.
  BOOST_TEST(most_acting <= 1);
  int32_t acting_epoch = 0;
  for (auto& m : c.nodes)
    acting_epoch = std::max(acting_epoch, m->n.views->acting_controller_epoch());
  BOOST_TEST(acting_epoch > old_epoch);
  // It serves the partitions it leads again (with their data) and takes writes.
  for (size_t p = 0; p < ls.size(); ++p) {
    if (ls[p] != expired)
      continue;
    topic_partition tp{"kept", static_cast<int32_t>(p)};
    BOOST_REQUIRE(eventually([&] { return static_cast<bool>(victim.produce(tp)); }));
  }
  // The topic can still be created and deleted through it.
  auto more = victim.create(topic_spec{"after-expiry", 3, 1, {}});
  BOOST_CHECK_MESSAGE(more, why(more));
}

BOOST_AUTO_TEST_CASE(a_broker_whose_session_expires_twice_rejoins_each_time) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  cluster::embedded_coordinator observer{c.store};
  auto target = c.controller() == 3 ? 2 : 3; // not the controller this time
  for (int round = 0; round < 2; ++round) {
    auto before = c.node(target).n.coordinator->session();
    BOOST_REQUIRE(c.store->expire_session(before));
    BOOST_REQUIRE(eventually([&] {
      auto owner = owner_of(observer, cluster::broker_path(target));
      return owner != 0 && owner != before && c.converged(3) && acting_controllers(c) == 1;
    }));
  }
}

BOOST_AUTO_TEST_CASE(create_topics_while_the_connection_is_lost_is_retriable) {
  three_nodes c;
  BOOST_REQUIRE(eventually([&] { return c.converged(3); }));
  auto id = c.node(2).n.coordinator->session();
  BOOST_REQUIRE(c.store->disconnect_session(id));
  auto refused = c.node(2).create(topic_spec{"later", 3, 1, {}});
  BOOST_REQUIRE(!refused);
  BOOST_TEST((to_kafka_error(refused.error()) == kafka_error::request_timed_out), describe(refused.error()));
  BOOST_REQUIRE(c.store->reconnect_session(id));
  auto created = c.node(2).create(topic_spec{"later", 3, 1, {}}); // the client's retry
  BOOST_CHECK_MESSAGE(created, why(created));
  BOOST_TEST(c.node(2).n.coordinator->session() == id); // a lost connection is not an expiry
}

BOOST_AUTO_TEST_SUITE_END()
