#pragma once
// What the controller writes, as pure decisions over a cluster_view (cluster/cluster_view.hpp).
// The controller actor loads the view, calls one of these, and writes the result
// (cluster/cluster_writes.hpp); it never edits znodes by other rules.
//
// Rules (Kafka's controller, without replica copying, which comes with a later issue):
// - A new topic's partitions are placed by place_replicas over the live brokers; each starts
//   with its preferred replica as leader, ISR = replicas, leader epoch 0.
// - When the live brokers change, a partition whose recorded leader is not live gets
//   elect_leader(replicas, isr, live, unclean): the first live ISR member in assignment
//   order; else, when unclean.leader.election.enable holds for the topic (its override, else
//   the broker default), the first live replica, with ISR = [it] (records it lacks are lost);
//   else no_broker ("offline" until an ISR member returns). Brokers that are not live leave the ISR, except
//   that the ISR never becomes empty: the last in-sync replicas stay in it, so that when one
//   of them returns it becomes the leader again (with replication factor 1 the only replica
//   stays in the ISR and its partitions are offline until it returns, data intact).
// - The leader epoch grows by one on every leader change (offline included); an ISR-only
//   change keeps it. Partitions that do not change get no write.
// - Every write carries the writing controller's epoch. A write is valid only if that epoch is
//   not older than the one stored (should_apply_partition_state); on_brokers_changed emits no
//   write for a partition last written by a newer controller — this controller is deposed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "cluster/metadata.hpp"
#include "cluster/replica_placement.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

/// A new topic as the controller publishes it: partition_states[p] belongs to
/// assignment.partitions[p].
struct new_topic {
  topic_assignment assignment;
  std::vector<partition_state> partition_states;
};

/// One partition state to write, conditional on the znode version it was decided from.
struct partition_state_write {
  std::string topic;
  int32_t partition = 0;
  partition_state state;
  int32_t expected_version = no_state_version; ///< from the view; no_state_version: create it
  bool unclean = false; ///< the leader was elected from outside the ISR (for the log)

  friend bool operator==(const partition_state_write& a, const partition_state_write& b) {
    return a.topic == b.topic && a.partition == b.partition && a.state == b.state
           && a.expected_version == b.expected_version;
  }
};

/// `options` with the racks of the view's live brokers (broker.rack): placement is rack-aware
/// when every live broker has one (cluster/replica_placement.hpp).
placement_options with_racks(const cluster_view& view, placement_options options = {});

/// Placement of a new topic over the view's live brokers. Errors: node_exists if the view
/// already has the topic (Kafka: TOPIC_ALREADY_EXISTS), invalid_partitions if partitions < 1,
/// invalid_replication_factor if replication_factor < 1 or above the number of live brokers.
result<new_topic> place_new_topic(const cluster_view& view, const std::string& name,
                                  int32_t partitions, int32_t replication_factor,
                                  int32_t controller_epoch,
                                  const placement_options& options = {});

/// A new topic with the replicas given (CreateTopics' manual assignment; element p is
/// partition p's list, preferred leader first), each partition led by its first replica.
/// Errors: node_exists if the view has the topic; invalid_replica_assignment for no
/// partitions, an empty list, lists of different lengths, a broker twice in a list or a
/// broker that is not live (Kafka's validateReplicas).
result<new_topic> assign_new_topic(const cluster_view& view, const std::string& name,
                                   std::vector<replica_list> assignment, int32_t controller_epoch);

/// The partition state writes after the live brokers became `live_brokers` (the view's
/// own broker set is not consulted), in (topic, partition) order; empty when nothing changes.
/// Partitions whose state was not read (state_version no_state_version) get no write.
std::vector<partition_state_write> on_brokers_changed(const cluster_view& view,
                                                      const std::vector<int32_t>& live_brokers,
                                                      int32_t controller_epoch, bool unclean_default = false);

/// unclean.leader.election.enable of a topic: its override if it is "true" or "false", else
/// `broker_default`.
bool unclean_election_enabled(const topic_config& config, bool broker_default);

/// Whether a write may replace `stored` (nullopt: no state yet): only if it does not come from
/// an older controller (is_stale_controller_epoch).
bool should_apply_partition_state(const std::optional<partition_state>& stored,
                                  const partition_state& write) noexcept;

} // namespace cafka::cluster
