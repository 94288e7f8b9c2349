#pragma once
// The Kafka APIs cafka speaks and the version ranges it advertises in ApiVersions.
//
// The ranges follow shared/docs/kafka-wire-notes.md §2.0: every maximum is the last
// non-flexible version (but ApiVersions and OffsetForLeaderEpoch, whose flexible last
// versions are served too, and the admin APIs cafka's tools and Kafka's admin clients call
// in the flexible encoding: ElectLeaders, CreatePartitions and the reassignment APIs, these
// flexible from v0), and the minimums reach down far enough that librdkafka keeps
// its features on (it enables LZ4 only when FindCoordinator v0 and Produce v0 are in
// range, for instance). Versions advertised but not implemented are answered with
// UNSUPPORTED_VERSION in that version's layout.

#include <cstdint>
#include <optional>
#include <vector>

namespace cafka::wire {

enum class api_key : int16_t {
  produce = 0,
  fetch = 1,
  list_offsets = 2,
  metadata = 3,
  offset_commit = 8,
  offset_fetch = 9,
  find_coordinator = 10,
  join_group = 11,
  heartbeat = 12,
  leave_group = 13,
  sync_group = 14,
  describe_groups = 15,
  list_groups = 16,
  api_versions = 18,
  create_topics = 19,
  delete_topics = 20,
  delete_records = 21,
  init_producer_id = 22,
  offset_for_leader_epoch = 23,
  add_partitions_to_txn = 24,
  add_offsets_to_txn = 25,
  end_txn = 26,
  txn_offset_commit = 28,
  describe_configs = 32,
  alter_configs = 33,
  describe_log_dirs = 35,
  create_partitions = 37,
  delete_groups = 42,
  elect_leaders = 43,
  incremental_alter_configs = 44,
  alter_partition_reassignments = 45,
  list_partition_reassignments = 46,
  offset_delete = 47,
  describe_client_quotas = 48,
  alter_client_quotas = 49,
  describe_cluster = 60,
  describe_producers = 61,
  describe_transactions = 65,
  list_transactions = 66,
};

struct version_range {
  int16_t api_key = 0;
  int16_t min_version = 0;
  int16_t max_version = 0;
};

/// Every API cafka answers, with its advertised range, by api key.
const std::vector<version_range>& advertised_versions();

/// The advertised range of `key`, if cafka answers that API at all.
std::optional<version_range> find_advertised(int16_t key);

/// Whether `version` of API `key` uses the flexible encoding (compact types, tagged
/// fields, request header v2). Kafka's "flexibleVersions" per API.
bool is_flexible(int16_t key, int16_t version);

/// Kafka's name of the API, e.g. "Produce"; "Unknown" for keys not listed above.
const char* api_name(int16_t key);

} // namespace cafka::wire
