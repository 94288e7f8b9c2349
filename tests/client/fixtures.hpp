#pragma once
// End-to-end fixtures: a cafka node in one actor system, published on 127.0.0.1 (port 0
// or a given one), and a client in a SECOND actor system that reaches it over loopback
// through CAF's middleman. Plus a consumer actor that records what it gets.
//
// Every wait is bounded (wait_until); nothing asserts on timing.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/error.hpp>
#include <caf/expected.hpp>
#include <caf/fwd.hpp>

#include "actors/caf_port.hpp"
#include "actors/node.hpp"
#include "client/consumer_records.hpp"
#include "config/server_config.hpp"
#include "protocol/batch_header.hpp"

namespace client_test {

/// A fresh, unique directory under /tmp (removed by the destructor).
struct temp_dir {
  temp_dir();
  ~temp_dir();
  std::string path;
};

/// A node in its own actor system. stop() (also run by the destructor) shuts it down and
/// destroys the actor system, which drops every connection to it.
class server {
public:
  /// `port` 0: any free port. `tweak` may change the node's config (log.dirs is set).
  server(const std::string& log_dir, uint16_t port = 0,
         std::function<void(cafka::config::server_config&)> tweak = {});
  ~server();
  void stop();
  uint16_t port() const { return port_; }
  cafka::node_actor node() const { return node_.actor; }

private:
  std::unique_ptr<caf::actor_system_config> cfg_;
  std::unique_ptr<caf::actor_system> sys_;
  cafka::node node_;
  uint16_t port_ = 0;
  std::unique_ptr<cafka::caf_port_publication> published_;
};

/// The client's actor system (configure_client).
class client_system {
public:
  client_system();
  ~client_system();
  caf::actor_system& sys() { return *sys_; }

private:
  std::unique_ptr<caf::actor_system_config> cfg_;
  std::unique_ptr<caf::actor_system> sys_;
};

/// What a sink consumer saw; shared with the test thread.
struct sink_log {
  std::mutex mtx;
  std::condition_variable cv;
  std::map<int32_t, std::vector<cafka::protocol::decoded_record>> by_partition;
  std::vector<cafka::client::consumer_error> errors;
  std::set<cafka::protocol::compression_codec> codecs;
  size_t records = 0;
  size_t deliveries = 0;
  int outstanding = 0;     ///< consumer_records taken but not yet answered
  int max_outstanding = 0; ///< per subscription the fetcher allows 1

  /// Waits until `pred(*this)` holds (true) or `timeout` passes (false).
  bool wait_until(const std::function<bool(sink_log&)>& pred,
                  std::chrono::milliseconds timeout = std::chrono::seconds(60));
};

/// A consumer actor: decodes every consumer_records into `log` and answers it through a
/// response promise `ack_delay` later (0: at once, still through its mailbox).
caf::actor spawn_sink(caf::actor_system& sys, std::shared_ptr<sink_log> log,
                      std::chrono::milliseconds ack_delay = std::chrono::milliseconds(0));

/// Creates `topic` with `partitions` partitions through `node` (blocking, bounded).
void create_topic(caf::actor_system& sys, const cafka::node_actor& node, const std::string& topic,
                  int32_t partitions);

/// The rendered error of `x`, or "ok" (safe to use in BOOST_*_MESSAGE, which may
/// evaluate its message even when the check passes).
std::string why(const caf::error& err);
template <class T>
std::string why(const caf::expected<T>& x) {
  return x ? std::string{"ok"} : why(x.error());
}

/// Stops `a` and waits (bounded) until it is gone.
void stop_actor(caf::actor_system& sys, const caf::actor& a);

} // namespace client_test
