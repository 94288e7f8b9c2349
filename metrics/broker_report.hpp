#pragma once
// GET /metrics: the counters (metrics/broker_metrics.hpp) and the gauges read at scrape time
// (partitions, the controller's view, groups, the process) in Prometheus' text format, under
// the names Kafka dashboards read (docs/metrics.md lists them all):
// - the JMX exporter's Kafka names (kafka_server_brokertopicmetrics_*, kafka_network_requestmetrics_*,
//   kafka_server_replicamanager_*, kafka_controller_kafkacontroller_*, kafka_log_log_*,
//   kafka_server_socket_server_metrics_*);
// - kafka_exporter's names for offsets and lag (kafka_topic_partition_*, kafka_consumergroup_*),
//   computed in the broker; each partition by its leader, each group by its coordinator;
// - process_* as Prometheus' client libraries; cafka_* where Kafka has no such metric.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "metrics/broker_metrics.hpp"
#include "metrics/process_stats.hpp"

namespace cafka::metrics {

/// One local replica.
struct partition_gauges {
  std::string topic;
  int32_t partition = 0;
  bool leader = false; ///< this broker leads it
  int32_t leader_id = -1;
  int32_t replicas = 1;
  int32_t isr = 1;
  int64_t size_bytes = 0;
  int64_t log_start_offset = 0;
  int64_t log_end_offset = 0;
  int64_t high_watermark = 0;
  int32_t segments = 0;
};

/// What the controller's view says of the whole cluster (reported by the active controller
/// only, as Kafka's KafkaController metrics).
struct cluster_gauges {
  bool active_controller = false;
  int32_t brokers = 0;
  int32_t topics = 0;
  int32_t partitions = 0;
  int32_t offline_partitions = 0; ///< without a live leader
};

/// One group this broker coordinates.
struct group_gauges {
  struct committed_offset {
    std::string topic;
    int32_t partition = 0;
    int64_t offset = 0;
  };
  std::string group;
  std::string state; ///< Kafka's name: Stable, Empty, ...
  int32_t members = 0;
  std::vector<committed_offset> committed;
};

struct broker_gauges {
  int32_t broker_id = 0;
  cluster_gauges cluster;
  std::vector<partition_gauges> partitions; ///< every local replica
  std::vector<group_gauges> groups;
};

/// The whole exposition. A group's lag is the partition's high watermark (from a local replica:
/// partitions without one here get no lag series) minus the committed offset, never below 0.
std::string render_metrics(const broker_values& counters, const broker_gauges& gauges,
                           const std::optional<process_stats>& process);

} // namespace cafka::metrics
