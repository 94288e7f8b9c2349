#pragma once
// The broker (node) actor: the topic registry, partition actors, metadata, and the
// orderly shutdown. Published on CAF's middleman at caf.port, it is what cafka's C++
// client talks to first; metadata hands out the partition actors themselves, so that
// produce and fetch go straight to them and never through this actor.
//
// In cluster mode (node_context::views set; see docs/cluster.md) topics, placement and
// leaders come from the cluster view its cluster member (actors/cluster_member.hpp)
// loads: the node serves exactly the partitions the view records it as leader of, answers
// metadata from the view (every live broker, every partition's leader), and hands topic
// creation and deletion to the member.

#include <cstdint>
#include <string>
#include <vector>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"
#include "actors/group_actor.hpp"
#include "actors/messages.hpp"
#include "actors/partition_actor.hpp"
#include "actors/producer_messages.hpp"
#include "actors/replication_messages.hpp"
#include "metrics/broker_report.hpp"
#include "protocol/wire/configs.hpp"
#include "protocol/wire/describe_log_dirs.hpp"

namespace cafka {

struct broker_info {
  int32_t id = 0;
  std::string host;
  int32_t kafka_port = 0;
  int32_t caf_port = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, broker_info& x) {
  return f(caf::meta::type_name("broker_info"), x.id, x.host, x.kafka_port, x.caf_port);
}

struct partition_metadata {
  int32_t partition = 0;
  int16_t error = 0; ///< a Kafka error code (kafka_error), 0 when the partition is served
  int32_t leader = -1;
  std::vector<int32_t> replicas;
  partition_actor actor; ///< the leader's partition actor
  std::vector<int32_t> isr;
  std::vector<int32_t> offline_replicas; ///< replicas whose broker is not live
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_metadata& x) {
  return f(caf::meta::type_name("partition_metadata"), x.partition, x.error, x.leader, x.replicas,
           x.actor, x.isr, x.offline_replicas);
}

struct topic_metadata {
  std::string name;
  int16_t error = 0; ///< a Kafka error code, e.g. unknown_topic_or_partition
  std::vector<partition_metadata> partitions;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, topic_metadata& x) {
  return f(caf::meta::type_name("topic_metadata"), x.name, x.error, x.partitions);
}

struct cluster_metadata {
  int32_t controller_id = -1;
  std::vector<broker_info> brokers;
  std::vector<topic_metadata> topics;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_metadata& x) {
  return f(caf::meta::type_name("cluster_metadata"), x.controller_id, x.brokers, x.topics);
}

/// all_topics: every topic (then `topics` is ignored). allow_auto_create: create the
/// unknown ones when auto.create.topics.enable is on.
struct metadata_request {
  std::vector<std::string> topics;
  bool all_topics = false;
  bool allow_auto_create = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, metadata_request& x) {
  return f(caf::meta::type_name("metadata_request"), x.topics, x.all_topics, x.allow_auto_create);
}

using node_actor = caf::typed_actor<
  /// Brokers, topics, partitions and their leaders' partition actors.
  caf::replies_to<metadata_atom, metadata_request>::with<cluster_metadata>,
  /// Creates a topic (errors: topic_already_exists, invalid_partitions,
  /// invalid_replication_factor, invalid_config, invalid_topic_exception).
  caf::replies_to<create_topic_atom, topic_spec>::with<topic_description>,
  /// Deletes a topic and its data; replies with its name.
  caf::replies_to<delete_topic_atom, std::string>::with<std::string>,
  /// The same, forwarded by another broker of the cluster to this one (its controller):
  /// handled here, never forwarded again.
  caf::replies_to<create_topic_atom, topic_spec, forwarded_atom>::with<topic_description>,
  caf::replies_to<delete_topic_atom, std::string, forwarded_atom>::with<std::string>,
  /// Adds partitions to a topic; replies with its new partition count (errors:
  /// unknown_topic_or_partition, invalid_partitions, invalid_replica_assignment,
  /// invalid_replication_factor, request_timed_out). Done by the controller in a cluster
  /// (forwarded there as above).
  caf::replies_to<add_partitions_atom, partition_addition_request>::with<int32_t>,
  caf::replies_to<add_partitions_atom, partition_addition_request, forwarded_atom>::with<int32_t>,
  /// Configuration and per-partition offsets of a topic.
  caf::replies_to<describe_atom, std::string>::with<topic_description>,
  caf::replies_to<list_topics_atom>::with<std::vector<std::string>>,
  /// The actor of the consumer group this node coordinates, spawned on first use (error:
  /// not_coordinator while the node shuts down). cafka's client joins, heartbeats and
  /// commits through it directly. In cluster mode only the leader of the group's
  /// __consumer_offsets partition coordinates it: elsewhere the error is not_coordinator
  /// with context (coordinator id, text), or coordinator_not_available while it has none.
  caf::replies_to<group_coordinator_atom, std::string>::with<group_actor>,
  /// FindCoordinator with key type 1: the broker coordinating a transactional id (errors:
  /// coordinator_not_available while __transaction_state is created, which the first lookup
  /// does, or while the id's partition has no live leader).
  caf::replies_to<find_txn_coordinator_atom, std::string>::with<broker_info>,
  /// A transaction coordinator's marker for a partition: written by its leader's actor here,
  /// else relayed to the broker that leads it (forwarded: from another broker, not relayed again).
  caf::replies_to<txn_marker_atom, topic_partition, txn_marker_request>::with<produce_result>,
  caf::replies_to<txn_marker_atom, topic_partition, txn_marker_request, forwarded_atom>::with<produce_result>,
  /// cafka's producer: InitProducerId (with a transactional id: answered by this broker's
  /// transaction coordinator, NOT_COORDINATOR if the id is not coordinated here).
  caf::replies_to<init_producer_id_atom, producer_id_request>::with<producer_id_answer>,
  /// cafka's transactional producer: AddPartitionsToTxn / AddOffsetsToTxn / EndTxn, answered
  /// with a Kafka error code by this broker's transaction coordinator.
  caf::replies_to<txn_request_atom, txn_request>::with<int16_t>,
  /// The ids of the groups this node coordinates (with members or committed offsets).
  caf::replies_to<list_groups_atom>::with<std::vector<std::string>>,
  /// Closes every partition actor and stops (only from this process). The logs are then
  /// the caller's to close (see actors/node.hpp).
  caf::replies_to<shutdown_atom>::with<bool>,
  /// Internal timer: write the recovery-point checkpoint.
  caf::reacts_to<caf::tick_atom>,
  /// Produce, fetch and list offsets through the node, for callers that hold no partition
  /// actor: served by the partition's actor here, else not_leader_or_follower (the cluster
  /// has the partition on another broker) or unknown_topic_or_partition — the native
  /// equivalent of the wire's error codes.
  caf::replies_to<produce_atom, topic_partition, produce_request>::with<produce_result>,
  caf::replies_to<fetch_atom, topic_partition, fetch_request>::with<fetch_result>,
  caf::replies_to<list_offsets_atom, topic_partition, int64_t>::with<offset_answer>,
  /// Cluster mode, from this node's cluster member: the cluster view changed; open or close
  /// partition actors to match it.
  caf::reacts_to<caf::update_atom>,
  /// Replication, from a follower broker's replica fetcher (docs/replication.md): its long
  /// poll over every partition it follows here, and OffsetForLeaderEpoch (topic-partition,
  /// the asker's leader epoch, the epoch asked).
  caf::replies_to<replica_fetch_atom, replica_fetch_request>::with<replica_fetch_result>,
  caf::replies_to<epoch_end_atom, topic_partition, int32_t, int32_t>::with<epoch_end_answer>,
  /// From the controller: partition states it wrote; handed to this node's cluster member.
  caf::reacts_to<leader_and_isr_atom, leader_and_isr>,
  /// Controlled shutdown (cluster/controlled_shutdown.hpp), from this node's stopper only:
  /// stops following, has the controller move this broker's leaderships and ISR
  /// memberships; true once nothing is left to move (false: given up after the retries).
  caf::replies_to<controlled_shutdown_atom>::with<bool>,
  /// At the controller, from a broker shutting down (its id and broker epoch): how many of
  /// its partitions are still to move (0: it may stop). Error not_controller elsewhere.
  caf::replies_to<controlled_shutdown_atom, int32_t, int64_t>::with<int32_t>,
  /// ElectLeaders: done by the controller (forwarded there; the forwarded form is handled
  /// where it arrives). A single node answers ELECTION_NOT_NEEDED for each known partition.
  caf::replies_to<elect_leaders_atom, leader_election_request>::with<std::vector<leader_election_result>>,
  caf::replies_to<elect_leaders_atom, leader_election_request, forwarded_atom>::with<
    std::vector<leader_election_result>>,
  /// AlterPartitionReassignments: decided and written by the controller (forwarded there);
  /// one outcome per partition. A single node refuses every move (INVALID_REPLICA_ASSIGNMENT,
  /// NO_REASSIGNMENT_IN_PROGRESS for a cancel) but its own replicas.
  caf::replies_to<reassign_atom, std::vector<partition_move>>::with<std::vector<partition_outcome>>,
  caf::replies_to<reassign_atom, std::vector<partition_move>, forwarded_atom>::with<std::vector<partition_outcome>>,
  /// ListPartitionReassignments from this broker's view (only `topics` if not empty).
  caf::replies_to<reassign_atom, std::vector<std::string>>::with<std::vector<partition_move_status>>,
  /// DescribeConfigs, AlterConfigs and IncrementalAlterConfigs (actors/node_configs.cpp): the
  /// Kafka listener's requests as decoded, asked in-process only (never over the middleman).
  caf::replies_to<describe_configs_atom, wire::describe_configs_request>::with<wire::describe_configs_response>,
  caf::replies_to<alter_configs_atom, wire::alter_configs_request>::with<wire::alter_configs_response>,
  /// DescribeLogDirs: every log dir and the local replicas in it (sizes from the partitions).
  caf::replies_to<describe_log_dirs_atom, wire::describe_log_dirs_request>::with<wire::describe_log_dirs_response>,
  /// The metrics endpoint (actors/metrics_endpoint.hpp), in-process only: the gauges of this
  /// broker's replicas and of the cluster, and why it is not ready (empty: ready).
  caf::replies_to<metrics_atom>::with<metrics::broker_gauges>,
  caf::replies_to<readiness_atom>::with<std::string>>;

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::describe_configs_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::describe_configs_response)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::alter_configs_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::alter_configs_response)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::describe_log_dirs_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::describe_log_dirs_response)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::metrics::broker_gauges)
