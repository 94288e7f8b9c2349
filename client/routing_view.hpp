#pragma once
// Routing in a cluster, as pure logic (no actor system): what a client learns from one
// broker's cluster_metadata and what it does next.
//
// A broker's metadata (actors/node_actor.hpp) lists every live broker (host, caf.port)
// and every partition's leader, but hands out partition actors only for the partitions
// that broker serves itself. So the client routes in two steps: the metadata of any
// broker tells it who leads what; the metadata of a leader gives it that leader's
// partition actors (fill_actors). A partition whose leader could not be asked stays
// without actor and is marked LEADER_NOT_AVAILABLE (mark_unrouted): producer and
// subscription then back off and ask again, as they do for any retriable error.
//
// Errors (routing_decision): NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE and a lost
// partition actor or connection (network errors, CAF's request_receiver_down /
// request_timeout, the exit reason in a partition actor's down message) -> refresh the
// metadata and retry; UNKNOWN_TOPIC_OR_PARTITION is final unless the client asked for
// auto-creation (then the topic may be on its way); other errors follow retry.hpp's
// is_retriable.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "client/bootstrap.hpp"

namespace cafka::client {

/// Who leads what, and where each broker's node actor is published.
struct routing_view {
  std::map<int32_t, endpoint> brokers;         ///< broker id -> host:caf.port (port > 0)
  std::map<topic_partition, int32_t> leaders;  ///< partitions with a live leader

  static routing_view from(const cluster_metadata& md);

  /// The leader of `tp`, if it has a live one.
  std::optional<int32_t> leader_of(const topic_partition& tp) const;

  /// Where broker `id` publishes its node actor, if it is live and has a caf.port.
  std::optional<endpoint> address_of(int32_t id) const;
};

/// For each broker that leads partitions `md` has no actor for (and that `md` gives an
/// address for): the topics to ask that broker about. Empty on a single node, where the
/// metadata already carries every partition actor.
std::map<int32_t, std::vector<std::string>> actors_to_fetch(const cluster_metadata& md);

/// Copies into `md` the partition actors `from_leader` (the metadata answered by broker
/// `leader`) holds for partitions `md` records `leader` as the leader of. Returns how
/// many were filled.
size_t fill_actors(cluster_metadata& md, int32_t leader, cluster_metadata& from_leader);

/// Marks every partition still without an actor (and without an error) as
/// LEADER_NOT_AVAILABLE with leader -1. Returns how many were marked.
size_t mark_unrouted(cluster_metadata& md);

enum class route_action {
  refresh_and_retry, ///< fresh metadata (through any live link), backoff, same request
  fail,              ///< final: report it
};

/// What to do after `err` from a partition actor, a node or a link. `auto_create`: the
/// client asked for topics to be created on first use.
route_action routing_decision(const caf::error& err, bool auto_create) noexcept;

} // namespace cafka::client
