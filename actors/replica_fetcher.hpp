#pragma once
// The replica fetcher: one actor per (this follower broker, leader broker) pair, spawned
// and told what to follow by the node actor (actors/node_replicas.hpp). It drives the
// local partition actors that follow that leader:
//
//   1. truncating  for each partition that starts following (a new leader epoch): ask the
//                  local replica where it ends and its latest epoch, ask the leader for the
//                  end offset of that epoch (OffsetForLeaderEpoch, epoch_end_atom at the
//                  leader's node actor), let the replica truncate to the divergence point
//                  (asking again while KIP-279 says so);
//   2. fetching    one long poll (replica_fetch_request: every fetching partition, max_wait
//                  replica.fetch.wait.max.ms) to the leader's node actor over CAF's
//                  middleman, the answers appended by the local replicas byte for byte,
//                  then the next poll. OFFSET_OUT_OF_RANGE restarts the partition from the
//                  leader's range (a follower that fell below the leader's log start
//                  begins at the log start).
//
// Requests have finite timeouts; a lost connection, a timeout or a leader that is not
// (yet) leading makes the fetcher wait replica.fetch.backoff.ms before trying again. A
// partition fenced by a newer leader epoch waits for the node's next follow message.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "actors/partition_actor.hpp"

namespace cafka::cluster {
class replication_throttle;
}

namespace cafka {

/// One partition to follow: its local replica and the leader epoch it follows.
struct followed_partition {
  topic_partition tp;
  partition_actor local;
  int32_t leader_epoch = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, followed_partition& x) {
  return f(caf::meta::type_name("followed_partition"), x.tp, x.local, x.leader_epoch);
}

struct replica_fetcher_config {
  int32_t broker_id = 0;  ///< this follower
  int32_t leader_id = 0;
  int32_t fetch_wait_max_ms = 500; ///< replica.fetch.wait.max.ms
  int32_t fetch_max_bytes = 1 << 20; ///< replica.fetch.max.bytes
  int32_t backoff_ms = 1000;        ///< replica.fetch.backoff.ms
  /// Follower-side replication quota (null: none); now_ms is its clock.
  std::shared_ptr<cluster::replication_throttle> throttle;
  std::function<int64_t()> now_ms;
};

/// Messages: (follow_atom, std::vector<followed_partition>, std::string host, uint16_t
/// caf_port) replaces what it follows and where the leader is; an exit stops it.
caf::actor spawn_replica_fetcher(caf::actor_system& sys, replica_fetcher_config cfg);

} // namespace cafka
