#pragma once
// Client-side helpers of the end-to-end tests: an actor system configured for cafka's
// client, a collecting consumer actor, and bounded waits.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/node_actor.hpp"
#include "client/subscription.hpp"

namespace cafka::test {

struct client_system {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  client_system();
  /// connect() to 127.0.0.1:port, failing the test if that does not work.
  node_actor connect(uint16_t port);
};

/// Everything a collecting consumer received, per partition, in delivery order.
struct collected {
  struct record {
    int64_t offset;
    std::string value;
  };
  std::mutex mutex;
  std::map<int32_t, std::vector<record>> by_partition;
  std::vector<std::string> errors;
  size_t count = 0;

  size_t size() {
    std::lock_guard<std::mutex> g{mutex};
    return count;
  }
};

/// Subscribes one collecting consumer actor to every partition of `topic` (from
/// earliest); returns the consumer (stop it with anon_send_exit).
caf::actor collect_topic(caf::actor_system& sys, node_actor node, const std::string& topic,
                         int32_t partitions, std::shared_ptr<collected> into);

/// Polls `done` every 20 ms for at most `limit`; true if it became true.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit);

} // namespace cafka::test
