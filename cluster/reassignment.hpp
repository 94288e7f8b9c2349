#pragma once
// Partition reassignment (KIP-455, Kafka's ZooKeeper-era controller): moving a partition's
// replicas to other brokers without losing a record, decided here without I/O.
//
// State: the topic's assignment (/brokers/topics/<topic>) carries, per partition being moved,
// the replicas being added and those being removed (topic_assignment::adding / removing);
// partitions[p] is then the full set: the target replicas first, then the ones leaving. So
// every broker of either set is a replica meanwhile: the new ones open the log and fetch from
// the leader like any follower, the old ones keep serving.
//
// - Start (AlterPartitionReassignments with replicas): target must be non-empty, without
//   duplicates, of registered (live) brokers; INVALID_REPLICA_ASSIGNMENT otherwise, and
//   UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist. The original replicas are
//   the current ones without those being added (so a new target for a partition being moved
//   replaces the old target, as in Kafka). A target of the original brokers (in any order)
//   is no move: the order is written, and a move under way ends as with a cancel.
// - Completion (the controller, after each view): once every target replica is live and in
//   the ISR, the partition state is written first (leader kept if it is a target replica,
//   else the first target replica in the ISR; ISR without the leaving replicas; leader epoch
//   + 1 when the leader changes), then the assignment without adding/removing. A controller that
//   dies between the two finds the partition caught up again and completes it again.
// - Cancel (replicas null): the original replicas return; the state drops the added replicas
//   from the ISR and, if one of them leads, the first live original replica in the ISR leads
//   (none: no leader, until an original replica is back or an unclean election is asked).
//   NO_REASSIGNMENT_IN_PROGRESS for a partition not being moved.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "cluster/controller_decisions.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

/// One partition of an AlterPartitionReassignments: its target replicas, or nullopt to cancel.
struct reassignment_ask {
  std::string topic;
  int32_t partition = 0;
  std::optional<replica_list> target;
};

/// A topic's assignment to write, conditional on the znode version it was planned from.
struct assignment_write {
  std::string topic;
  topic_assignment assignment;
  int32_t expected_version = 0;
};

struct reassignment_outcome {
  std::string topic;
  int32_t partition = 0;
  protocol::kafka_error error = protocol::kafka_error::none;
  std::string message;
};

struct reassignment_plan {
  std::vector<partition_state_write> states;   ///< cancellations that change leader or ISR (first)
  std::vector<assignment_write> assignments;   ///< one per topic touched
  std::vector<reassignment_outcome> outcomes;  ///< one per ask, in order
};

reassignment_plan plan_reassignments(const cluster_view& view, const std::vector<reassignment_ask>& asks,
                                     int32_t controller_epoch);

/// Reassignments caught up: their state writes (first) and assignment writes.
struct reassignment_completion {
  std::vector<partition_state_write> states;
  std::vector<assignment_write> assignments;
};

reassignment_completion complete_reassignments(const cluster_view& view, int32_t controller_epoch);

/// One partition being moved, for ListPartitionReassignments and cafka-topics --describe.
struct reassignment_status {
  std::string topic;
  int32_t partition = 0;
  replica_list replicas, adding, removing;
};

/// Every partition being moved, in (topic, partition) order; only `topics` if not empty.
std::vector<reassignment_status> reassignments_in_progress(const cluster_view& view,
                                                           const std::vector<std::string>& topics = {});

/// The replicas a partition is being moved to (its replicas if it is not being moved).
replica_list target_replicas(const topic_assignment& assignment, int32_t partition);

} // namespace cafka::cluster
