#pragma once
// Broker configs changed at run time (AlterConfigs / IncrementalAlterConfigs on a broker
// resource), as Kafka keeps them: per broker (/config/brokers/<id>) and for every broker
// (/config/brokers/<default>, the resource name ""), the per-broker value winning.
//
// The keys cafka applies without a restart:
//   - the replication quotas (Kafka's ReplicationQuotaManager, docs/operations.md):
//     leader.replication.throttled.rate and follower.replication.throttled.rate, bytes/s,
//     default unlimited (Long.MAX); they exist only as dynamic configs;
//   - the broker defaults of the topic configs cafka implements (Kafka's DynamicLogConfig):
//     log.segment.bytes, log.roll.ms, log.retention.ms, log.retention.bytes,
//     log.flush.interval.messages, log.flush.interval.ms, log.index.interval.bytes,
//     log.index.size.max.bytes and message.max.bytes; every topic without its own override
//     of the matching topic key takes the new value.
// Every other broker key is refused: one Kafka also refuses (it is not dynamic) with
// INVALID_REQUEST, one Kafka would change with INVALID_CONFIG saying cafka does not, so
// nothing is stored that does not take effect.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::config {

struct server_config;

using broker_overrides = std::map<std::string, std::string>;

struct dynamic_broker_configs {
  broker_overrides broker;          ///< this broker's (/config/brokers/<id>)
  broker_overrides cluster_default; ///< every broker's (/config/brokers/<default>)
};

bool operator==(const dynamic_broker_configs& a, const dynamic_broker_configs& b);

/// The keys cafka applies at run time, with their defaults.
struct dynamic_key {
  std::string name;
  std::string default_value;
};
const std::vector<dynamic_key>& dynamic_broker_keys();

/// Why `key=value` cannot be stored (the message names the key), with Kafka's error code:
/// INVALID_CONFIG (40) for a bad value or an unknown key,
/// INVALID_REQUEST (42) for a key Kafka does not change at run time either. nullopt: valid.
struct dynamic_refusal {
  int16_t error_code = 0;
  std::string message;
};
std::optional<dynamic_refusal> refuse_dynamic(const std::string& key, const std::string& value);

/// The value in force: this broker's, else the cluster default, else the built-in default.
std::string effective_value(const dynamic_broker_configs& c, const dynamic_key& key);

/// The topic key a dynamic broker log key stands in for ("log.retention.ms" ->
/// "retention.ms"); nullopt for a key that is not one.
std::optional<std::string> topic_key_of_dynamic(std::string_view broker_key);

/// The dynamic log defaults in force as topic configs (this broker's over the cluster's),
/// to apply before a topic's own overrides.
std::map<std::string, std::string> dynamic_topic_defaults(const dynamic_broker_configs& c);

/// A single node's <first log dir>/cafka-broker-configs: "version=1", then one line per
/// entry, "broker.<key>=<value>" or "default.<key>=<value>". Errors: a line of neither form.
std::string format_broker_configs_file(const dynamic_broker_configs& c);
std::optional<dynamic_broker_configs> parse_broker_configs_file(std::string_view text);

/// The replication defaults in force for topics without an override: the dynamic value
/// (this broker's, then the cluster's), else the static one of server.properties.
int32_t min_insync_replicas_default(const dynamic_broker_configs& c, int32_t static_value);
bool unclean_leader_election_default(const dynamic_broker_configs& c, bool static_value);

/// max.connections, max.connections.per.ip and max.connections.per.ip.overrides in force:
/// the dynamic values (this broker's, then the cluster's) over those of server.properties.
struct connection_limits {
  int32_t max_total = 0;
  int32_t max_per_ip = 0;
  std::map<std::string, int32_t> per_ip_overrides;
};
connection_limits connection_limits_in_force(const dynamic_broker_configs& c, const server_config& static_config);

/// leader.replication.throttled.rate / follower.replication.throttled.rate in force, bytes/s.
int64_t leader_throttled_rate(const dynamic_broker_configs& c);
int64_t follower_throttled_rate(const dynamic_broker_configs& c);

} // namespace cafka::config
