#pragma once
// The broker's settings (server.properties), typed and validated, with Kafka's key names and
// defaults. known_keys() is the registry of every supported key; config/server.properties
// lists the same keys with the same defaults (a test checks this).
//
// Validation: an unknown key is a warning ("unknown key 'foo.bar' ignored (line 12)"); a bad
// value is an error (errc::invalid_value) that names the key, the value and what is
// allowed: "log.segment.bytes: invalid value 'abc': expected an integer >= 14 (line 7)"
// (or "(--override)"). Integers outside their Java type (int or long) are errors, never
// wrapped. Numbers and booleans follow Kafka: optional sign, decimal; true/false in any case.
// The first bad value, in file order and then override order, is the one reported.

#include "config/error.hpp"
#include "config/listener.hpp"
#include "config/log_levels.hpp"
#include "config/properties_file.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::config {

/// Every supported setting, initialised to its default. Derived settings (roll and
/// retention time) hold the effective value after Kafka's precedence rules.
struct server_config {
  /// broker.id (>= 0). Kafka's default is -1 (generate an id through ZooKeeper); cafka
  /// does not generate ids, so the default is 0, which is right for a single node.
  int32_t broker_id = 0;
  /// broker.rack: "" = none. Placement is rack-aware when every live broker has one.
  std::string broker_rack;
  /// listeners: Kafka wire-protocol listeners, at least one.
  std::vector<listener> listeners{listener{"PLAINTEXT", "127.0.0.1", 9092}};
  /// log.dirs (or legacy log.dir when log.dirs is not given): unique, non-empty paths.
  std::vector<std::string> log_dirs{"/tmp/cafka-logs"};
  /// num.partitions (>= 1): partitions of an auto-created topic.
  int32_t num_partitions = 1;
  /// default.replication.factor (>= 1): replicas of an auto-created topic.
  int32_t default_replication_factor = 1;
  /// min.insync.replicas (>= 1): in-sync replicas an acks=all produce needs.
  int32_t min_insync_replicas = 1;
  /// zookeeper.connect: host:port[,host:port...][/chroot]; empty = embedded coordinator.
  std::string zookeeper_connect;
  /// zookeeper.session.timeout.ms (>= 1).
  int32_t zookeeper_session_timeout_ms = 18000;
  /// log.segment.bytes (>= 14).
  int32_t log_segment_bytes = 1073741824;
  /// Effective roll time: log.roll.ms if given, else log.roll.hours (default 168) in ms.
  int64_t log_roll_ms = 168LL * 60 * 60 * 1000;
  /// Effective retention time: log.retention.ms, else log.retention.minutes, else
  /// log.retention.hours (default 168), in ms; -1 = unlimited.
  int64_t log_retention_ms = 168LL * 60 * 60 * 1000;
  /// log.retention.bytes: per-partition size limit; -1 = unlimited.
  int64_t log_retention_bytes = -1;
  /// log.retention.check.interval.ms (>= 1): how often the retention cleaner runs.
  int64_t log_retention_check_interval_ms = 300000;
  /// log.cleaner.enable: run compaction for topics with cleanup.policy=compact.
  bool log_cleaner_enable = true;
  /// log.cleaner.threads, log.cleaner.dedupe.buffer.size (bytes over all threads),
  /// log.cleaner.io.buffer.load.factor, log.cleaner.backoff.ms (actors/log_cleaner.hpp).
  int32_t log_cleaner_threads = 1;
  int64_t log_cleaner_dedupe_buffer_size = 134217728;
  double log_cleaner_io_buffer_load_factor = 0.9;
  int64_t log_cleaner_backoff_ms = 15000;
  /// The broker defaults of min.cleanable.dirty.ratio, min/max.compaction.lag.ms and
  /// delete.retention.ms.
  double log_cleaner_min_cleanable_ratio = 0.5;
  int64_t log_cleaner_min_compaction_lag_ms = 0;
  int64_t log_cleaner_max_compaction_lag_ms = std::numeric_limits<int64_t>::max();
  int64_t log_cleaner_delete_retention_ms = 86400000;
  /// log.flush.interval.messages (>= 1): fsync after this many unflushed records.
  int64_t log_flush_interval_messages = std::numeric_limits<int64_t>::max();
  /// log.flush.interval.ms (>= 0): fsync when unflushed data is this old; unset = never.
  int64_t log_flush_interval_ms = std::numeric_limits<int64_t>::max();
  /// log.index.interval.bytes (>= 0): log bytes between two sparse index entries.
  int32_t log_index_interval_bytes = 4096;
  /// log.index.size.max.bytes (>= 4): the size an index file is preallocated to.
  int32_t log_index_size_max_bytes = 10485760;
  /// message.max.bytes (>= 0): the largest record batch accepted.
  int32_t message_max_bytes = 1048588;
  /// auto.create.topics.enable: create a topic on first produce/metadata request.
  bool auto_create_topics_enable = true;
  /// delete.topic.enable: allow deleting topics.
  bool delete_topic_enable = true;
  /// producer.id.expiration.ms (>= 1): an idempotent producer's state in a partition is
  /// dropped once its last batch is this old.
  int64_t producer_id_expiration_ms = 86400000;
  /// replica.lag.time.max.ms (>= 1): a follower this far behind leaves the ISR.
  int64_t replica_lag_time_max_ms = 30000;
  /// replica.fetch.wait.max.ms (>= 0, <= replica.lag.time.max.ms): a follower's long poll.
  int32_t replica_fetch_wait_max_ms = 500;
  /// replica.fetch.max.bytes (>= 1): bytes per partition a follower asks for at once.
  int32_t replica_fetch_max_bytes = 1048576;
  /// replica.fetch.backoff.ms (>= 0): a follower's wait after a failed fetch.
  int32_t replica_fetch_backoff_ms = 1000;
  /// replica.high.watermark.checkpoint.interval.ms (>= 1).
  int64_t replica_high_watermark_checkpoint_interval_ms = 5000;
  /// unclean.leader.election.enable: elect a replica outside the ISR when none is live.
  bool unclean_leader_election_enable = false;
  /// controlled.shutdown.enable: before stopping, ask the controller to move this broker's
  /// leaderships and ISR memberships to the other replicas (docs/operations.md);
  /// controlled.shutdown.max.retries (>= 0) more tries when partitions are left, each after
  /// controlled.shutdown.retry.backoff.ms (>= 0).
  bool controlled_shutdown_enable = true;
  int32_t controlled_shutdown_max_retries = 3;
  int64_t controlled_shutdown_retry_backoff_ms = 5000;
  /// auto.leader.rebalance.enable: the controller moves leadership back to each partition's
  /// first replica (its preferred leader) when that one is in the ISR, every
  /// leader.imbalance.check.interval.seconds (>= 1), for each broker whose share of
  /// partitions led by another broker is above leader.imbalance.per.broker.percentage (0-100).
  bool auto_leader_rebalance_enable = true;
  int64_t leader_imbalance_check_interval_seconds = 300;
  int32_t leader_imbalance_per_broker_percentage = 10;
  /// socket.request.max.bytes (>= 1): the largest request a listener reads.
  int32_t socket_request_max_bytes = 104857600;
  /// queued.max.requests (>= 1): requests read and not yet answered, over a listener's
  /// connections; above it no connection of the listener is read from.
  int32_t queued_max_requests = 500;
  /// queued.max.request.bytes (>= 1, -1 = unbounded): the bytes of those requests.
  int64_t queued_max_request_bytes = -1;
  /// socket.send.buffer.bytes / socket.receive.buffer.bytes (>= 1, -1 = the OS default):
  /// SO_SNDBUF / SO_RCVBUF of client connections. The send size also bounds the response
  /// bytes a connection may have waiting for the socket before it is no longer read from.
  int32_t socket_send_buffer_bytes = 102400;
  int32_t socket_receive_buffer_bytes = 102400;
  /// max.connections, max.connections.per.ip (>= 0): connections accepted at once, over the
  /// broker's listeners and per client address; max.connections.per.ip.overrides
  /// ("host:count,..."): per-address exceptions. A connection above a limit is closed.
  int32_t max_connections = 2147483647;
  int32_t max_connections_per_ip = 2147483647;
  std::map<std::string, int32_t> max_connections_per_ip_overrides;
  /// connections.max.idle.ms (>= 1): a connection without reads or writes this long is closed.
  int64_t connections_max_idle_ms = 600000;
  /// quota.window.num / quota.window.size.seconds (>= 1): client quotas measure rates over
  /// this many samples of this length (docs/quotas.md).
  int32_t quota_window_num = 11;
  int32_t quota_window_size_seconds = 1;
  /// log.level and log.level.<component> (ERROR, WARN, INFO, DEBUG): what the server logs.
  log_levels logging;
  /// group.initial.rebalance.delay.ms (>= 0): wait for more members before the first
  /// rebalance of an empty group.
  int32_t group_initial_rebalance_delay_ms = 3000;
  /// group.min.session.timeout.ms (>= 0): the shortest session timeout a member may ask for.
  int32_t group_min_session_timeout_ms = 6000;
  /// group.max.session.timeout.ms (>= 0): the longest session timeout a member may ask for.
  int32_t group_max_session_timeout_ms = 1800000;
  /// offsets.retention.minutes (>= 1): keep committed offsets of an empty group this long.
  int32_t offsets_retention_minutes = 10080;
  /// offsets.topic.num.partitions (>= 1): partitions of __consumer_offsets (keep it fixed).
  int32_t offsets_topic_num_partitions = 50;
  /// offsets.topic.replication.factor (>= 1): replicas of each __consumer_offsets partition;
  /// a cluster with fewer live brokers when the topic is created gets as many as it has.
  int32_t offsets_topic_replication_factor = 3;
  /// offsets.retention.check.interval.ms (>= 1): how often expired offsets are removed.
  int64_t offsets_retention_check_interval_ms = 600000;
  /// transaction.state.log.num.partitions (>= 1): partitions of __transaction_state (keep it
  /// fixed once the topic exists).
  int32_t transaction_state_log_num_partitions = 50;
  /// transaction.state.log.replication.factor (>= 1): replicas of each __transaction_state
  /// partition (fewer when fewer brokers are live at its creation).
  int32_t transaction_state_log_replication_factor = 3;
  /// transaction.state.log.min.isr (>= 1): its min.insync.replicas (at most its replicas).
  int32_t transaction_state_log_min_isr = 2;
  /// transaction.state.log.segment.bytes (>= 14): its segment size.
  int32_t transaction_state_log_segment_bytes = 104857600;
  /// transaction.max.timeout.ms (>= 1): the longest transaction.timeout.ms a producer may ask.
  int32_t transaction_max_timeout_ms = 900000;
  /// transactional.id.expiration.ms (>= 1): a transactional id idle this long (no transaction
  /// open) is forgotten; also __transaction_state's retention.ms.
  int32_t transactional_id_expiration_ms = 604800000;
  /// transaction.abort.timed.out.transaction.cleanup.interval.ms (>= 1): how often
  /// transactions open longer than their timeout are aborted.
  int32_t transaction_abort_timed_out_transaction_cleanup_interval_ms = 10000;
  /// caf.port (0..65535): the CAF middleman port for brokers and cafka's C++ client.
  uint16_t caf_port = 9192;
  /// metrics.listener (host:port, port 0..65535; empty = off): the HTTP endpoint of
  /// /metrics, /health and /ready (docs/metrics.md). Named METRICS.
  std::optional<listener> metrics_listener = listener{"METRICS", "127.0.0.1", 9644};
  /// caf.secret.file: a file holding the secret that brokers and cafka's C++ clients prove
  /// to each other before CAF's BASP runs on caf.port (actors/caf_port_gate.hpp). Unset:
  /// a built-in secret, and caf.port binds to loopback only (caf_bind_host()).
  std::string caf_secret_file;
  /// The secret read from caf.secret.file when the configuration was built ("" if unset).
  std::string caf_secret;
  /// The keys the properties file and the overrides set, as written: what DescribeConfigs
  /// reports as STATIC_BROKER_CONFIG. Not compared by ==.
  std::map<std::string, std::string> given;
};

/// Where caf.port listens: the first listener's host when caf.secret.file is set or that
/// host is a loopback address, else 127.0.0.1 (the built-in secret is no protection).
std::string caf_bind_host(const server_config& c);

/// "localhost", 127.0.0.0/8 or ::1.
bool is_loopback_host(std::string_view host);

bool operator==(const server_config& a, const server_config& b);
inline bool operator!=(const server_config& a, const server_config& b) { return !(a == b); }

/// One supported key, as documented in config/server.properties.
struct key_info {
  std::string name;          ///< e.g. "log.segment.bytes"
  std::string default_value; ///< as written in server.properties; "" = unset by default
  std::string allowed;       ///< e.g. "an integer >= 14"
  std::string doc;           ///< one line
};

/// Every supported key (config/server.properties lists the same keys, grouped by topic).
const std::vector<key_info>& known_keys();

/// A validated configuration and the warnings found while building it.
struct loaded_config {
  server_config config;
  std::vector<std::string> warnings;
};

/// Builds the configuration from a parsed file plus overrides (overrides win). Errors:
/// errc::invalid_value as described at the top of this header.
outcome<loaded_config> make_server_config(const properties& file,
                                          const properties& overrides = {});

/// Reads `path`, parses `args` with parse_overrides (config/overrides.hpp) and builds the
/// configuration: what `cafka-server <path> [--override k=v]...` does. Errors: those of
/// load_properties, parse_overrides and make_server_config.
outcome<loaded_config> load_server_config(const std::string& path,
                                          const std::vector<std::string_view>& args = {});

} // namespace cafka::config
