#pragma once
// The single type-ID block of cafka: every message type that crosses an actor boundary.
// configure_actor_system() (actors/system_config.hpp) registers it; every process that
// talks to a cafka node must do the same.

#include <map>
#include <string>
#include <vector>

#include <caf/type_id.hpp>

#include "actors/group_actor.hpp"
#include "actors/messages.hpp"
#include "actors/node_actor.hpp"
#include "actors/replica_fetcher.hpp"
#include "actors/replication_messages.hpp"

CAF_BEGIN_TYPE_ID_BLOCK(cafka, caf::first_custom_type_id)
  CAF_ADD_TYPE_ID(cafka, (cafka::storage::topic_partition))
  CAF_ADD_TYPE_ID(cafka, (cafka::produce_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::produce_result))
  CAF_ADD_TYPE_ID(cafka, (cafka::fetch_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::fetch_result))
  CAF_ADD_TYPE_ID(cafka, (cafka::fetch_watch))
  CAF_ADD_TYPE_ID(cafka, (cafka::offset_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::partition_status))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::partition_status>))
  CAF_ADD_TYPE_ID(cafka, (cafka::retention_report))
  CAF_ADD_TYPE_ID(cafka, (cafka::storage::log_config))
  CAF_ADD_TYPE_ID(cafka, (cafka::topic_spec))
  CAF_ADD_TYPE_ID(cafka, (cafka::partition_addition_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::topic_description))
  CAF_ADD_TYPE_ID(cafka, (cafka::broker_info))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::broker_info>))
  CAF_ADD_TYPE_ID(cafka, (cafka::partition_metadata))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::partition_metadata>))
  CAF_ADD_TYPE_ID(cafka, (cafka::topic_metadata))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::topic_metadata>))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster_metadata))
  CAF_ADD_TYPE_ID(cafka, (cafka::metadata_request))
  CAF_ADD_TYPE_ID(cafka, (std::vector<int64_t>))
  CAF_ADD_TYPE_ID(cafka, (std::vector<int32_t>))
  CAF_ADD_TYPE_ID(cafka, (std::vector<std::vector<int32_t>>))
  CAF_ADD_TYPE_ID(cafka, (std::map<std::string, std::string>))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::join_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::join_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::sync_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::sync_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::heartbeat_request))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::cluster::member_identity>))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::leave_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::group_description))
  CAF_ADD_TYPE_ID(cafka, (cafka::group_offset_commit))
  CAF_ADD_TYPE_ID(cafka, (cafka::group_offset_query))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::group_offset>))
  CAF_ADD_TYPE_ID(cafka, (cafka::group_actor))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_role))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_fetch_partition))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::replica_fetch_partition>))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_fetch_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_fetch_partition_result))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::replica_fetch_partition_result>))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_fetch_result))
  CAF_ADD_TYPE_ID(cafka, (cafka::epoch_end_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::replica_position))
  CAF_ADD_TYPE_ID(cafka, (cafka::truncation_done))
  CAF_ADD_TYPE_ID(cafka, (cafka::followed_partition))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::followed_partition>))
  CAF_ADD_TYPE_ID(cafka, (cafka::cluster::pushed_state))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::cluster::pushed_state>))
  CAF_ADD_TYPE_ID(cafka, (cafka::leader_and_isr))
  CAF_ADD_TYPE_ID(cafka, (cafka::leader_election_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::leader_election_result))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::leader_election_result>))
  CAF_ADD_TYPE_ID(cafka, (cafka::partition_move))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::partition_move>))
  CAF_ADD_TYPE_ID(cafka, (cafka::partition_move_status))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::partition_move_status>))
  CAF_ADD_TYPE_ID(cafka, (cafka::txn_marker_request))
  CAF_ADD_TYPE_ID(cafka, (std::vector<cafka::producer_description>))
  CAF_ADD_TYPE_ID(cafka, (cafka::producer_id_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::producer_id_answer))
  CAF_ADD_TYPE_ID(cafka, (cafka::txn_request))
  CAF_ADD_TYPE_ID(cafka, (cafka::txn_offset_commit))
CAF_END_TYPE_ID_BLOCK(cafka)
