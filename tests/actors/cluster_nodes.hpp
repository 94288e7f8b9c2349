#pragma once
// Brokers in cluster mode inside one test process, each in its own caf::actor_system as
// separate processes would be, sharing one embedded_store as their coordinator (with
// `network`, CAF's middleman too, and the node actor published at its caf.port): the
// fixtures of cluster_node_test.cpp and replication_test.cpp.
//
// Waits for the cluster to converge are bounded polls (a fixed number of short sleeps):
// they fail when the state never arrives, and never assert on how long it took.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/caf_port.hpp"
#include "protocol/caf_port_handshake.hpp"
#include "actors/cluster_view_cache.hpp"
#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "protocol/record_batch.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace cafka::cluster_test {

using namespace std::chrono_literals;

inline constexpr int leader_not_available = 5;

// The error of a failed `e` for a failure message ("" when it holds a value).
template <class T>
std::string why(const caf::expected<T>& e) {
  return e ? std::string{} : describe(e.error());
}

// A port that was free a moment ago on 127.0.0.1.
inline uint16_t free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  BOOST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  BOOST_REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// One broker: its own actor system, log dir and coordinator session of the shared store.
struct member_node {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  node n;
  bool running = false;
  std::unique_ptr<caf_port_publication> published; ///< the node actor at its caf.port, if published

  // network: load CAF's network layer, so that the node opens its Kafka listener.
  static caf::actor_system_config& prepare(caf::actor_system_config& c, bool network) {
    if (network)
      configure_actor_system(c);
    else
      register_cafka_types(c);
    c.set("scheduler.max-threads", 2); // three systems share two cores
    return c;
  }

  // With `network`, the listener binds a free port on 127.0.0.1 (registered as bound).
  member_node(std::shared_ptr<cluster::embedded_store> store, int32_t id, const std::string& log_dir,
              bool network = false)
    : sys(prepare(cfg, network)) {
    config::server_config sc;
    sc.broker_id = id;
    sc.log_dirs = {log_dir};
    auto port = network ? uint16_t{0} : static_cast<uint16_t>(19090 + id);
    sc.listeners = {config::listener{"PLAINTEXT", "127.0.0.1", port}};
    sc.caf_port = network ? free_port() : static_cast<uint16_t>(19190 + id);
    sc.num_partitions = 3;
    // Without CAF's network layer no follower fetches: __consumer_offsets keeps one replica
    // (an acks=all commit would wait for followers that never come).
    if (!network)
      sc.offsets_topic_replication_factor = 1;
    node_options opts;
    opts.open_session = [store] { return std::make_shared<cluster::embedded_coordinator>(store); };
    std::string error_text;
    auto started = start_node(sys, sc, error_text, opts);
    BOOST_REQUIRE_MESSAGE(started, error_text);
    n = std::move(*started);
    running = true;
    if (network) { // as cafka-server does: the node actor at caf.port
      published = publish_on_caf_port(sys, n.actor, "127.0.0.1", sc.caf_port,
                                      std::string{protocol::caf_handshake::default_secret}, error_text);
      BOOST_REQUIRE_MESSAGE(published, error_text);
    }
  }

  void stop() {
    published.reset();
    if (running)
      BOOST_CHECK(stop_node(sys, n));
    running = false;
  }

  ~member_node() { stop(); }

  std::optional<cluster_metadata> metadata(std::vector<std::string> topics, bool all = false) {
    caf::scoped_actor self{sys};
    std::optional<cluster_metadata> out;
    self->request(n.actor, 10s, metadata_atom_v, metadata_request{std::move(topics), all, false})
      .receive([&](cluster_metadata& md) { out = std::move(md); }, [](caf::error&) {});
    return out;
  }

  caf::expected<topic_description> create(topic_spec spec) {
    caf::scoped_actor self{sys};
    caf::expected<topic_description> out{caf::error{}};
    self->request(n.actor, 10s, create_topic_atom_v, std::move(spec))
      .receive([&](topic_description& d) { out = std::move(d); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  caf::expected<produce_result> produce(const topic_partition& tp, int n_records = 1) {
    caf::scoped_actor self{sys};
    caf::expected<produce_result> out{caf::error{}};
    auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
    for (int i = 0; i < n_records; ++i)
      self->request(n.actor, 10s, produce_atom_v, tp, produce_request{1, batch})
        .receive([&](produce_result& r) { out = r; }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  caf::expected<offset_answer> log_end(const topic_partition& tp) {
    caf::scoped_actor self{sys};
    caf::expected<offset_answer> out{caf::error{}};
    self->request(n.actor, 10s, list_offsets_atom_v, tp, latest_timestamp)
      .receive([&](offset_answer& a) { out = a; }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }
};

// Polls `ready` up to ~20 s; true once it holds.
template <class F>
bool eventually(F ready) {
  for (int i = 0; i < 400; ++i) {
    if (ready())
      return true;
    std::this_thread::sleep_for(50ms);
  }
  return ready();
}

// Leader per partition of `topic` as `m` reports it (-1: unavailable).
inline std::vector<int32_t> leaders(member_node& m, const std::string& topic) {
  std::vector<int32_t> out;
  auto md = m.metadata({topic});
  if (!md || md->topics.size() != 1 || md->topics[0].error != 0)
    return out;
  for (auto& p : md->topics[0].partitions)
    out.push_back(p.error == 0 ? p.leader : -1);
  return out;
}

inline bool all_led(const std::vector<int32_t>& ls) {
  return !ls.empty() && std::all_of(ls.begin(), ls.end(), [](int32_t l) { return l >= 0; });
}

inline std::vector<std::string> folders_of(const std::string& dir, const std::string& topic) {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    auto name = e.path().filename().string();
    if (e.is_directory() && name.rfind(topic + "-", 0) == 0)
      out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct three_nodes {
  std::shared_ptr<cluster::embedded_store> store = std::make_shared<cluster::embedded_store>();
  test::temp_folder dirs[3];
  std::unique_ptr<member_node> nodes[3];
  bool network = false;

  explicit three_nodes(bool with_network = false) : network(with_network) {
    for (int i = 0; i < 3; ++i)
      start(i);
  }

  void start(int i) {
    nodes[i].reset(); // releases the log dir's lock first
    nodes[i] = std::make_unique<member_node>(store, i + 1, dirs[i].path, network);
  }

  member_node& node(int id) { return *nodes[id - 1]; }

  // Every running node sees the same `n` brokers and the same controller.
  bool converged(size_t n) {
    std::optional<int32_t> controller;
    for (auto& m : nodes) {
      if (!m || !m->running)
        continue;
      auto md = m->metadata({}, true);
      if (!md || md->brokers.size() != n || md->controller_id < 0)
        return false;
      if (controller && *controller != md->controller_id)
        return false;
      controller = md->controller_id;
    }
    return true;
  }

  int32_t controller() { return node(1).running ? node(1).metadata({}, true)->controller_id
                                                : node(2).metadata({}, true)->controller_id; }
};

// -- groups across nodes --

// What a node answers to group_coordinator_atom: the group's actor, or the error and (for
// not_coordinator) the coordinator's id from the error's context.
struct coordinator_reply {
  std::optional<group_actor> actor;
  kafka_error error = kafka_error::none;
  int32_t named = -1;
};

inline coordinator_reply ask_coordinator(member_node& m, const std::string& group) {
  caf::scoped_actor self{m.sys};
  coordinator_reply out;
  self->request(m.n.actor, 10s, group_coordinator_atom_v, group)
    .receive([&](group_actor& g) { out.actor = g; },
             [&](caf::error& e) {
               out.error = to_kafka_error(e);
               if (e.context().match_element<int32_t>(0))
                 out.named = e.context().get_as<int32_t>(0);
             });
  return out;
}

// The broker every running node names as the group's coordinator (-1 until they agree).
inline int32_t agreed_coordinator(three_nodes& c, const std::string& group) {
  int32_t coordinator = -1;
  for (int id = 1; id <= 3; ++id) {
    if (!c.node(id).running)
      continue;
    auto r = ask_coordinator(c.node(id), group);
    auto named = r.actor ? id : (r.error == kafka_error::not_coordinator ? r.named : -1);
    if (named < 0 || (coordinator >= 0 && named != coordinator))
      return -1;
    coordinator = named;
  }
  return coordinator;
}

inline caf::expected<std::vector<group_offset>> fetch_offsets(member_node& m, group_actor g) {
  caf::scoped_actor self{m.sys};
  caf::expected<std::vector<group_offset>> out{caf::error{}};
  self->request(g, 10s, fetch_offsets_atom_v, group_offset_query{true, {}})
    .receive([&](std::vector<group_offset>& found) { out = std::move(found); },
             [&](caf::error& e) { out = std::move(e); });
  return out;
}

} // namespace cafka::cluster_test
