#include "metrics/broker_report.hpp"

#include <algorithm>
#include <map>

#include "metrics/prometheus_text.hpp"
#include "protocol/kafka_error.hpp"
#include "protocol/wire/api_keys.hpp"

namespace cafka::metrics {

namespace {

constexpr double quantiles[] = {0.50, 0.75, 0.95, 0.98, 0.99, 0.999};

std::string error_name(int16_t code) {
  auto e = code == -1 ? protocol::kafka_error::unknown_server_error : static_cast<protocol::kafka_error>(code);
  return protocol::to_string(e);
}

// Kafka names a consumer's fetch FetchConsumer in its request timings (followers do not
// fetch over the Kafka port here).
std::string timing_name(int16_t api_key) {
  if (api_key == static_cast<int16_t>(wire::api_key::fetch))
    return "FetchConsumer";
  return wire::api_name(api_key);
}

struct topic_family {
  const char* name;
  const char* help;
  uint64_t topic_values::*field;
};

constexpr topic_family topic_families[] = {
  {"kafka_server_brokertopicmetrics_messagesin_total", "Messages appended by producers", &topic_values::messages_in},
  {"kafka_server_brokertopicmetrics_bytesin_total", "Record batch bytes appended by producers", &topic_values::bytes_in},
  {"kafka_server_brokertopicmetrics_bytesout_total", "Record batch bytes sent to consumers", &topic_values::bytes_out},
  {"kafka_server_brokertopicmetrics_totalproducerequests_total", "Produce requests, per partition",
   &topic_values::total_produce_requests},
  {"kafka_server_brokertopicmetrics_totalfetchrequests_total", "Fetch requests, per partition",
   &topic_values::total_fetch_requests},
  {"kafka_server_brokertopicmetrics_failedproducerequests_total", "Produce requests that failed, per partition",
   &topic_values::failed_produce_requests},
  {"kafka_server_brokertopicmetrics_failedfetchrequests_total", "Fetch requests that failed, per partition",
   &topic_values::failed_fetch_requests},
  {"cafka_server_brokertopicmetrics_messagesout_total", "Messages sent to consumers (from the batch headers)",
   &topic_values::messages_out},
};

void topic_metrics(exposition& out, const broker_values& c) {
  for (auto& f : topic_families) {
    out.family(f.name, f.help, "counter");
    out.sample(f.name, {}, c.all_topics.*f.field);
    for (auto& [topic, v] : c.topics)
      out.sample(f.name, {{"topic", topic}}, v.*f.field);
  }
}

void request_metrics(exposition& out, const broker_values& c) {
  out.family("kafka_network_requestmetrics_requests_total", "Requests answered, per API and version", "counter");
  for (auto& r : c.requests)
    for (auto& [version, n] : r.per_version)
      out.sample("kafka_network_requestmetrics_requests_total",
                 {{"request", wire::api_name(r.api_key)}, {"version", std::to_string(version)}}, n);
  out.family("kafka_network_requestmetrics_totaltimems",
             "Milliseconds from reading a request to answering it (quantiles since start-up)", "summary");
  for (auto& r : c.requests) {
    auto name = timing_name(r.api_key);
    for (auto q : quantiles)
      out.sample("kafka_network_requestmetrics_totaltimems", {{"request", name}, {"quantile", format_value(q)}},
                 estimate_quantile(r.total_time, q));
    out.sample("kafka_network_requestmetrics_totaltimems_sum", {{"request", name}}, r.total_time.sum_ms);
    out.sample("kafka_network_requestmetrics_totaltimems_count", {{"request", name}}, r.total_time.count);
  }
  out.family("cafka_request_latency_seconds", "Seconds from reading a request to answering it", "histogram");
  for (auto& r : c.requests)
    out.histogram("cafka_request_latency_seconds", {{"request", wire::api_name(r.api_key)}}, r.total_time,
                  1e-3);
  out.family("kafka_network_requestmetrics_errors_total",
             "Error codes answered, per API (per partition for Produce and Fetch)", "counter");
  for (auto& [key, n] : c.errors)
    out.sample("kafka_network_requestmetrics_errors_total",
               {{"request", wire::api_name(key.first)}, {"error", error_name(key.second)}}, n);
}

void gauge(exposition& out, const char* name, const char* help, int64_t value) {
  out.family(name, help, "gauge");
  out.sample(name, {}, value);
}

void counter(exposition& out, const char* name, const char* help, uint64_t value) {
  out.family(name, help, "counter");
  out.sample(name, {}, value);
}

void replica_metrics(exposition& out, const broker_values& c, const broker_gauges& g) {
  int64_t leaders = 0, under_replicated = 0;
  for (auto& p : g.partitions)
    if (p.leader) {
      ++leaders;
      if (p.isr < p.replicas)
        ++under_replicated;
    }
  gauge(out, "kafka_server_replicamanager_partitioncount", "Replicas on this broker",
        static_cast<int64_t>(g.partitions.size()));
  gauge(out, "kafka_server_replicamanager_leadercount", "Partitions this broker leads", leaders);
  gauge(out, "kafka_server_replicamanager_underreplicatedpartitions",
        "Partitions led here whose ISR is smaller than their replica list", under_replicated);
  counter(out, "kafka_server_replicamanager_isrshrinks_total", "Replicas removed from the ISR of partitions led here",
          c.isr_shrinks);
  counter(out, "kafka_server_replicamanager_isrexpands_total", "Replicas added to the ISR of partitions led here",
          c.isr_expands);
  auto& cl = g.cluster;
  gauge(out, "kafka_controller_kafkacontroller_activecontrollercount", "1 on the active controller",
        cl.active_controller ? 1 : 0);
  gauge(out, "kafka_controller_kafkacontroller_offlinepartitionscount",
        "Partitions without a live leader (active controller only)", cl.active_controller ? cl.offline_partitions : 0);
  gauge(out, "kafka_controller_kafkacontroller_globaltopiccount", "Topics (active controller only)",
        cl.active_controller ? cl.topics : 0);
  gauge(out, "kafka_controller_kafkacontroller_globalpartitioncount", "Partitions (active controller only)",
        cl.active_controller ? cl.partitions : 0);
}

labels of(const partition_gauges& p) { return {{"topic", p.topic}, {"partition", std::to_string(p.partition)}}; }

void log_metrics(exposition& out, const broker_gauges& g) {
  struct family {
    const char* name;
    const char* help;
    int64_t (*value)(const partition_gauges&);
  };
  static const family families[] = {
    {"kafka_log_log_size", "Bytes of the replica's segments", [](const partition_gauges& p) { return p.size_bytes; }},
    {"kafka_log_log_logendoffset", "The replica's log end offset",
     [](const partition_gauges& p) { return p.log_end_offset; }},
    {"kafka_log_log_logstartoffset", "The replica's log start offset",
     [](const partition_gauges& p) { return p.log_start_offset; }},
    {"kafka_log_log_numlogsegments", "The replica's segments",
     [](const partition_gauges& p) { return static_cast<int64_t>(p.segments); }},
  };
  for (auto& f : families) {
    out.family(f.name, f.help, "gauge");
    for (auto& p : g.partitions)
      out.sample(f.name, of(p), f.value(p));
  }
}

// kafka_exporter's partition series, each partition reported by its leader.
void exporter_partition_metrics(exposition& out, const broker_gauges& g) {
  gauge(out, "kafka_brokers", "Live brokers in the cluster view", g.cluster.brokers);
  struct family {
    const char* name;
    const char* help;
    int64_t (*value)(const partition_gauges&);
  };
  static const family families[] = {
    {"kafka_topic_partition_current_offset", "High watermark",
     [](const partition_gauges& p) { return p.high_watermark; }},
    {"kafka_topic_partition_oldest_offset", "Log start offset",
     [](const partition_gauges& p) { return p.log_start_offset; }},
    {"kafka_topic_partition_in_sync_replica", "In-sync replicas",
     [](const partition_gauges& p) { return static_cast<int64_t>(p.isr); }},
    {"kafka_topic_partition_replicas", "Replicas", [](const partition_gauges& p) { return static_cast<int64_t>(p.replicas); }},
    {"kafka_topic_partition_leader", "The leader's broker id",
     [](const partition_gauges& p) { return static_cast<int64_t>(p.leader_id); }},
    {"kafka_topic_partition_under_replicated_partition", "1 if the ISR is smaller than the replica list",
     [](const partition_gauges& p) { return static_cast<int64_t>(p.isr < p.replicas ? 1 : 0); }},
  };
  for (auto& f : families) {
    out.family(f.name, f.help, "gauge");
    for (auto& p : g.partitions)
      if (p.leader)
        out.sample(f.name, of(p), f.value(p));
  }
}

void group_metrics(exposition& out, const broker_gauges& g) {
  std::map<std::pair<std::string, int32_t>, int64_t> high_watermarks;
  for (auto& p : g.partitions)
    high_watermarks[{p.topic, p.partition}] = std::max(high_watermarks[{p.topic, p.partition}], p.high_watermark);
  out.family("kafka_consumergroup_members", "Members of the group", "gauge");
  for (auto& grp : g.groups)
    out.sample("kafka_consumergroup_members", {{"consumergroup", grp.group}}, int64_t{grp.members});
  out.family("kafka_consumergroup_current_offset", "The group's committed offset", "gauge");
  for (auto& grp : g.groups)
    for (auto& c : grp.committed)
      out.sample("kafka_consumergroup_current_offset",
                 {{"consumergroup", grp.group}, {"topic", c.topic}, {"partition", std::to_string(c.partition)}}, c.offset);
  out.family("kafka_consumergroup_lag", "High watermark minus the committed offset", "gauge");
  std::map<std::pair<std::string, std::string>, int64_t> sums;
  for (auto& grp : g.groups)
    for (auto& c : grp.committed) {
      auto hw = high_watermarks.find({c.topic, c.partition});
      if (hw == high_watermarks.end() || c.offset < 0)
        continue;
      auto lag = std::max<int64_t>(0, hw->second - c.offset);
      sums[{grp.group, c.topic}] += lag;
      out.sample("kafka_consumergroup_lag",
                 {{"consumergroup", grp.group}, {"topic", c.topic}, {"partition", std::to_string(c.partition)}}, lag);
    }
  out.family("kafka_consumergroup_lag_sum", "The group's lag over a topic's partitions", "gauge");
  for (auto& [key, sum] : sums)
    out.sample("kafka_consumergroup_lag_sum", {{"consumergroup", key.first}, {"topic", key.second}}, sum);
}

void connection_metrics(exposition& out, const broker_values& c) {
  out.family("kafka_server_socket_server_metrics_connection_count", "Open connections of the listener", "gauge");
  for (auto& [listener, n] : c.connections)
    out.sample("kafka_server_socket_server_metrics_connection_count", {{"listener", listener}},
               static_cast<int64_t>(n.first - std::min(n.first, n.second)));
  out.family("kafka_server_socket_server_metrics_connection_creation_total", "Connections accepted", "counter");
  for (auto& [listener, n] : c.connections)
    out.sample("kafka_server_socket_server_metrics_connection_creation_total", {{"listener", listener}}, n.first);
  out.family("kafka_server_socket_server_metrics_connection_close_total", "Connections closed", "counter");
  for (auto& [listener, n] : c.connections)
    out.sample("kafka_server_socket_server_metrics_connection_close_total", {{"listener", listener}}, n.second);
}

void retention_metrics(exposition& out, const broker_values& c) {
  counter(out, "cafka_log_retention_checks_total", "Retention passes over the partitions", c.retention_runs);
  counter(out, "cafka_log_retention_deleted_segments_total", "Segments deleted by retention",
          c.retention_deleted_segments);
  counter(out, "cafka_log_retention_deleted_bytes_total", "Bytes deleted by retention", c.retention_deleted_bytes);
}

void process_metrics(exposition& out, const process_stats& p) {
  out.family("process_cpu_seconds_total", "User and system CPU time", "counter");
  out.sample("process_cpu_seconds_total", {}, p.cpu_seconds);
  out.family("process_start_time_seconds", "Start time since the epoch", "gauge");
  out.sample("process_start_time_seconds", {}, p.start_time_seconds);
  gauge(out, "process_resident_memory_bytes", "Resident memory", static_cast<int64_t>(p.resident_bytes));
  gauge(out, "process_virtual_memory_bytes", "Virtual memory", static_cast<int64_t>(p.virtual_bytes));
  gauge(out, "process_open_fds", "Open file descriptors", static_cast<int64_t>(p.open_fds));
  gauge(out, "process_max_fds", "The file descriptor limit", static_cast<int64_t>(p.max_fds));
  gauge(out, "cafka_process_peak_resident_memory_bytes", "Peak resident memory (VmHWM)",
        static_cast<int64_t>(p.peak_resident_bytes));
  gauge(out, "cafka_process_threads", "Threads", static_cast<int64_t>(p.threads));
}

} // namespace

std::string render_metrics(const broker_values& counters, const broker_gauges& gauges,
                           const std::optional<process_stats>& process) {
  exposition out;
  topic_metrics(out, counters);
  request_metrics(out, counters);
  replica_metrics(out, counters, gauges);
  log_metrics(out, gauges);
  exporter_partition_metrics(out, gauges);
  group_metrics(out, gauges);
  connection_metrics(out, counters);
  retention_metrics(out, counters);
  if (process)
    process_metrics(out, *process);
  return out.text();
}

} // namespace cafka::metrics
