#include "protocol/wire/request.hpp"

#include "protocol/wire/api_keys.hpp"

namespace cafka::wire {

namespace {

// Wraps a decoder's result<T> into result<decoded_request>.
template <class T>
result<decoded_request> wrap(result<T> r) {
  if (!r)
    return r.error();
  return decoded_request{std::move(*r)};
}

} // namespace

bool is_decodable(int16_t key) {
  switch (static_cast<api_key>(key)) {
    case api_key::api_versions:
    case api_key::metadata:
    case api_key::produce:
    case api_key::fetch:
    case api_key::list_offsets:
    case api_key::create_topics:
    case api_key::delete_topics:
    case api_key::delete_records:
    case api_key::init_producer_id:
    case api_key::find_coordinator:
    case api_key::join_group:
    case api_key::sync_group:
    case api_key::heartbeat:
    case api_key::leave_group:
    case api_key::offset_commit:
    case api_key::offset_fetch:
    case api_key::list_groups:
    case api_key::describe_groups:
    case api_key::offset_for_leader_epoch:
    case api_key::describe_client_quotas:
    case api_key::alter_client_quotas:
    case api_key::elect_leaders:
    case api_key::create_partitions:
    case api_key::alter_partition_reassignments:
    case api_key::list_partition_reassignments:
    case api_key::describe_configs:
    case api_key::alter_configs:
    case api_key::incremental_alter_configs:
    case api_key::describe_cluster:
    case api_key::describe_log_dirs:
    case api_key::delete_groups:
    case api_key::offset_delete:
    case api_key::describe_producers:
    case api_key::add_partitions_to_txn:
    case api_key::add_offsets_to_txn:
    case api_key::end_txn:
    case api_key::txn_offset_commit:
    case api_key::describe_transactions:
    case api_key::list_transactions:
      return true;
    default:
      return false;
  }
}

result<decoded_request> decode_request_body(const request_header& h, bytes_view body) {
  auto v = h.api_version;
  switch (static_cast<api_key>(h.api_key)) {
    case api_key::api_versions: return wrap(decode_api_versions_request(body, v));
    case api_key::metadata: return wrap(decode_metadata_request(body, v));
    case api_key::produce: return wrap(decode_produce_request(body, v));
    case api_key::fetch: return wrap(decode_fetch_request(body, v));
    case api_key::list_offsets: return wrap(decode_list_offsets_request(body, v));
    case api_key::create_topics: return wrap(decode_create_topics_request(body, v));
    case api_key::delete_topics: return wrap(decode_delete_topics_request(body, v));
    case api_key::delete_records: return wrap(decode_delete_records_request(body, v));
    case api_key::init_producer_id: return wrap(decode_init_producer_id_request(body, v));
    case api_key::find_coordinator: return wrap(decode_find_coordinator_request(body, v));
    case api_key::join_group: return wrap(decode_join_group_request(body, v));
    case api_key::sync_group: return wrap(decode_sync_group_request(body, v));
    case api_key::heartbeat: return wrap(decode_heartbeat_request(body, v));
    case api_key::leave_group: return wrap(decode_leave_group_request(body, v));
    case api_key::offset_commit: return wrap(decode_offset_commit_request(body, v));
    case api_key::offset_fetch: return wrap(decode_offset_fetch_request(body, v));
    case api_key::list_groups: return wrap(decode_list_groups_request(body, v));
    case api_key::describe_groups: return wrap(decode_describe_groups_request(body, v));
    case api_key::offset_for_leader_epoch: return wrap(decode_offset_for_leader_epoch_request(body, v));
    case api_key::describe_client_quotas: return wrap(decode_describe_client_quotas_request(body, v));
    case api_key::alter_client_quotas: return wrap(decode_alter_client_quotas_request(body, v));
    case api_key::elect_leaders: return wrap(decode_elect_leaders_request(body, v));
    case api_key::create_partitions: return wrap(decode_create_partitions_request(body, v));
    case api_key::alter_partition_reassignments: return wrap(decode_alter_partition_reassignments_request(body));
    case api_key::list_partition_reassignments: return wrap(decode_list_partition_reassignments_request(body));
    case api_key::describe_configs: return wrap(decode_describe_configs_request(body, v));
    case api_key::alter_configs: return wrap(decode_alter_configs_request(body, v));
    case api_key::incremental_alter_configs: return wrap(decode_incremental_alter_configs_request(body, v));
    case api_key::describe_cluster: return wrap(decode_describe_cluster_request(body, v));
    case api_key::describe_producers: return wrap(decode_describe_producers_request(body, v));
    case api_key::describe_log_dirs: return wrap(decode_describe_log_dirs_request(body, v));
    case api_key::delete_groups: return wrap(decode_delete_groups_request(body, v));
    case api_key::offset_delete: return wrap(decode_offset_delete_request(body, v));
    case api_key::add_partitions_to_txn: return wrap(decode_add_partitions_to_txn_request(body, v));
    case api_key::add_offsets_to_txn: return wrap(decode_add_offsets_to_txn_request(body, v));
    case api_key::end_txn: return wrap(decode_end_txn_request(body, v));
    case api_key::txn_offset_commit: return wrap(decode_txn_offset_commit_request(body, v));
    case api_key::describe_transactions: return wrap(decode_describe_transactions_request(body, v));
    case api_key::list_transactions: return wrap(decode_list_transactions_request(body, v));
    default: return protocol::errc::bad_record;
  }
}

} // namespace cafka::wire
