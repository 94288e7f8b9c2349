#pragma once
// Brokers in cluster mode inside the client test process: each in its own actor system (as
// separate processes would be), sharing one embedded_store as their coordinator, its node
// actor published on 127.0.0.1 at its caf.port. Used by the client's cluster tests
// (cluster_routing_test.cpp, cluster_group_test.cpp). Waits are bounded polls.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/caf_port.hpp"
#include "protocol/caf_port_handshake.hpp"
#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "fixtures.hpp"

namespace client_test {

// A port that was free a moment ago on 127.0.0.1 (the node registers its caf.port before
// it publishes, so the port must be chosen first).
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

// One broker in cluster mode: its own actor system, log dir and coordinator session; its
// node actor published at its caf.port (a fresh one per start). stop() destroys the actor
// system, which drops every connection to it, as a stopped process would.
struct broker {
  std::unique_ptr<caf::actor_system_config> cfg;
  std::unique_ptr<caf::actor_system> sys;
  cafka::node n;
  uint16_t port = 0;
  std::unique_ptr<cafka::caf_port_publication> published;

  broker(std::shared_ptr<cafka::cluster::embedded_store> store, int32_t id, const std::string& log_dir,
         const std::function<void(cafka::config::server_config&)>& tweak = {}) {
    cfg = std::make_unique<caf::actor_system_config>();
    cafka::configure_actor_system(*cfg);
    cfg->set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(*cfg);
    cafka::config::server_config sc;
    sc.broker_id = id;
    sc.log_dirs = {log_dir};
    sc.listeners = {cafka::config::listener{"PLAINTEXT", "127.0.0.1", 0}};
    sc.caf_port = free_port();
    if (tweak)
      tweak(sc);
    cafka::node_options opts;
    opts.open_session = [store] { return std::make_shared<cafka::cluster::embedded_coordinator>(store); };
    std::string error_text;
    auto started = cafka::start_node(*sys, sc, error_text, opts);
    BOOST_REQUIRE_MESSAGE(started, "start_node: " << error_text);
    n = std::move(*started);
    published = cafka::publish_on_caf_port(*sys, n.actor, "127.0.0.1", sc.caf_port,
                                           std::string{cafka::protocol::caf_handshake::default_secret}, error_text);
    BOOST_REQUIRE_MESSAGE(published, "publish: " << error_text);
    port = published->port();
  }

  ~broker() { stop(); }

  void stop() {
    if (!sys)
      return;
    published.reset();
    auto st = cafka::stop_node(*sys, n);
    BOOST_CHECK_MESSAGE(st, "stop_node: " << (st ? std::string{"ok"} : st.error().message()));
    n = cafka::node{};
    sys.reset();
    cfg.reset();
  }

  std::optional<cafka::cluster_metadata> metadata(std::vector<std::string> topics, bool all = false) {
    using namespace std::chrono_literals;
    caf::scoped_actor self{*sys};
    std::optional<cafka::cluster_metadata> out;
    self->request(n.actor, 10s, cafka::metadata_atom_v, cafka::metadata_request{std::move(topics), all, false})
      .receive([&](cafka::cluster_metadata& md) { out = std::move(md); }, [](caf::error&) {});
    return out;
  }
};

// Polls `ready` up to ~30 s; true once it holds.
template <class F>
bool eventually(F ready) {
  using namespace std::chrono_literals;
  for (int i = 0; i < 600; ++i) {
    if (ready())
      return true;
    std::this_thread::sleep_for(50ms);
  }
  return ready();
}

// The leader of each partition of `topic` as `b` reports it (-1: unavailable).
inline std::vector<int32_t> leaders(broker& b, const std::string& topic) {
  std::vector<int32_t> out;
  auto md = b.metadata({topic});
  if (!md || md->topics.size() != 1 || md->topics[0].error != 0)
    return out;
  for (auto& p : md->topics[0].partitions)
    out.push_back(p.error == 0 ? p.leader : -1);
  return out;
}

} // namespace client_test
