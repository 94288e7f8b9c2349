// cafka-server config/server.properties [--override key=value ...]
//
// Starts a node: recovers its logs, publishes the node actor on CAF's middleman at
// caf.port, prints what it listens on, and on SIGINT or SIGTERM shuts down in order
// (partitions closed, logs flushed, checkpoint and clean-shutdown marker written).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <optional>
#include <cstdio>
#include <string_view>
#include <vector>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/caf_port.hpp"
#include "actors/log_line.hpp"
#include "actors/metrics_endpoint.hpp"
#include "actors/node.hpp"
#include "actors/system_config.hpp"
#include "config/server_config.hpp"
#include "protocol/caf_port_handshake.hpp"

namespace {

void raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

// A port that is free on `host` now (the kernel's choice for a bind to port 0); 0 if none.
uint16_t free_port(const std::string& host) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  if (fd < 0 || ::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
    if (fd >= 0)
      ::close(fd);
    return 0;
  }
  socklen_t len = sizeof a;
  uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0
      && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s server.properties [--override key=value ...]\n", argv[0]);
    return 2;
  }
  auto loaded = cafka::config::load_server_config(argv[1], std::vector<std::string_view>(argv + 2, argv + argc));
  if (!loaded) {
    std::fprintf(stderr, "cafka-server: bad configuration: %s\n", loaded.error().message.c_str());
    return 1;
  }
  auto& cfg = loaded->config;
  cafka::set_log_levels(cfg.logging);
  using cafka::log_component;
  using cafka::log_level;
  for (auto& w : loaded->warnings)
    cafka::log_line(log_level::warn, log_component::server, "configuration: %s", w.c_str());
  raise_fd_limit();

  // Block the stop signals before CAF starts its threads, so only sigwait() sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto caf_secret = cfg.caf_secret_file.empty() ? std::string{cafka::protocol::caf_handshake::default_secret}
                                                : cfg.caf_secret;
  auto caf_host = cafka::config::caf_bind_host(cfg);
  if (caf_host != cfg.listeners.front().host)
    cafka::log_line(log_level::warn, log_component::server,
                    "caf.port listens on %s only: set caf.secret.file for brokers and clients on other hosts",
                    caf_host.c_str());

  caf::actor_system_config sys_cfg;
  cafka::configure_actor_system(sys_cfg);
  cafka::set_caf_secret(sys_cfg, caf_secret); // what this broker proves to the others
  caf::actor_system sys{sys_cfg};

  // In a cluster the broker registers its caf.port in /brokers/ids before the node actor
  // exists to be published, and the others reach it there: caf.port=0 (any free port)
  // becomes a concrete free port first.
  if (!cfg.zookeeper_connect.empty() && cfg.caf_port == 0)
    cfg.caf_port = free_port(caf_host);

  std::string error_text;
  auto node = cafka::start_node(sys, cfg, error_text);
  if (!node) {
    cafka::log_line(log_level::error, log_component::server, "cannot start: %s", error_text.c_str());
    return 1;
  }
  auto published = cafka::publish_on_caf_port(sys, node->actor, caf_host, cfg.caf_port, caf_secret, error_text);
  if (!published) {
    cafka::log_line(log_level::error, log_component::server, "caf.port %u on %s: %s", cfg.caf_port, caf_host.c_str(),
                    error_text.c_str());
    cafka::stop_node(sys, *node);
    return 1;
  }
  // The metrics endpoint comes last: /ready may say ready only once the listeners are open.
  std::optional<cafka::metrics_endpoint> metrics;
  if (cfg.metrics_listener) {
    auto started = cafka::start_metrics_endpoint(sys, cfg.metrics_listener->host, cfg.metrics_listener->port,
                                                 {node->actor, node->groups, node->metrics}, error_text);
    if (!started) {
      cafka::log_line(log_level::error, log_component::server, "cannot start: %s", error_text.c_str());
      published.reset();
      cafka::stop_node(sys, *node);
      return 1;
    }
    metrics = std::move(*started);
  }
  std::string kafka;
  for (auto& l : node->listeners)
    kafka += "kafka " + l.address.host + ":" + std::to_string(l.address.port) + ", ";
  auto metrics_text = metrics ? ", metrics " + metrics->host + ":" + std::to_string(metrics->port) : std::string{};
  cafka::log_line(log_level::info, log_component::server, "broker %d listening: %scaf %s:%u%s (log.dirs %s)",
                  cfg.broker_id, kafka.c_str(), caf_host.c_str(), published->port(), metrics_text.c_str(),
                  cfg.log_dirs.front().c_str());

  int sig = 0;
  sigwait(&stop_signals, &sig);
  cafka::log_line(log_level::info, log_component::server, "%s received, shutting down",
                  sig == SIGINT ? "SIGINT" : "SIGTERM");
  if (metrics)
    cafka::stop_metrics_endpoint(*metrics);
  published.reset();
  auto st = cafka::stop_node(sys, *node);
  if (!st) {
    cafka::log_line(log_level::error, log_component::server, "shutdown: %s", st.error().message().c_str());
    return 1;
  }
  cafka::log_line(log_level::info, log_component::server, "stopped cleanly");
  return 0;
}
