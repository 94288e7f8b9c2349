#pragma once
// Which broker coordinates a consumer group (or a transactional id) in cluster mode: the leader of the group's
// partition of the __consumer_offsets topic (offsets_partition_for over the topic's
// partition count as the view records it, so every broker computes the same partition even
// if their offsets.topic.num.partitions differ), as Kafka's FindCoordinator answers.
//
// The topic may not exist yet (it is created on first need, see docs/cluster.md): then
// `partition` is -1. A partition whose recorded leader is not live has no coordinator
// (COORDINATOR_NOT_AVAILABLE for clients): with replication factor 1 that lasts until the
// broker returns.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cluster/cluster_view.hpp"
#include "cluster/metadata.hpp"

namespace cafka::cluster {

struct group_coordinator_location {
  /// The group's partition of __consumer_offsets; -1 while the topic does not exist.
  int32_t partition = -1;
  /// Its leader if that broker is live, else no_broker.
  int32_t coordinator = no_broker;
  /// The live coordinator's registration (host, Kafka port, CAF port).
  std::optional<broker_registration> broker;

  bool topic_exists() const noexcept { return partition >= 0; }
  bool available() const noexcept { return broker.has_value(); }
};

/// Where `group`'s coordinator is according to `view`.
group_coordinator_location locate_group_coordinator(const cluster_view& view, std::string_view group);

/// Where the transaction coordinator of `transactional_id` is: the leader of its partition of
/// __transaction_state (txn_partition_for over the recorded partition count), as for groups.
group_coordinator_location locate_txn_coordinator(const cluster_view& view, std::string_view transactional_id);

} // namespace cafka::cluster
