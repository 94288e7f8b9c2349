#pragma once
// One decoded request body of any API cafka serves, chosen by the header.

#include <variant>

#include "protocol/result.hpp"
#include "protocol/wire/api_versions.hpp"
#include "protocol/wire/client_quotas.hpp"
#include "protocol/wire/configs.hpp"
#include "protocol/wire/create_partitions.hpp"
#include "protocol/wire/create_topics.hpp"
#include "protocol/wire/delete_groups.hpp"
#include "protocol/wire/delete_records.hpp"
#include "protocol/wire/delete_topics.hpp"
#include "protocol/wire/describe_cluster.hpp"
#include "protocol/wire/describe_groups.hpp"
#include "protocol/wire/describe_log_dirs.hpp"
#include "protocol/wire/describe_producers.hpp"
#include "protocol/wire/elect_leaders.hpp"
#include "protocol/wire/fetch.hpp"
#include "protocol/wire/find_coordinator.hpp"
#include "protocol/wire/heartbeat.hpp"
#include "protocol/wire/init_producer_id.hpp"
#include "protocol/wire/join_group.hpp"
#include "protocol/wire/leave_group.hpp"
#include "protocol/wire/list_groups.hpp"
#include "protocol/wire/list_offsets.hpp"
#include "protocol/wire/metadata.hpp"
#include "protocol/wire/offset_commit.hpp"
#include "protocol/wire/offset_delete.hpp"
#include "protocol/wire/offset_fetch.hpp"
#include "protocol/wire/offset_for_leader_epoch.hpp"
#include "protocol/wire/partition_reassignments.hpp"
#include "protocol/wire/produce.hpp"
#include "protocol/wire/request_header.hpp"
#include "protocol/wire/sync_group.hpp"
#include "protocol/wire/txn_offset_commit.hpp"
#include "protocol/wire/transactions_admin.hpp"
#include "protocol/wire/txn_partitions_requests.hpp"

namespace cafka::wire {

using decoded_request =
  std::variant<api_versions_request, metadata_request, produce_request, fetch_request,
               list_offsets_request, create_topics_request, delete_topics_request,
               init_producer_id_request, find_coordinator_request, join_group_request,
               sync_group_request, heartbeat_request, leave_group_request,
               offset_commit_request, offset_fetch_request, list_groups_request,
               describe_groups_request, offset_for_leader_epoch_request,
               describe_client_quotas_request, alter_client_quotas_request, elect_leaders_request,
               create_partitions_request, alter_partition_reassignments_request,
               list_partition_reassignments_request, describe_configs_request, alter_configs_request,
               describe_cluster_request, describe_log_dirs_request, delete_groups_request,
               offset_delete_request, delete_records_request, describe_producers_request,
               add_partitions_to_txn_request, add_offsets_to_txn_request, end_txn_request,
               txn_offset_commit_request, describe_transactions_request, list_transactions_request>;

/// Whether decode_request_body handles this API (else: an API cafka does not know).
bool is_decodable(int16_t api_key);

/// Decodes the body of a request whose header said (api_key, api_version). The caller
/// has checked that the version is advertised. Errors: the decoders' (truncated,
/// bad_length, bad_varint), or bad_record for an API is_decodable() refuses.
result<decoded_request> decode_request_body(const request_header& header, bytes_view body);

} // namespace cafka::wire
