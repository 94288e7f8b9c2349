#include "protocol/wire/api_keys.hpp"

#include <algorithm>
#include <cstdint>

namespace cafka::wire {

namespace {

struct api_info {
  api_key key;
  const char* name;
  int16_t min_version;
  int16_t max_version;
  int16_t first_flexible; ///< Kafka's first flexible version of the API
};

/// first_flexible of an API that has no flexible version (OffsetDelete).
constexpr int16_t never_flexible = INT16_MAX;

constexpr api_info apis[] = {
  {api_key::produce, "Produce", 0, 7, 9},
  {api_key::fetch, "Fetch", 4, 11, 12},
  {api_key::list_offsets, "ListOffsets", 1, 5, 6},
  {api_key::metadata, "Metadata", 0, 6, 9},
  {api_key::offset_commit, "OffsetCommit", 2, 8, 8},
  {api_key::offset_fetch, "OffsetFetch", 1, 7, 6},
  {api_key::find_coordinator, "FindCoordinator", 0, 2, 3},
  {api_key::join_group, "JoinGroup", 0, 5, 6},
  {api_key::heartbeat, "Heartbeat", 0, 3, 4},
  {api_key::leave_group, "LeaveGroup", 0, 1, 4},
  {api_key::sync_group, "SyncGroup", 0, 3, 4},
  {api_key::describe_groups, "DescribeGroups", 0, 5, 5},
  {api_key::list_groups, "ListGroups", 0, 4, 3},
  {api_key::api_versions, "ApiVersions", 0, 3, 3},
  {api_key::create_topics, "CreateTopics", 0, 4, 5},
  {api_key::delete_topics, "DeleteTopics", 0, 3, 4},
  {api_key::delete_records, "DeleteRecords", 0, 2, 2},
  {api_key::init_producer_id, "InitProducerId", 0, 4, 2},
  {api_key::offset_for_leader_epoch, "OffsetForLeaderEpoch", 0, 4, 4},
  {api_key::add_partitions_to_txn, "AddPartitionsToTxn", 0, 3, 3},
  {api_key::add_offsets_to_txn, "AddOffsetsToTxn", 0, 3, 3},
  {api_key::end_txn, "EndTxn", 0, 3, 3},
  {api_key::txn_offset_commit, "TxnOffsetCommit", 0, 2, 3}, // v3 brings the group membership (KIP-447), not checked here
  {api_key::describe_configs, "DescribeConfigs", 0, 2, 4},
  {api_key::alter_configs, "AlterConfigs", 0, 1, 2},
  {api_key::describe_log_dirs, "DescribeLogDirs", 0, 1, 2},
  {api_key::create_partitions, "CreatePartitions", 0, 3, 2},
  {api_key::delete_groups, "DeleteGroups", 0, 2, 2},
  {api_key::elect_leaders, "ElectLeaders", 0, 2, 2},
  {api_key::incremental_alter_configs, "IncrementalAlterConfigs", 0, 1, 1},
  {api_key::alter_partition_reassignments, "AlterPartitionReassignments", 0, 0, 0},
  {api_key::list_partition_reassignments, "ListPartitionReassignments", 0, 0, 0},
  {api_key::offset_delete, "OffsetDelete", 0, 0, never_flexible},
  {api_key::describe_client_quotas, "DescribeClientQuotas", 0, 1, 1},
  {api_key::alter_client_quotas, "AlterClientQuotas", 0, 1, 1},
  {api_key::describe_cluster, "DescribeCluster", 0, 1, 0},
  {api_key::describe_producers, "DescribeProducers", 0, 0, 0},
  {api_key::describe_transactions, "DescribeTransactions", 0, 0, 0},
  {api_key::list_transactions, "ListTransactions", 0, 1, 0},
};

const api_info* find_info(int16_t key) {
  auto it = std::find_if(std::begin(apis), std::end(apis),
                         [key](const api_info& a) { return static_cast<int16_t>(a.key) == key; });
  return it == std::end(apis) ? nullptr : it;
}

} // namespace

const std::vector<version_range>& advertised_versions() {
  static const std::vector<version_range> table = [] {
    std::vector<version_range> out;
    for (auto& a : apis)
      out.push_back({static_cast<int16_t>(a.key), a.min_version, a.max_version});
    return out;
  }();
  return table;
}

std::optional<version_range> find_advertised(int16_t key) {
  if (auto a = find_info(key))
    return version_range{key, a->min_version, a->max_version};
  return std::nullopt;
}

bool is_flexible(int16_t key, int16_t version) {
  auto a = find_info(key);
  return a && version >= a->first_flexible;
}

const char* api_name(int16_t key) {
  auto a = find_info(key);
  return a ? a->name : "Unknown";
}

} // namespace cafka::wire
