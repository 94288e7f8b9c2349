#pragma once
// The cluster metadata kept in znodes, as plain values. Encodings: cluster/znode_data.hpp.
// Broker ids and partition numbers are int32 >= 0, as in Kafka; -1 means "none".

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cafka::cluster {

inline constexpr int32_t no_broker = -1;

/// Replicas of one partition, preferred leader first.
using replica_list = std::vector<int32_t>;

/// /brokers/ids/<id> (ephemeral).
struct broker_registration {
  int32_t id = no_broker;
  std::string host;        ///< advertised host of the Kafka listener
  uint16_t kafka_port = 0; ///< Kafka wire protocol listener
  uint16_t caf_port = 0;   ///< CAF middleman (caf.port)
  std::string rack;        ///< broker.rack; "" = none
  /// The czxid of /brokers/ids/<id> as read (not in its data): larger for every new
  /// registration (Kafka's broker epoch; cluster/broker_epochs.hpp). Not compared by ==.
  int64_t epoch = 0;
};

/// /controller (ephemeral).
struct controller_info {
  int32_t broker_id = no_broker;
  int32_t epoch = 0; ///< the controller epoch this controller won
};

/// /brokers/topics/<topic>: partitions[p] are the replicas of partition p; never empty.
struct topic_assignment {
  std::vector<replica_list> partitions;
  /// Partitions being reassigned (cluster/reassignment.hpp, KIP-455): the replicas being added
  /// and those being removed. partitions[p] is then the target replicas, then the leaving ones.
  std::map<int32_t, replica_list> adding, removing;
};

/// /brokers/topics/<topic>/partitions/<p>/state.
struct partition_state {
  int32_t leader = no_broker;
  int32_t leader_epoch = 0;     ///< +1 per leader change
  int32_t controller_epoch = 0; ///< epoch of the controller that wrote this (fences old ones)
  std::vector<int32_t> isr;     ///< in-sync replicas
};

/// /config/topics/<topic>: per-topic overrides, Kafka key names (retention.ms, cleanup.policy).
struct topic_config {
  std::map<std::string, std::string> entries;
};

bool operator==(const broker_registration& a, const broker_registration& b);
bool operator==(const controller_info& a, const controller_info& b);
bool operator==(const topic_assignment& a, const topic_assignment& b);
bool operator==(const partition_state& a, const partition_state& b);
bool operator==(const topic_config& a, const topic_config& b);

} // namespace cafka::cluster
