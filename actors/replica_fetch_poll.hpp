#pragma once
// The leader's side of a follower's fetch (replica_fetch_request, from a replica fetcher
// on another broker through this node actor): a short-lived actor per request that asks
// every partition at once (each records the follower's progress, which moves the high
// watermark and may add the follower to the ISR), answers if any has data, and otherwise
// waits for the first partition's watch to fire (the next append) or max_wait_ms, then
// asks again and answers. One request, one answer for all the partitions a follower
// follows here, as Kafka's follower Fetch.

#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/replication_messages.hpp"
#include "actors/routing_table.hpp"

namespace cafka::cluster {
class replication_throttle;
}

namespace cafka {

using replica_fetch_poll_actor = caf::typed_actor<
  /// The request (the node actor delegates it here); the poll quits once it answered.
  caf::replies_to<replica_fetch_atom, replica_fetch_request>::with<replica_fetch_result>,
  /// A partition's watch fired, or max_wait_ms ended.
  caf::reacts_to<replica_fetch_atom, uint64_t>, caf::reacts_to<caf::timeout_atom>>;

/// `leaders`: the partition actors this broker leads (the routing table's snapshot);
/// `throttle` (null: none) holds back data of throttled partitions (leader side).
replica_fetch_poll_actor spawn_replica_fetch_poll(caf::actor_system& sys,
                                                  std::shared_ptr<const routing_table::map_type> leaders,
                                                  std::shared_ptr<cluster::replication_throttle> throttle,
                                                  std::function<int64_t()> now_ms);

} // namespace cafka
