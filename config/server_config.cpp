#include "config/server_config.hpp"

#include "config/overrides.hpp"
#include "config/secret_file.hpp"
#include "config/value_parsers.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <type_traits>

namespace cafka::config {

namespace {

constexpr int64_t ms_per_minute = 60 * 1000;
constexpr int64_t ms_per_hour = 60 * ms_per_minute;

/// Values read so far: the typed config, plus the keys whose effect depends on others.
struct settings {
  server_config cfg;
  std::optional<int64_t> roll_ms;
  int32_t roll_hours = 168;
  std::optional<int64_t> retention_ms;
  std::optional<int32_t> retention_minutes;
  int32_t retention_hours = 168;
  std::optional<std::vector<std::string>> log_dirs;
  std::optional<std::vector<std::string>> log_dir;
};

/// Applies one value; on failure returns false and may set `detail` (appended after the
/// allowed values, e.g. "'FOO' is not NAME://host:port").
using apply_fn = std::function<bool(std::string_view value, settings& s, std::string& detail)>;

struct key_spec {
  key_info info;
  apply_fn apply;
};

// -- integers --------------------------------------------------------------------------

/// Allowed integers: [min, max], and -1 too when `or_unlimited`.
struct range {
  int64_t min;
  int64_t max;
  bool or_unlimited = false;
};

std::string describe(const range& r, int64_t type_max) {
  std::string text = r.or_unlimited ? "-1 (unlimited) or " : "";
  if (r.max == type_max)
    return text + "an integer >= " + std::to_string(r.min);
  return text + "an integer between " + std::to_string(r.min) + " and " + std::to_string(r.max);
}

/// The Java type of a field: int for up to 32 bits, long for 64.
template <class Int>
constexpr int64_t java_min() {
  return sizeof(Int) <= 4 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
}
template <class Int>
constexpr int64_t java_max() {
  return sizeof(Int) <= 4 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
}

template <class T>
struct unwrap_optional { using type = T; };
template <class T>
struct unwrap_optional<std::optional<T>> { using type = T; };

template <class Owner>
Owner& owner(settings& s) {
  if constexpr (std::is_same_v<Owner, server_config>)
    return s.cfg;
  else
    return s;
}

/// An integer key stored in `field` (a member of server_config or of settings, plain or
/// std::optional). A value beyond the Java type is an error, never wrapped.
template <class Owner, class Field>
key_spec integer_key(std::string name, std::string def, range r, Field Owner::*field,
                     std::string doc) {
  using Int = typename unwrap_optional<Field>::type;
  auto allowed = describe(r, java_max<Int>());
  auto apply = [r, field](std::string_view value, settings& s, std::string& detail) {
    auto parsed = parse_integer(value, java_min<Int>(), java_max<Int>());
    if (parsed.status == parsed_integer::too_large && r.max == java_max<Int>())
      detail = "at most " + std::to_string(r.max); // the allowed text names no upper bound
    auto v = parsed.value;
    if (parsed.status != parsed_integer::ok
        || !((v >= r.min && v <= r.max) || (r.or_unlimited && v == -1)))
      return false;
    owner<Owner>(s).*field = static_cast<Int>(v);
    return true;
  };
  return {{std::move(name), std::move(def), std::move(allowed), std::move(doc)}, apply};
}

key_spec bool_key(std::string name, std::string def, bool server_config::*field, std::string doc) {
  auto apply = [field](std::string_view value, settings& s, std::string&) {
    auto b = parse_bool(value);
    if (b)
      s.cfg.*field = *b;
    return b.has_value();
  };
  return {{std::move(name), std::move(def), "true or false", std::move(doc)}, apply};
}

/// A number in [min, max] (a Java double), stored in `field`.
key_spec ratio_key(std::string name, std::string def, double min, double max, double server_config::*field,
                   std::string doc) {
  auto apply = [min, max, field](std::string_view value, settings& s, std::string&) {
    std::string text(value);
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v >= min && v <= max))
      return false;
    s.cfg.*field = v;
    return true;
  };
  std::ostringstream allowed;
  allowed << "a number from " << min << " to " << max;
  return {{std::move(name), std::move(def), allowed.str(), std::move(doc)}, apply};
}

// -- lists and strings -----------------------------------------------------------------

bool parse_paths(std::string_view value, std::optional<std::vector<std::string>>& out,
                 std::string& detail) {
  auto paths = split_list(value);
  if (paths.empty())
    return false;
  std::set<std::string> seen;
  for (auto& p : paths) {
    if (p.empty())
      return false;
    if (!seen.insert(p).second) {
      detail = "'" + p + "' appears twice";
      return false;
    }
  }
  out = std::move(paths);
  return true;
}

const std::string paths_allowed = "a comma-separated list of one or more distinct paths";

bool parse_listeners(std::string_view value, settings& s, std::string& detail) {
  auto entries = split_list(value);
  if (entries.empty())
    return false;
  std::vector<listener> result;
  std::set<std::string> names;
  for (auto& entry : entries) {
    auto l = parse_listener(entry);
    if (!l) {
      detail = "'" + entry + "' is not NAME://host:port";
      return false;
    }
    if (!names.insert(l->name).second) {
      detail = "listener name '" + l->name + "' appears twice";
      return false;
    }
    result.push_back(std::move(*l));
  }
  s.cfg.listeners = std::move(result);
  return true;
}

// -- the registry ----------------------------------------------------------------------

std::vector<key_spec> make_registry() {
  using sc = server_config;
  using st = settings;
  constexpr auto int_max = std::numeric_limits<int32_t>::max();
  constexpr auto long_max = std::numeric_limits<int64_t>::max();
  std::vector<key_spec> r;
  r.push_back(integer_key("broker.id", "0", {0, int_max}, &sc::broker_id,
                          "this node's id, unique in the cluster (Kafka's -1 = generated is "
                          "not supported; 0 suits a single node)"));
  r.push_back({{"broker.rack", "", "printable ASCII without quotes or backslashes (empty = none)",
                "this broker's rack: replicas of a partition go to different racks when every broker has one"},
               [](std::string_view v, st& s, std::string&) {
                 bool printable = std::all_of(v.begin(), v.end(), [](char ch) {
                   return ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\';
                 });
                 if (!printable)
                   return false;
                 s.cfg.broker_rack = std::string(v);
                 return true;
               }});
  r.push_back({{"listeners", "PLAINTEXT://127.0.0.1:9092",
                "a comma-separated list of NAME://host:port with distinct names and port "
                "0..65535",
                "Kafka wire-protocol listeners; empty host = default interface, 0.0.0.0 = all"},
               parse_listeners});
  r.push_back({{"log.dirs", "/tmp/cafka-logs", paths_allowed,
                "directories holding partition logs, comma-separated"},
               [](std::string_view v, st& s, std::string& d) { return parse_paths(v, s.log_dirs, d); }});
  r.push_back({{"log.dir", "", paths_allowed,
                "legacy single-directory form of log.dirs, used only when log.dirs is not set"},
               [](std::string_view v, st& s, std::string& d) { return parse_paths(v, s.log_dir, d); }});
  r.push_back(integer_key("num.partitions", "1", {1, int_max}, &sc::num_partitions,
                          "partitions of an automatically created topic"));
  r.push_back(integer_key("default.replication.factor", "1", {1, int_max},
                          &sc::default_replication_factor,
                          "replicas of an automatically created topic"));
  r.push_back(integer_key("min.insync.replicas", "1", {1, int_max}, &sc::min_insync_replicas,
                          "in-sync replicas that must have a record before acks=all succeeds"));
  r.push_back({{"zookeeper.connect", "",
                "empty or host:port[,host:port...][/chroot] with ports 1..65535",
                "ZooKeeper ensemble of the cluster; unset or empty = embedded coordinator "
                "(single node)"},
               [](std::string_view v, st& s, std::string&) {
                 if (!v.empty() && !is_valid_zookeeper_connect(v))
                   return false;
                 s.cfg.zookeeper_connect = std::string(v);
                 return true;
               }});
  r.push_back(integer_key("zookeeper.session.timeout.ms", "18000", {1, int_max},
                          &sc::zookeeper_session_timeout_ms,
                          "ZooKeeper session timeout; a broker silent this long leaves the cluster"));
  r.push_back(integer_key("log.segment.bytes", "1073741824", {14, int_max},
                          &sc::log_segment_bytes, "size at which a log segment is rolled"));
  r.push_back(integer_key("log.roll.ms", "", {1, long_max}, &st::roll_ms,
                          "age at which the active segment is rolled; overrides log.roll.hours"));
  r.push_back(integer_key("log.roll.hours", "168", {1, int_max}, &st::roll_hours,
                          "age at which the active segment is rolled, in hours"));
  r.push_back(integer_key("log.retention.ms", "", {1, long_max, true}, &st::retention_ms,
                          "delete segments older than this; overrides minutes and hours"));
  r.push_back(integer_key("log.retention.minutes", "", {1, int_max, true},
                          &st::retention_minutes,
                          "delete segments older than this; overrides log.retention.hours"));
  r.push_back(integer_key("log.retention.hours", "168", {1, int_max, true},
                          &st::retention_hours, "delete segments older than this, in hours"));
  r.push_back(integer_key("log.retention.bytes", "-1", {0, long_max, true},
                          &sc::log_retention_bytes,
                          "delete the oldest segments of a partition above this size"));
  r.push_back(integer_key("log.retention.check.interval.ms", "300000", {1, long_max},
                          &sc::log_retention_check_interval_ms,
                          "how often the retention cleaner looks for segments to delete"));
  r.push_back(bool_key("log.cleaner.enable", "true", &sc::log_cleaner_enable,
                       "compact topics whose cleanup.policy is compact"));
  r.push_back(integer_key("log.cleaner.threads", "1", {1, 64}, &sc::log_cleaner_threads,
                          "threads the log cleaner cleans on"));
  r.push_back(integer_key("log.cleaner.dedupe.buffer.size", "134217728", {1024 * 1024, long_max},
                          &sc::log_cleaner_dedupe_buffer_size,
                          "memory of the cleaner's key maps, over all its threads"));
  r.push_back(ratio_key("log.cleaner.io.buffer.load.factor", "0.9", 0.01, 1.0,
                        &sc::log_cleaner_io_buffer_load_factor, "how full a cleaner's key map may get"));
  r.push_back(integer_key("log.cleaner.backoff.ms", "15000", {0, long_max}, &sc::log_cleaner_backoff_ms,
                          "how long the cleaner sleeps when no log needs cleaning"));
  r.push_back(ratio_key("log.cleaner.min.cleanable.ratio", "0.5", 0.0, 1.0, &sc::log_cleaner_min_cleanable_ratio,
                        "default min.cleanable.dirty.ratio"));
  r.push_back(integer_key("log.cleaner.min.compaction.lag.ms", "0", {0, long_max},
                          &sc::log_cleaner_min_compaction_lag_ms, "default min.compaction.lag.ms"));
  r.push_back(integer_key("log.cleaner.max.compaction.lag.ms", "9223372036854775807", {1, long_max},
                          &sc::log_cleaner_max_compaction_lag_ms, "default max.compaction.lag.ms"));
  r.push_back(integer_key("log.cleaner.delete.retention.ms", "86400000", {0, long_max},
                          &sc::log_cleaner_delete_retention_ms, "default delete.retention.ms"));
  r.push_back(integer_key("log.flush.interval.messages", "9223372036854775807", {1, long_max},
                          &sc::log_flush_interval_messages,
                          "fsync a partition after this many unflushed records"));
  r.push_back(integer_key("log.flush.interval.ms", "", {0, long_max},
                          &sc::log_flush_interval_ms,
                          "fsync a partition when unflushed data is this old; unset = never"));
  r.push_back(integer_key("log.index.interval.bytes", "4096", {0, int_max},
                          &sc::log_index_interval_bytes,
                          "log bytes between two entries of the sparse offset index"));
  r.push_back(integer_key("log.index.size.max.bytes", "10485760", {4, int_max},
                          &sc::log_index_size_max_bytes,
                          "size of an offset or time index file; a full index rolls the segment"));
  r.push_back(integer_key("message.max.bytes", "1048588", {0, int_max}, &sc::message_max_bytes,
                          "largest record batch the broker accepts"));
  r.push_back(bool_key("auto.create.topics.enable", "true", &sc::auto_create_topics_enable,
                       "create a topic when a client first uses it"));
  r.push_back(bool_key("delete.topic.enable", "true", &sc::delete_topic_enable,
                       "allow topics to be deleted"));
  r.push_back(integer_key("producer.id.expiration.ms", "86400000", {1, int_max}, &sc::producer_id_expiration_ms,
                          "an idempotent producer's state in a partition is dropped once its last batch is this old"));
  r.push_back(integer_key("replica.lag.time.max.ms", "30000", {1, long_max},
                          &sc::replica_lag_time_max_ms,
                          "a follower that has not caught up for this long leaves the ISR"));
  r.push_back(integer_key("replica.fetch.wait.max.ms", "500", {0, int_max}, &sc::replica_fetch_wait_max_ms,
                          "longest wait of a follower's fetch at its leader"));
  r.push_back(integer_key("replica.fetch.max.bytes", "1048576", {1, int_max}, &sc::replica_fetch_max_bytes,
                          "bytes per partition a follower fetches at once"));
  r.push_back(integer_key("replica.fetch.backoff.ms", "1000", {0, int_max}, &sc::replica_fetch_backoff_ms,
                          "a follower's wait after a failed fetch"));
  r.push_back(integer_key("replica.high.watermark.checkpoint.interval.ms", "5000", {1, long_max},
                          &sc::replica_high_watermark_checkpoint_interval_ms,
                          "how often high watermarks are written to replication-offset-checkpoint"));
  r.push_back(bool_key("unclean.leader.election.enable", "false", &sc::unclean_leader_election_enable,
                       "elect a live replica outside the ISR when no ISR member is live (may lose records)"));
  r.push_back(bool_key("controlled.shutdown.enable", "true", &sc::controlled_shutdown_enable,
                       "move leaderships and ISR memberships to other replicas before stopping"));
  r.push_back(integer_key("controlled.shutdown.max.retries", "3", {0, int_max}, &sc::controlled_shutdown_max_retries,
                          "more tries of a controlled shutdown that left partitions to move"));
  r.push_back(integer_key("controlled.shutdown.retry.backoff.ms", "5000", {0, long_max},
                          &sc::controlled_shutdown_retry_backoff_ms, "the wait before each of those tries"));
  r.push_back(bool_key("auto.leader.rebalance.enable", "true", &sc::auto_leader_rebalance_enable,
                       "move leadership back to each partition's preferred (first) replica once it is in sync"));
  r.push_back(integer_key("leader.imbalance.check.interval.seconds", "300", {1, long_max},
                          &sc::leader_imbalance_check_interval_seconds,
                          "how often the controller checks for leaders away from their preferred replica"));
  r.push_back(integer_key("leader.imbalance.per.broker.percentage", "10", {0, 100},
                          &sc::leader_imbalance_per_broker_percentage,
                          "share of a broker's preferred partitions led elsewhere that triggers a rebalance"));
  r.push_back(integer_key("socket.request.max.bytes", "104857600", {1, int_max},
                          &sc::socket_request_max_bytes,
                          "largest request a Kafka listener reads"));
  r.push_back(integer_key("queued.max.requests", "500", {1, int_max}, &sc::queued_max_requests,
                          "unanswered requests over a listener's connections before it stops reading"));
  r.push_back(integer_key("queued.max.request.bytes", "-1", {1, long_max, true}, &sc::queued_max_request_bytes,
                          "bytes of unanswered requests over a listener's connections before it stops reading"));
  r.push_back(integer_key("socket.send.buffer.bytes", "102400", {1, int_max, true}, &sc::socket_send_buffer_bytes,
                          "SO_SNDBUF of client connections (-1: OS default); also the unsent response bytes "
                          "after which a connection is not read from"));
  r.push_back(integer_key("socket.receive.buffer.bytes", "102400", {1, int_max, true},
                          &sc::socket_receive_buffer_bytes, "SO_RCVBUF of client connections (-1: OS default)"));
  r.push_back(integer_key("max.connections", "2147483647", {0, int_max}, &sc::max_connections,
                          "client connections over all Kafka listeners; more are closed at once"));
  r.push_back(integer_key("max.connections.per.ip", "2147483647", {0, int_max}, &sc::max_connections_per_ip,
                          "client connections from one address; more are closed at once"));
  r.push_back({{"max.connections.per.ip.overrides", "", "empty or host:count[,host:count...] with counts >= 0",
                "per-address exceptions to max.connections.per.ip"},
               [](std::string_view v, st& s, std::string& detail) {
                 std::map<std::string, int32_t> out;
                 for (auto& item : split_list(v)) {
                   auto colon = item.rfind(':');
                   if (colon == std::string::npos || colon == 0)
                     return false;
                   auto n = parse_integer(std::string_view(item).substr(colon + 1), 0, int_max);
                   if (n.status != parsed_integer::ok) {
                     detail = "'" + item + "'";
                     return false;
                   }
                   out[item.substr(0, colon)] = static_cast<int32_t>(n.value);
                 }
                 s.cfg.max_connections_per_ip_overrides = std::move(out);
                 return true;
               }});
  r.push_back(integer_key("connections.max.idle.ms", "600000", {1, long_max}, &sc::connections_max_idle_ms,
                          "close a client connection without reads or writes for this long"));
  r.push_back(integer_key("quota.window.num", "11", {1, int_max}, &sc::quota_window_num,
                          "samples of a client quota's rate (the current one and the whole ones before it)"));
  r.push_back(integer_key("quota.window.size.seconds", "1", {1, int_max}, &sc::quota_window_size_seconds,
                          "length of one sample of a client quota's rate"));
  r.push_back({{"log.level", "INFO", "ERROR, WARN, INFO or DEBUG",
                "the least severe level the server logs (every component)"},
               [](std::string_view v, st& s, std::string&) {
                 auto level = parse_log_level(v);
                 if (level)
                   s.cfg.logging.all = *level;
                 return level.has_value();
               }});
  for (size_t i = 0; i < log_component_count; ++i) {
    auto component = static_cast<log_component>(i);
    r.push_back({{std::string{"log.level."} + to_string(component), "", "empty (log.level), ERROR, WARN, INFO or DEBUG",
                  std::string{"log.level for the ["} + to_string(component) + "] lines only"},
                 [i](std::string_view v, st& s, std::string&) {
                   if (v.empty()) {
                     s.cfg.logging.by_component[i].reset();
                     return true;
                   }
                   auto level = parse_log_level(v);
                   if (level)
                     s.cfg.logging.by_component[i] = *level;
                   return level.has_value();
                 }});
  }
  r.push_back(integer_key("group.initial.rebalance.delay.ms", "3000", {0, int_max},
                          &sc::group_initial_rebalance_delay_ms,
                          "wait this long for more members before a new group's first rebalance"));
  r.push_back(integer_key("group.min.session.timeout.ms", "6000", {0, int_max},
                          &sc::group_min_session_timeout_ms,
                          "shortest session timeout a consumer group member may ask for"));
  r.push_back(integer_key("group.max.session.timeout.ms", "1800000", {0, int_max},
                          &sc::group_max_session_timeout_ms,
                          "longest session timeout a consumer group member may ask for"));
  r.push_back(integer_key("offsets.retention.minutes", "10080", {1, int_max},
                          &sc::offsets_retention_minutes,
                          "keep the committed offsets of an empty group this long"));
  r.push_back(integer_key("offsets.topic.num.partitions", "50", {1, int_max},
                          &sc::offsets_topic_num_partitions,
                          "partitions of __consumer_offsets; do not change once it exists"));
  r.push_back(integer_key("offsets.topic.replication.factor", "3", {1, int_max},
                          &sc::offsets_topic_replication_factor,
                          "replicas of __consumer_offsets (fewer when fewer brokers are live at its creation)"));
  r.push_back(integer_key("offsets.retention.check.interval.ms", "600000", {1, long_max},
                          &sc::offsets_retention_check_interval_ms,
                          "how often the offsets of empty groups are checked for expiry"));
  r.push_back(integer_key("transaction.state.log.num.partitions", "50", {1, int_max},
                          &sc::transaction_state_log_num_partitions,
                          "partitions of __transaction_state; do not change once it exists"));
  r.push_back(integer_key("transaction.state.log.replication.factor", "3", {1, int_max},
                          &sc::transaction_state_log_replication_factor,
                          "replicas of __transaction_state (fewer when fewer brokers are live at its creation)"));
  r.push_back(integer_key("transaction.state.log.min.isr", "2", {1, int_max}, &sc::transaction_state_log_min_isr,
                          "min.insync.replicas of __transaction_state (at most its replicas)"));
  r.push_back(integer_key("transaction.state.log.segment.bytes", "104857600", {14, int_max},
                          &sc::transaction_state_log_segment_bytes, "segment size of __transaction_state"));
  r.push_back(integer_key("transaction.max.timeout.ms", "900000", {1, int_max}, &sc::transaction_max_timeout_ms,
                          "the longest transaction timeout a producer may ask for"));
  r.push_back(integer_key("transactional.id.expiration.ms", "604800000", {1, int_max},
                          &sc::transactional_id_expiration_ms,
                          "a transactional id without an open transaction is forgotten after this long"));
  r.push_back(integer_key("transaction.abort.timed.out.transaction.cleanup.interval.ms", "10000", {1, int_max},
                          &sc::transaction_abort_timed_out_transaction_cleanup_interval_ms,
                          "how often transactions open longer than their timeout are aborted"));
  r.push_back(integer_key("caf.port", "9192", {0, 65535}, &sc::caf_port,
                          "CAF middleman port for brokers and cafka's C++ client (0 = any)"));
  r.push_back({{"metrics.listener", "127.0.0.1:9644", "empty (off) or host:port with port 0..65535",
                "the HTTP endpoint of Prometheus metrics (/metrics), /health and /ready"},
               [](std::string_view v, st& s, std::string&) {
                 if (v.empty()) {
                   s.cfg.metrics_listener.reset();
                   return true;
                 }
                 auto parsed = parse_listener("METRICS://" + std::string(v));
                 if (parsed)
                   s.cfg.metrics_listener = *parsed;
                 return parsed.has_value();
               }});
  r.push_back({{"caf.secret.file", "", "a readable file holding the secret (empty = the built-in secret)",
                "file with the secret brokers and cafka's C++ clients prove on caf.port; needed beyond loopback"},
               [](std::string_view v, st& s, std::string& detail) {
                 s.cfg.caf_secret_file = std::string(v);
                 s.cfg.caf_secret.clear();
                 if (v.empty())
                   return true;
                 auto secret = read_secret_file("caf.secret.file", std::string(v));
                 if (!secret) {
                   detail = secret.error().message.substr(secret.error().message.rfind(": ") + 2);
                   return false;
                 }
                 s.cfg.caf_secret = std::move(*secret);
                 return true;
               }});
  return r;
}

const std::vector<key_spec>& registry() {
  static const std::vector<key_spec> instance = make_registry();
  return instance;
}

const key_spec* find_spec(std::string_view key) {
  for (auto& spec : registry())
    if (spec.info.name == key)
      return &spec;
  return nullptr;
}

/// " (line N)", " (--override)", or "" for an entry of unknown origin.
std::string origin(const property& p, bool is_override) {
  if (is_override)
    return " (--override)";
  return p.line > 0 ? " (line " + std::to_string(p.line) + ")" : "";
}

/// Applies one entry: a warning for an unknown key, an error for a bad value.
std::optional<config_error> apply(const property& p, bool is_override, settings& s,
                                  std::vector<std::string>& warnings) {
  auto spec = find_spec(p.key);
  if (!spec) {
    warnings.push_back("unknown key '" + p.key + "' ignored" + origin(p, is_override));
    return std::nullopt;
  }
  std::string detail;
  if (spec->apply(p.value, s, detail))
    return std::nullopt;
  auto message = p.key + ": invalid value '" + p.value + "': expected " + spec->info.allowed;
  if (!detail.empty())
    message += "; " + detail;
  return config_error{errc::invalid_value, message + origin(p, is_override)};
}

/// Resolves the keys whose effect depends on others (Kafka's precedence rules).
void resolve(settings& s, std::vector<std::string>& warnings) {
  s.cfg.log_roll_ms = s.roll_ms ? *s.roll_ms : s.roll_hours * ms_per_hour;
  int64_t retention = s.retention_ms        ? *s.retention_ms
                      : s.retention_minutes ? *s.retention_minutes * ms_per_minute
                                            : s.retention_hours * ms_per_hour;
  s.cfg.log_retention_ms = retention < 0 ? -1 : retention;
  if (s.log_dirs) {
    s.cfg.log_dirs = *s.log_dirs;
    if (s.log_dir)
      warnings.push_back("log.dir ignored because log.dirs is set");
  } else if (s.log_dir) {
    s.cfg.log_dirs = *s.log_dir;
  }
}

// Keys valid alone but not together (Kafka's KafkaConfig checks the same).
std::optional<config_error> check_together(const server_config& c) {
  // A follower's long poll parked longer than the lag limit would drop it from the ISR.
  if (c.replica_fetch_wait_max_ms > c.replica_lag_time_max_ms)
    return config_error{errc::invalid_value,
                        "replica.fetch.wait.max.ms: " + std::to_string(c.replica_fetch_wait_max_ms)
                          + " must be at most replica.lag.time.max.ms (" + std::to_string(c.replica_lag_time_max_ms)
                          + "), or followers would leave the ISR while their fetch waits"};
  // Brokers on other hosts could not pass caf.port's handshake, bound to loopback without a secret.
  if (!c.zookeeper_connect.empty() && c.caf_secret_file.empty() && !is_loopback_host(c.listeners.front().host))
    return config_error{errc::invalid_value,
                        "caf.secret.file: must be set for a cluster whose brokers listen beyond loopback (listener host '"
                          + c.listeners.front().host
                          + "'): without it caf.port binds to 127.0.0.1 and the other brokers cannot reach it"};
  return std::nullopt;
}

} // namespace

bool operator==(const server_config& a, const server_config& b) {
  auto fields = [](const server_config& c) {
    return std::tie(c.broker_id, c.broker_rack, c.listeners, c.log_dirs, c.num_partitions,
                    c.default_replication_factor, c.min_insync_replicas, c.zookeeper_connect,
                    c.zookeeper_session_timeout_ms, c.log_segment_bytes, c.log_roll_ms,
                    c.log_retention_ms, c.log_retention_bytes,
                    c.log_retention_check_interval_ms, c.log_cleaner_enable, c.log_cleaner_threads,
                    c.log_cleaner_dedupe_buffer_size, c.log_cleaner_io_buffer_load_factor, c.log_cleaner_backoff_ms,
                    c.log_cleaner_min_cleanable_ratio, c.log_cleaner_min_compaction_lag_ms,
                    c.log_cleaner_max_compaction_lag_ms, c.log_cleaner_delete_retention_ms,
                    c.log_flush_interval_messages, c.log_flush_interval_ms,
                    c.log_index_interval_bytes, c.log_index_size_max_bytes, c.message_max_bytes,
                    c.auto_create_topics_enable, c.delete_topic_enable,
                    c.producer_id_expiration_ms, c.replica_lag_time_max_ms, c.replica_fetch_wait_max_ms,
                    c.replica_fetch_max_bytes,
                    c.replica_fetch_backoff_ms, c.replica_high_watermark_checkpoint_interval_ms,
                    c.unclean_leader_election_enable, c.controlled_shutdown_enable,
                    c.controlled_shutdown_max_retries, c.controlled_shutdown_retry_backoff_ms,
                    c.auto_leader_rebalance_enable, c.leader_imbalance_check_interval_seconds,
                    c.leader_imbalance_per_broker_percentage, c.socket_request_max_bytes, c.queued_max_requests,
                    c.queued_max_request_bytes, c.socket_send_buffer_bytes, c.socket_receive_buffer_bytes,
                    c.max_connections, c.max_connections_per_ip, c.max_connections_per_ip_overrides,
                    c.connections_max_idle_ms, c.quota_window_num, c.quota_window_size_seconds,
                    c.logging.all, c.logging.by_component,
                    c.group_initial_rebalance_delay_ms, c.group_min_session_timeout_ms,
                    c.group_max_session_timeout_ms, c.offsets_retention_minutes,
                    c.offsets_topic_num_partitions, c.offsets_topic_replication_factor,
                    c.offsets_retention_check_interval_ms,
                    c.transaction_state_log_num_partitions, c.transaction_state_log_replication_factor,
                    c.transaction_state_log_min_isr, c.transaction_state_log_segment_bytes,
                    c.transaction_max_timeout_ms, c.transactional_id_expiration_ms,
                    c.transaction_abort_timed_out_transaction_cleanup_interval_ms,
                    c.caf_port, c.metrics_listener, c.caf_secret_file, c.caf_secret);
  };
  return fields(a) == fields(b);
}

bool is_loopback_host(std::string_view host) {
  return host == "localhost" || host == "::1" || host.substr(0, 4) == "127.";
}

std::string caf_bind_host(const server_config& c) {
  auto& host = c.listeners.front().host;
  return !c.caf_secret_file.empty() || is_loopback_host(host) ? host : "127.0.0.1";
}

const std::vector<key_info>& known_keys() {
  static const std::vector<key_info> instance = [] {
    std::vector<key_info> keys;
    for (auto& spec : registry())
      keys.push_back(spec.info);
    return keys;
  }();
  return instance;
}

outcome<loaded_config> make_server_config(const properties& file, const properties& overrides) {
  settings s;
  std::vector<std::string> warnings;
  for (auto& p : file) {
    if (overrides.find(p.key))
      continue;
    if (auto err = apply(p, false, s, warnings))
      return std::move(*err);
  }
  for (auto& p : overrides)
    if (auto err = apply(p, true, s, warnings))
      return std::move(*err);
  resolve(s, warnings);
  for (auto& p : file)
    s.cfg.given[p.key] = p.value;
  for (auto& p : overrides)
    s.cfg.given[p.key] = p.value;
  if (auto err = check_together(s.cfg))
    return std::move(*err);
  return loaded_config{std::move(s.cfg), std::move(warnings)};
}

outcome<loaded_config> load_server_config(const std::string& path,
                                          const std::vector<std::string_view>& args) {
  auto overrides = parse_overrides(args);
  if (!overrides)
    return overrides.error();
  auto file = load_properties(path);
  if (!file)
    return file.error();
  return make_server_config(*file, *overrides);
}

} // namespace cafka::config
