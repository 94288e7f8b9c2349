#pragma once
// Where client quotas are stored and in what bytes (docs/quotas.md), as Kafka lays them out in
// ZooKeeper, in cafka's kv text (cluster/kv_text.hpp):
//
//   /config/users/<user>                      version=1
//   /config/users/<user>/clients/<client-id>  config.producer_byte_rate=1048576
//   /config/clients/<client-id>               config.request_percentage=200
//   /config/changes/config_change_0000000042  version=1
//                                             entity_path=users/alice/clients/app
//
// Names are percent-encoded (Kafka's Sanitizer keeps the same alphabet); the default entity
// is the literal "<default>", which no encoded name can be. A node whose config is empty (a
// parent like /config/users/alice of a user-and-client quota) sets nothing. Every write of a
// quota is followed by a change notification; brokers watch /config/changes and reload.
//
// A single node keeps its quotas in <first log dir>/cafka-quotas, one kv text:
//   version=1
//   <percent-encoded entity path>.<percent-encoded key>=<value>

#include <map>
#include <string>
#include <string_view>

#include "cluster/client_quotas.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

using quota_values = std::map<quota_kind, double>;

/// "users/alice", "users/alice/clients/app", "clients/<default>", ... (relative to /config).
std::string quota_entity_path(const quota_entity& entity);
/// The inverse; malformed_data for a path that names no quota entity.
result<quota_entity> quota_entity_of_path(std::string_view entity_path);
/// "/config/" + quota_entity_path(entity).
std::string quota_znode_path(const quota_entity& entity);

inline const std::string quota_users_path = "/config/users";
inline const std::string quota_clients_path = "/config/clients";
inline const std::string config_changes_path = "/config/changes";
/// The prefix of a sequential notification: "/config/changes/config_change_".
inline const std::string config_change_prefix = "/config/changes/config_change_";

/// Byte rates as integers, percentages in full precision.
std::string encode_quota_values(const quota_values& values);
/// Empty data is an empty config; keys cafka does not enforce are ignored.
result<quota_values> decode_quota_values(std::string_view text);
std::string encode_config_change(const std::string& entity_path);

std::string format_quota_file(const quota_table& table);
result<quota_table> parse_quota_file(std::string_view text);

} // namespace cafka::cluster
