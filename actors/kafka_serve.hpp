#pragma once
// The request handlers of the Kafka listener, one overload per decoded request type.
// Each converts the wire request into messages to partition actors or the node actor
// and answers through `reply` once every part came back. They run inside the listener
// broker, so they must not block.

#include <memory>
#include <optional>
#include <string>

#include <caf/io/broker.hpp>

#include "actors/kafka_connection.hpp"
#include "actors/node_actor.hpp"
#include "protocol/wire/request.hpp"

namespace cafka {

class routing_table;
class group_registry;
class offsets_store;
/// The multi-partition fetches waiting for data (actors/kafka_serve_fetch.cpp).
class fetch_polls;

struct kafka_services {
  caf::io::broker* self = nullptr;
  std::shared_ptr<routing_table> routes;
  std::optional<node_actor> node;
  int32_t broker_id = 0;
  std::function<int64_t()> now_ms;
  caf::actor producer_ids; ///< the node's producer id issuer (actors/producer_id_issuer.hpp)
  std::shared_ptr<fetch_polls> polls;
  /// The consumer groups this node coordinates (all of them, on a single node).
  std::shared_ptr<group_registry> groups;
  /// This listener's host and bound port: FindCoordinator's answer.
  std::string host;
  int32_t port = 0;
  /// Client quotas: DescribeClientQuotas reads them, AlterClientQuotas goes to the actor.
  std::shared_ptr<cluster::client_quota_registry> quotas;
  caf::actor quota_admin;
  /// Bytes and messages per topic, produce and fetch errors; may be null.
  std::shared_ptr<metrics::broker_metrics> metrics;
  /// The node's transaction coordinator (actors/txn_coordinator.hpp).
  caf::actor txn_coordinator;
  /// Every group's committed offsets (TxnOffsetCommit).
  std::shared_ptr<offsets_store> offsets;
};

/// Makes the registry of waiting fetches for one listener.
std::shared_ptr<fetch_polls> make_fetch_polls();

void serve(const kafka_services& s, wire::api_versions_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::metadata_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::produce_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::fetch_request&& req, const kafka_reply& reply);
/// A watched partition's data for connection `connection_key` (see fetch_watch).
void on_watch_data(const kafka_services& s, uint64_t connection_key, const topic_partition& tp,
                   fetch_result&& r);
/// The fetch timer `timer_id` fired: fetches whose max_wait_ms ended are answered.
void on_poll_timeout(const kafka_services& s, uint64_t timer_id);
/// Drops what the fetch code keeps for a closed connection.
void forget_connection(const kafka_services& s, uint64_t connection_key);

void serve(const kafka_services& s, wire::list_offsets_request&& req, const kafka_reply& reply);
/// DeleteRecords (kafka_serve_records.cpp): per partition by its actor.
void serve(const kafka_services& s, wire::delete_records_request&& req, const kafka_reply& reply);
/// DescribeProducers (kafka_serve_records.cpp): per partition by its leader's actor.
void serve(const kafka_services& s, wire::describe_producers_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::create_topics_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::delete_topics_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::init_producer_id_request&& req, const kafka_reply& reply);

// Transactions (kafka_serve_txn.cpp), answered by the node's transaction coordinator.
/// InitProducerId with a transactional id (serve above hands it over).
void serve_txn_init(const kafka_services& s, wire::init_producer_id_request&& req, const kafka_reply& reply);
/// FindCoordinator with key type 1, answered through `answer`.
void serve_txn_find_coordinator(const kafka_services& s, const std::string& transactional_id,
                                std::function<void(wire::find_coordinator_response)> answer);
void serve(const kafka_services& s, wire::add_partitions_to_txn_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::end_txn_request&& req, const kafka_reply& reply);
/// AddOffsetsToTxn: the group's __consumer_offsets partition joins the transaction.
void serve(const kafka_services& s, wire::add_offsets_to_txn_request&& req, const kafka_reply& reply);
/// TxnOffsetCommit v0-2: the offsets stored pending until the transaction's marker.
void serve(const kafka_services& s, wire::txn_offset_commit_request&& req, const kafka_reply& reply);
/// DescribeTransactions / ListTransactions: the ids this broker's coordinator knows.
void serve(const kafka_services& s, wire::describe_transactions_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::list_transactions_request&& req, const kafka_reply& reply);
/// OffsetForLeaderEpoch (kafka_serve_epoch.cpp): answered by the node actor per partition.
void serve(const kafka_services& s, wire::offset_for_leader_epoch_request&& req, const kafka_reply& reply);

// The consumer group APIs (kafka_serve_group.cpp): answered here or by the group's actor.
void serve(const kafka_services& s, wire::find_coordinator_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::join_group_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::sync_group_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::heartbeat_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::leave_group_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::offset_commit_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::offset_fetch_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::list_groups_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::describe_groups_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::delete_groups_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::offset_delete_request&& req, const kafka_reply& reply);

// Client quotas (kafka_serve_quotas.cpp).
void serve(const kafka_services& s, wire::describe_client_quotas_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::alter_client_quotas_request&& req, const kafka_reply& reply);
/// ElectLeaders through the node actor, which has the controller do it (kafka_serve_elections.cpp).
void serve(const kafka_services& s, wire::elect_leaders_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::create_partitions_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::alter_partition_reassignments_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::list_partition_reassignments_request&& req, const kafka_reply& reply);
/// DescribeCluster from the node actor's metadata, DescribeLogDirs from its storage
/// (kafka_serve_admin.cpp).
void serve(const kafka_services& s, wire::describe_cluster_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::describe_log_dirs_request&& req, const kafka_reply& reply);
// DescribeConfigs, AlterConfigs, IncrementalAlterConfigs (kafka_serve_configs.cpp).
void serve(const kafka_services& s, wire::describe_configs_request&& req, const kafka_reply& reply);
void serve(const kafka_services& s, wire::alter_configs_request&& req, const kafka_reply& reply);

} // namespace cafka
