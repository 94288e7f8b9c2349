#pragma once
// The client's routing link in a cluster: the same interface as a node link
// (node_link.hpp), so the producer, subscriptions and group members use it unchanged, but
// its metadata answers carry the partition actor of EVERY partition with a live leader,
// not only of those the bootstrap node serves.
//
// How (the pure steps are client/routing_view.hpp):
// 1. Ask a node for metadata: the bootstrap link first; if it fails with a retriable error
//    (within connect_timeout when other links exist), the links to other brokers in turn.
// 2. For partitions led elsewhere (no actor in that answer), ask each leader's node for the
//    metadata of those topics through a node link to its host:caf.port, created on demand
//    (one per broker; replaced when the broker's address changes, e.g. after a restart on
//    another port; dropped when the broker leaves the metadata). Each leader answers with
//    the actors of the partitions it serves.
// 3. Partitions whose leader could not be asked within connect_timeout are answered as
//    LEADER_NOT_AVAILABLE; the caller backs off and asks again (its usual retry).
//
// A single node needs no extra hop: its metadata already carries every partition actor,
// so step 2 never runs. get_atom (the node actor) is the bootstrap link's node. Lost
// partition actors and NOT_LEADER_OR_FOLLOWER / LEADER_NOT_AVAILABLE answers are noticed by
// the owners (producer, subscription), which drop the actor, back off and ask this link for
// metadata again.
//
// Groups (group_coordinator_atom, the one message a cluster link adds to a node link's):
// the group's actor from the broker that coordinates it. The link asks the bootstrap node;
// on NOT_COORDINATOR naming another broker (client/coordinator_hop.hpp) it asks that
// broker's node through the broker's link (its address from the bootstrap node's metadata),
// at most one hop; any other outcome is the answer. The caller backs off and asks again on
// a retriable error, as for metadata. The whole lookup has request_timeout.
//
// Stops (with every node link it made) when it is sent an exit message.

#include <string>

#include <caf/fwd.hpp>

#include "client/node_link.hpp"

namespace cafka::client {

using cluster_link_actor = node_link_actor::extend<
  /// The actor of the group, from the broker that coordinates it (one hop at most).
  caf::replies_to<group_coordinator_atom, std::string>::with<group_actor>,
  /// The node actor of the broker that coordinates a transactional id (FindCoordinator key
  /// type 1 asked of the bootstrap node, then that broker's link).
  caf::replies_to<txn_coordinator_atom, std::string>::with<node_actor>>;

/// Spawns a routing link; `node` and `opts` as for spawn_node_link (they make the
/// bootstrap link).
cluster_link_actor spawn_cluster_link(caf::actor_system& sys, node_actor node, link_options opts);

/// spawn_cluster_link in the system of `owner`, stopped when `owner` terminates (the link
/// of a producer, subscription or group member).
cluster_link_actor spawn_owned_cluster_link(caf::local_actor* owner, node_actor node, link_options opts);

} // namespace cafka::client
