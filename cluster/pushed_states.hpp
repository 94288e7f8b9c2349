#pragma once
// Partition states the controller pushed to the brokers after writing them (Kafka's
// LeaderAndIsr): a broker applies them to its view at once instead of waiting for its
// ZooKeeper watch and the reload that follows, which is how a failover reaches the new
// leader and its followers a round trip sooner.
//
// A pushed state is the znode's content at a version (the write's expected version + 1), so
// versions order it against what a load reads: a state is applied only where the view holds
// an older version of the same partition, of the same topic incarnation (same replicas). A
// load that started before the write may finish after the push and bring the older version
// back: overlay() re-applies what was pushed until a load has caught up with it (or the
// topic is gone or another incarnation), then forgets it. A broker that misses a push reads
// the state from the znode at its next reload, as before.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cluster/cluster_view.hpp"

namespace cafka::cluster {

struct pushed_state {
  std::string topic;
  int32_t partition = 0;
  partition_state state;
  int32_t version = no_state_version; ///< the znode version that holds `state`
};

class pushed_states {
public:
  /// Applies to `view` each state newer than the view's; returns how many it applied.
  size_t push(cluster_view& view, const std::vector<pushed_state>& states);
  /// `loaded` was just read from the znodes: applies the kept states it is older than and
  /// forgets the others.
  void overlay(cluster_view& loaded);
  /// States kept (pushed, not yet seen in a load).
  size_t kept() const noexcept { return kept_.size(); }

private:
  struct kept_state {
    pushed_state pushed;
    replica_list replicas; ///< of the partition when pushed: the topic's incarnation
  };
  std::map<std::pair<std::string, int32_t>, kept_state> kept_;
};

} // namespace cafka::cluster
