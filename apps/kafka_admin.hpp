#pragma once
// The Kafka-protocol side of cafka's tools (cafka-topics, cafka-consumer-groups): a
// librdkafka handle for the broker's Kafka listener and blocking calls of its admin API,
// so that the tools reach any broker of the cluster the way Kafka's tools do (librdkafka
// finds the controller, the group coordinators and the partition leaders itself). No
// librdkafka in this header.
//
// Every call throws kafka_failure on a broker error ("CODE: message", Kafka's error name)
// and on a request that got no answer in time.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/topic_partition.hpp"

namespace cafka::tools {

struct kafka_failure : std::runtime_error {
  /// A message that already starts with the name (cafka's brokers write them so) is kept as is.
  kafka_failure(std::string code_name, const std::string& message)
      : std::runtime_error(message.rfind(code_name + ":", 0) == 0 ? message
                           : code_name + (message.empty() ? "" : ": " + message)),
        code(std::move(code_name)) {}
  std::string code; ///< e.g. "TOPIC_ALREADY_EXISTS"
};

struct kafka_broker {
  int32_t id = -1;
  std::string host;
  int32_t port = 0;
};

struct kafka_partition {
  int32_t id = 0;
  std::string error; ///< Kafka's error name, empty for none
  int32_t leader = -1;
  std::vector<int32_t> replicas, isr;
};

struct kafka_topic {
  std::string name;
  std::string error;
  std::vector<kafka_partition> partitions; ///< by id
};

struct kafka_metadata {
  std::vector<kafka_broker> brokers; ///< the live brokers
  std::vector<kafka_topic> topics;   ///< every topic, by name
};

struct new_topic {
  std::string name;
  int32_t partitions = -1;         ///< -1: the broker's num.partitions
  int32_t replication_factor = -1; ///< -1: the broker's default
  std::vector<std::vector<int32_t>> assignments;
  std::map<std::string, std::string> configs;
};

struct group_listing {
  std::string id;
  std::string state; ///< Kafka's name, e.g. "Stable"
};

struct group_member {
  std::string member_id, client_id, host;
  std::vector<storage::topic_partition> assignment;
};

struct group_info {
  std::string id;
  std::string state;
  std::string assignor;
  std::vector<group_member> members;
};

class kafka_admin {
public:
  /// Connects to `bootstrap` (host:port,...) and reads the metadata once; throws
  /// kafka_failure when no broker answers within `connect_timeout_ms`.
  kafka_admin(const std::string& bootstrap, int connect_timeout_ms, int request_timeout_ms);
  ~kafka_admin();
  kafka_admin(const kafka_admin&) = delete;
  kafka_admin& operator=(const kafka_admin&) = delete;

  /// Every topic (no topic is created by asking).
  kafka_metadata metadata();

  void create_topic(const new_topic& t);
  void delete_topic(const std::string& name);
  /// Grows `topic` to `total` partitions; `assignments`: the new partitions' replicas.
  void create_partitions(const std::string& topic, int32_t total, const std::vector<std::vector<int32_t>>& assignments);
  /// The topic's configs set on it (DescribeConfigs' DYNAMIC_TOPIC_CONFIG source), by name.
  std::map<std::string, std::string> topic_overrides(const std::string& topic);
  /// The log start and high watermark of a partition (ListOffsets to its leader).
  std::pair<int64_t, int64_t> watermarks(const storage::topic_partition& tp);

  /// DeleteRecords (offset -1: the high watermark), by partition: the new low watermark, or
  /// the error name.
  struct deleted_records {
    int64_t low_watermark = -1;
    std::string error;
  };
  std::map<storage::topic_partition, deleted_records>
  delete_records(const std::vector<std::pair<storage::topic_partition, int64_t>>& before_offsets);

  std::vector<group_listing> list_groups();
  /// Throws kafka_failure for an unknown group (GROUP_ID_NOT_FOUND) too.
  group_info describe_group(const std::string& id);
  /// The group's committed offsets, by partition.
  std::map<storage::topic_partition, int64_t> committed_offsets(const std::string& id);
  void alter_offsets(const std::string& id, const std::map<storage::topic_partition, int64_t>& offsets);
  void delete_group(const std::string& id);
  /// Each partition asked for with its error name ("" once deleted).
  std::map<storage::topic_partition, std::string> delete_offsets(const std::string& id,
                                                                 const std::vector<storage::topic_partition>& tps);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// A tool's admin handle for `bootstrap`; ends the tool (exit 1) with "<tool>: cannot reach
/// broker at <bootstrap>: ..." when no broker answers within `connect_timeout_ms`.
std::unique_ptr<kafka_admin> reach_admin(const char* tool, const std::string& bootstrap, int connect_timeout_ms,
                                         int request_timeout_ms);

/// Kafka's --replica-assignment: partitions separated by ',', broker ids by ':'; throws
/// usage_error on a malformed list.
std::vector<std::vector<int32_t>> parse_replica_assignment(const std::string& text);

} // namespace cafka::tools
