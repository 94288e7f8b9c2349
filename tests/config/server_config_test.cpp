#include "config/overrides.hpp"
#include "config/server_config.hpp"
#include "config/to_log_config.hpp"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <fstream>
#include <limits>
#include <map>
#include <set>

using namespace cafka::config;

namespace {

constexpr int64_t hour_ms = 60LL * 60 * 1000;
constexpr int64_t long_max = std::numeric_limits<int64_t>::max();

properties props(std::string_view text) {
  auto parsed = parse_properties(text);
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : parsed.error().message));
  return *parsed;
}

loaded_config build_ok(std::string_view text, std::vector<std::string_view> args = {}) {
  auto o = parse_overrides(args);
  BOOST_REQUIRE_MESSAGE(o.has_value(), (o ? std::string() : o.error().message));
  auto built = make_server_config(props(text), *o);
  BOOST_REQUIRE_MESSAGE(built.has_value(), (built ? std::string() : built.error().message));
  return *built;
}

// A readable caf.secret.file holding "s3cret".
std::string secret_file() {
  static const std::string path = [] {
    auto p = "/tmp/cafka_config_test_secret_" + std::to_string(::getpid());
    std::ofstream(p) << "s3cret\n";
    return p;
  }();
  return path;
}

server_config config_ok(std::string_view text, std::vector<std::string_view> args = {}) {
  auto loaded = build_ok(text, std::move(args));
  BOOST_TEST(loaded.warnings.empty());
  return loaded.config;
}

config_error build_error(std::string_view text) {
  auto built = make_server_config(props(text));
  BOOST_REQUIRE_MESSAGE(!built, "expected an error for: " << text);
  return built.error();
}

} // namespace

BOOST_AUTO_TEST_SUITE(server_config_defaults)

BOOST_AUTO_TEST_CASE(every_default) {
  server_config c;
  BOOST_TEST(c.broker_id == 0);
  BOOST_REQUIRE(c.listeners.size() == 1u);
  BOOST_TEST(to_string(c.listeners[0]) == "PLAINTEXT://127.0.0.1:9092");
  BOOST_TEST((c.log_dirs == std::vector<std::string>{"/tmp/cafka-logs"}));
  BOOST_TEST(c.num_partitions == 1);
  BOOST_TEST(c.default_replication_factor == 1);
  BOOST_TEST(c.min_insync_replicas == 1);
  BOOST_TEST(c.zookeeper_connect == "");
  BOOST_TEST(c.zookeeper_session_timeout_ms == 18000);
  BOOST_TEST(c.log_segment_bytes == 1073741824);
  BOOST_TEST(c.log_roll_ms == 168 * hour_ms);
  BOOST_TEST(c.log_retention_ms == 168 * hour_ms);
  BOOST_TEST(c.log_retention_bytes == -1);
  BOOST_TEST(c.log_retention_check_interval_ms == 300000);
  BOOST_TEST(c.log_cleaner_enable == true);
  BOOST_TEST(c.log_flush_interval_messages == long_max);
  BOOST_TEST(c.log_flush_interval_ms == long_max);
  BOOST_TEST(c.log_index_interval_bytes == 4096);
  BOOST_TEST(c.log_index_size_max_bytes == 10485760);
  BOOST_TEST(c.message_max_bytes == 1048588);
  BOOST_TEST(c.auto_create_topics_enable == true);
  BOOST_TEST(c.delete_topic_enable == true);
  BOOST_TEST(c.replica_lag_time_max_ms == 30000);
  BOOST_TEST(c.producer_id_expiration_ms == 86400000);
  BOOST_TEST(c.socket_request_max_bytes == 104857600);
  BOOST_TEST(c.group_initial_rebalance_delay_ms == 3000);
  BOOST_TEST(c.group_min_session_timeout_ms == 6000);
  BOOST_TEST(c.group_max_session_timeout_ms == 1800000);
  BOOST_TEST(c.offsets_retention_minutes == 10080);
  BOOST_TEST(c.offsets_topic_num_partitions == 50);
  BOOST_TEST(c.offsets_topic_replication_factor == 3);
  BOOST_TEST(c.offsets_retention_check_interval_ms == 600000);
  BOOST_TEST(c.caf_port == 9192);
  BOOST_REQUIRE(c.metrics_listener);
  BOOST_TEST(to_string(*c.metrics_listener) == "METRICS://127.0.0.1:9644");
}

BOOST_AUTO_TEST_CASE(an_empty_file_gives_the_defaults) {
  BOOST_TEST((config_ok("") == server_config{}));
}

BOOST_AUTO_TEST_CASE(registry_defaults_give_the_struct_defaults) {
  std::string text;
  for (auto& key : known_keys())
    if (!key.default_value.empty())
      text += key.name + "=" + key.default_value + "\n";
  BOOST_TEST((config_ok(text) == server_config{}));
}

BOOST_AUTO_TEST_CASE(registry_lists_each_key_once_with_doc_and_allowed_values) {
  std::set<std::string> names;
  for (auto& key : known_keys()) {
    BOOST_TEST(names.insert(key.name).second, key.name);
    BOOST_TEST(!key.doc.empty(), key.name);
    BOOST_TEST(!key.allowed.empty(), key.name);
  }
  for (auto name : {"broker.id", "broker.rack", "listeners", "log.dirs", "log.dir", "num.partitions",
                    "default.replication.factor", "min.insync.replicas", "zookeeper.connect",
                    "zookeeper.session.timeout.ms", "log.segment.bytes", "log.roll.ms",
                    "log.roll.hours", "log.retention.ms", "log.retention.minutes",
                    "log.retention.hours", "log.retention.bytes",
                    "log.retention.check.interval.ms", "log.cleaner.enable",
                    "log.flush.interval.messages", "log.flush.interval.ms",
                    "log.index.interval.bytes", "log.index.size.max.bytes", "message.max.bytes",
                    "auto.create.topics.enable", "replica.lag.time.max.ms", "producer.id.expiration.ms",
                    "socket.request.max.bytes", "group.initial.rebalance.delay.ms",
                    "offsets.retention.minutes", "offsets.topic.num.partitions", "offsets.topic.replication.factor",
                    "offsets.retention.check.interval.ms", "delete.topic.enable", "caf.port",
                    "group.min.session.timeout.ms", "group.max.session.timeout.ms"})
    BOOST_TEST(names.count(name) == 1u, name);
  for (auto name : {"queued.max.requests", "queued.max.request.bytes", "socket.send.buffer.bytes",
                    "socket.receive.buffer.bytes", "max.connections", "max.connections.per.ip",
                    "max.connections.per.ip.overrides", "connections.max.idle.ms", "caf.secret.file",
                    "quota.window.num", "quota.window.size.seconds", "controlled.shutdown.enable",
                    "controlled.shutdown.max.retries", "controlled.shutdown.retry.backoff.ms",
                    "auto.leader.rebalance.enable", "leader.imbalance.check.interval.seconds",
                    "leader.imbalance.per.broker.percentage", "log.level", "log.level.replication",
                    "metrics.listener", "log.cleaner.threads", "log.cleaner.dedupe.buffer.size",
                    "log.cleaner.io.buffer.load.factor", "log.cleaner.backoff.ms", "log.cleaner.min.cleanable.ratio",
                    "log.cleaner.min.compaction.lag.ms", "log.cleaner.max.compaction.lag.ms",
                    "log.cleaner.delete.retention.ms"})
    BOOST_TEST(names.count(name) == 1u, name);
  BOOST_TEST(names.size() == 86u); // 75 and log.level with its 10 components
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(server_config_values)

BOOST_AUTO_TEST_CASE(every_key_can_be_set) {
  auto c = config_ok("broker.id=5\n"
                     "broker.rack=eu-west-1a\n"
                     "listeners=PLAINTEXT://:9093, internal://[::1]:0\n"
                     "log.dirs=/a, /b\n"
                     "num.partitions=6\n"
                     "default.replication.factor=3\n"
                     "min.insync.replicas=2\n"
                     "zookeeper.connect=zk1:2181,zk2:2181/cafka\n"
                     "zookeeper.session.timeout.ms=6000\n"
                     "log.segment.bytes=14\n"
                     "log.roll.hours=1\n"
                     "log.retention.hours=2\n"
                     "log.retention.bytes=1000\n"
                     "log.retention.check.interval.ms=1\n"
                     "log.cleaner.enable=FALSE\n"
                     "log.flush.interval.messages=1\n"
                     "log.flush.interval.ms=0\n"
                     "log.index.interval.bytes=0\n"
                     "log.index.size.max.bytes=4\n"
                     "message.max.bytes=0\n"
                     "auto.create.topics.enable=False\n"
                     "delete.topic.enable=false\n"
                     "replica.lag.time.max.ms=10000\n"
                     "socket.request.max.bytes=1\n"
                     "group.initial.rebalance.delay.ms=0\n"
                     "group.min.session.timeout.ms=1000\n"
                     "group.max.session.timeout.ms=60000\n"
                     "offsets.retention.minutes=1\n"
                     "offsets.topic.num.partitions=1\n"
                     "offsets.topic.replication.factor=2\n"
                     "offsets.retention.check.interval.ms=1\n"
                     "caf.port=65535\n"
                     "metrics.listener=\n"
                     "caf.secret.file=" + secret_file() + "\n");
  BOOST_TEST(c.broker_id == 5);
  BOOST_TEST(c.broker_rack == "eu-west-1a");
  BOOST_REQUIRE(c.listeners.size() == 2u);
  BOOST_TEST(to_string(c.listeners[0]) == "PLAINTEXT://:9093");
  BOOST_TEST(to_string(c.listeners[1]) == "INTERNAL://[::1]:0");
  BOOST_TEST((c.log_dirs == std::vector<std::string>{"/a", "/b"}));
  BOOST_TEST(c.num_partitions == 6);
  BOOST_TEST(c.default_replication_factor == 3);
  BOOST_TEST(c.min_insync_replicas == 2);
  BOOST_TEST(c.zookeeper_connect == "zk1:2181,zk2:2181/cafka");
  BOOST_TEST(c.zookeeper_session_timeout_ms == 6000);
  BOOST_TEST(c.log_segment_bytes == 14);
  BOOST_TEST(c.log_roll_ms == hour_ms);
  BOOST_TEST(c.log_retention_ms == 2 * hour_ms);
  BOOST_TEST(c.log_retention_bytes == 1000);
  BOOST_TEST(c.log_retention_check_interval_ms == 1);
  BOOST_TEST(c.log_cleaner_enable == false);
  BOOST_TEST(c.log_flush_interval_messages == 1);
  BOOST_TEST(c.log_flush_interval_ms == 0);
  BOOST_TEST(c.log_index_interval_bytes == 0);
  BOOST_TEST(c.log_index_size_max_bytes == 4);
  BOOST_TEST(c.message_max_bytes == 0);
  BOOST_TEST(c.auto_create_topics_enable == false);
  BOOST_TEST(c.delete_topic_enable == false);
  BOOST_TEST(c.replica_lag_time_max_ms == 10000);
  BOOST_TEST(c.socket_request_max_bytes == 1);
  BOOST_TEST(c.group_initial_rebalance_delay_ms == 0);
  BOOST_TEST(c.group_min_session_timeout_ms == 1000);
  BOOST_TEST(c.group_max_session_timeout_ms == 60000);
  BOOST_TEST(c.offsets_retention_minutes == 1);
  BOOST_TEST(c.offsets_topic_num_partitions == 1);
  BOOST_TEST(c.offsets_topic_replication_factor == 2);
  BOOST_TEST(c.offsets_retention_check_interval_ms == 1);
  BOOST_TEST(c.caf_port == 65535);
  BOOST_TEST(!c.metrics_listener); // empty: off
  BOOST_TEST(c.caf_secret_file == secret_file());
  BOOST_TEST(c.caf_secret == "s3cret");
}

BOOST_AUTO_TEST_CASE(long_keys_take_values_beyond_int) {
  auto c = config_ok("log.retention.bytes=9223372036854775807\nlog.roll.ms=3000000000\n"
                     "log.flush.interval.ms=9223372036854775807\n"
                     "offsets.retention.check.interval.ms=3000000000\n");
  BOOST_TEST(c.log_retention_bytes == long_max);
  BOOST_TEST(c.log_roll_ms == 3000000000LL);
  BOOST_TEST(c.log_flush_interval_ms == long_max);
  BOOST_TEST(c.offsets_retention_check_interval_ms == 3000000000LL);
}

BOOST_AUTO_TEST_CASE(empty_zookeeper_connect_means_embedded) {
  BOOST_TEST(config_ok("zookeeper.connect=\n").zookeeper_connect == "");
}

BOOST_AUTO_TEST_CASE(roll_ms_wins_over_hours) {
  BOOST_TEST(config_ok("log.roll.hours=2\n").log_roll_ms == 2 * hour_ms);
  BOOST_TEST(config_ok("log.roll.ms=1234\n").log_roll_ms == 1234);
  BOOST_TEST(config_ok("log.roll.ms=1234\nlog.roll.hours=2\n").log_roll_ms == 1234);
  BOOST_TEST(config_ok("log.roll.hours=2\nlog.roll.ms=1234\n").log_roll_ms == 1234);
}

BOOST_AUTO_TEST_CASE(retention_precedence_ms_minutes_hours) {
  BOOST_TEST(config_ok("log.retention.hours=1\n").log_retention_ms == hour_ms);
  BOOST_TEST(config_ok("log.retention.minutes=3\nlog.retention.hours=1\n").log_retention_ms
             == 3 * 60 * 1000);
  BOOST_TEST(config_ok("log.retention.ms=500\nlog.retention.minutes=3\nlog.retention.hours=1\n")
               .log_retention_ms
             == 500);
  BOOST_TEST(config_ok("log.retention.hours=1\nlog.retention.ms=500\n").log_retention_ms == 500);
  BOOST_TEST(config_ok("log.retention.minutes=3\n").log_retention_ms == 3 * 60 * 1000);
}

BOOST_AUTO_TEST_CASE(retention_minus_one_is_unlimited_at_every_level) {
  BOOST_TEST(config_ok("log.retention.hours=-1\n").log_retention_ms == -1);
  BOOST_TEST(config_ok("log.retention.minutes=-1\n").log_retention_ms == -1);
  BOOST_TEST(config_ok("log.retention.ms=-1\n").log_retention_ms == -1);
  // the key that wins decides, even against an unlimited lower-precedence key
  BOOST_TEST(config_ok("log.retention.ms=500\nlog.retention.hours=-1\n").log_retention_ms == 500);
  BOOST_TEST(config_ok("log.retention.ms=-1\nlog.retention.hours=5\n").log_retention_ms == -1);
}

BOOST_AUTO_TEST_CASE(retention_of_the_largest_hours_does_not_overflow) {
  BOOST_TEST(config_ok("log.retention.hours=2147483647\n").log_retention_ms
             == 2147483647LL * hour_ms);
}

BOOST_AUTO_TEST_CASE(legacy_log_dir) {
  BOOST_TEST((config_ok("log.dir=/legacy\n").log_dirs == std::vector<std::string>{"/legacy"}));
  auto both = build_ok("log.dir=/legacy\nlog.dirs=/new\n");
  BOOST_TEST((both.config.log_dirs == std::vector<std::string>{"/new"}));
  BOOST_REQUIRE(both.warnings.size() == 1u);
  BOOST_TEST(both.warnings[0].find("log.dir ") != std::string::npos, both.warnings[0]);
}

BOOST_AUTO_TEST_CASE(overrides_win_over_the_file) {
  auto c = config_ok("broker.id=1\nnum.partitions=3\nlog.retention.hours=5\n",
                     {"--override", "broker.id=2", "--override=log.retention.ms=1000"});
  BOOST_TEST(c.broker_id == 2);
  BOOST_TEST(c.num_partitions == 3);
  BOOST_TEST(c.log_retention_ms == 1000);
}

BOOST_AUTO_TEST_CASE(an_override_fixes_a_bad_file_value) {
  auto c = config_ok("num.partitions=zero\n", {"--override", "num.partitions=4"});
  BOOST_TEST(c.num_partitions == 4);
}

BOOST_AUTO_TEST_CASE(a_bad_override_names_its_origin) {
  auto o = parse_overrides({"--override", "num.partitions=0"});
  BOOST_REQUIRE(o.has_value());
  auto built = make_server_config(props("num.partitions=2\n"), *o);
  BOOST_REQUIRE(!built);
  BOOST_TEST(built.error().message
             == "num.partitions: invalid value '0': expected an integer >= 1 (--override)");
}

BOOST_AUTO_TEST_CASE(unknown_key_is_a_warning_with_its_line) {
  auto loaded = build_ok("broker.id=1\n\n# c\nfoo.bar=1\n", {"--override", "x.y=2"});
  BOOST_TEST(loaded.config.broker_id == 1);
  BOOST_REQUIRE(loaded.warnings.size() == 2u);
  BOOST_TEST(loaded.warnings[0] == "unknown key 'foo.bar' ignored (line 4)");
  BOOST_TEST(loaded.warnings[1] == "unknown key 'x.y' ignored (--override)");
}

BOOST_AUTO_TEST_CASE(keys_are_case_sensitive) {
  auto loaded = build_ok("Broker.Id=1\n");
  BOOST_TEST(loaded.config.broker_id == 0);
  BOOST_TEST(loaded.warnings.size() == 1u);
}

BOOST_AUTO_TEST_CASE(error_messages) {
  auto e = build_error("a=1\nlog.segment.bytes=abc\n");
  BOOST_TEST(e.code == errc::invalid_value);
  BOOST_TEST(e.message == "log.segment.bytes: invalid value 'abc': expected an integer >= 14 (line 2)");
  BOOST_TEST(build_error("auto.create.topics.enable=yes\n").message
             == "auto.create.topics.enable: invalid value 'yes': expected true or false (line 1)");
  BOOST_TEST(build_error("caf.port=70000\n").message
             == "caf.port: invalid value '70000': expected an integer between 0 and 65535 (line 1)");
  BOOST_TEST(build_error("broker.rack=a\"b\n").message
             == "broker.rack: invalid value 'a\"b': expected printable ASCII without quotes or backslashes "
                "(empty = none) (line 1)");
  BOOST_TEST(build_error("offsets.topic.replication.factor=0\n").message
             == "offsets.topic.replication.factor: invalid value '0': expected an integer >= 1 (line 1)");
  BOOST_TEST(build_error("log.retention.ms=0\n").message
             == "log.retention.ms: invalid value '0': expected -1 (unlimited) or an integer >= 1 "
                "(line 1)");
  BOOST_TEST(build_error("listeners=PLAINTEXT://h:1,BAD\n").message
             == "listeners: invalid value 'PLAINTEXT://h:1,BAD': expected a comma-separated list "
                "of NAME://host:port with distinct names and port 0..65535; 'BAD' is not "
                "NAME://host:port (line 1)");
}

BOOST_AUTO_TEST_CASE(listener_limits) {
  auto d = config_ok("");
  BOOST_TEST(d.queued_max_requests == 500);
  BOOST_TEST(d.queued_max_request_bytes == -1);
  BOOST_TEST(d.socket_send_buffer_bytes == 102400);
  BOOST_TEST(d.connections_max_idle_ms == 600000);
  BOOST_TEST(d.quota_window_num == 11);
  BOOST_TEST(d.controlled_shutdown_enable);
  BOOST_TEST(d.controlled_shutdown_max_retries == 3);
  BOOST_TEST(d.controlled_shutdown_retry_backoff_ms == 5000);
  BOOST_TEST(d.auto_leader_rebalance_enable);
  BOOST_TEST(d.leader_imbalance_check_interval_seconds == 300);
  BOOST_TEST(d.leader_imbalance_per_broker_percentage == 10);
  BOOST_TEST(d.quota_window_size_seconds == 1);
  auto c = config_ok("max.connections.per.ip.overrides=10.0.0.1:5, host-b:0\nmax.connections.per.ip=2\n"
                     "socket.send.buffer.bytes=-1\n");
  BOOST_TEST(c.max_connections_per_ip == 2);
  BOOST_TEST(c.max_connections_per_ip_overrides.size() == 2u);
  BOOST_TEST(c.max_connections_per_ip_overrides.at("10.0.0.1") == 5);
  BOOST_TEST(c.max_connections_per_ip_overrides.at("host-b") == 0);
  BOOST_TEST(c.socket_send_buffer_bytes == -1);
}

BOOST_AUTO_TEST_CASE(a_fetch_wait_longer_than_the_lag_limit_is_an_error) {
  BOOST_TEST(build_error("replica.lag.time.max.ms=400\n").message
             == "replica.fetch.wait.max.ms: 500 must be at most replica.lag.time.max.ms (400), or followers "
                "would leave the ISR while their fetch waits");
  auto c = config_ok("replica.lag.time.max.ms=400\nreplica.fetch.wait.max.ms=400\n");
  BOOST_TEST(c.replica_fetch_wait_max_ms == 400);
}

BOOST_AUTO_TEST_CASE(caf_port_stays_on_loopback_without_a_secret) {
  BOOST_TEST(caf_bind_host(config_ok("")) == "127.0.0.1");
  BOOST_TEST(caf_bind_host(config_ok("listeners=PLAINTEXT://0.0.0.0:9092\n")) == "127.0.0.1");
  BOOST_TEST(caf_bind_host(config_ok("listeners=PLAINTEXT://127.0.0.2:9092\n")) == "127.0.0.2");
  BOOST_TEST(caf_bind_host(config_ok("listeners=PLAINTEXT://0.0.0.0:9092\ncaf.secret.file=" + secret_file() + "\n"))
             == "0.0.0.0");
  // A cluster beyond loopback needs the secret: its brokers could not reach each other.
  BOOST_TEST(build_error("listeners=PLAINTEXT://10.1.2.3:9092\nzookeeper.connect=zk:2181\n").message
             == "caf.secret.file: must be set for a cluster whose brokers listen beyond loopback (listener host "
                "'10.1.2.3'): without it caf.port binds to 127.0.0.1 and the other brokers cannot reach it");
  auto c = config_ok("listeners=PLAINTEXT://10.1.2.3:9092\nzookeeper.connect=zk:2181\ncaf.secret.file=" + secret_file()
                     + "\n");
  BOOST_TEST(c.caf_secret == "s3cret");
  config_ok("zookeeper.connect=zk:2181\n"); // loopback: the built-in secret will do
}

BOOST_AUTO_TEST_CASE(integer_overflow_is_an_error) {
  BOOST_TEST(build_error("log.segment.bytes=2147483648\n").message
             == "log.segment.bytes: invalid value '2147483648': expected an integer >= 14; "
                "at most 2147483647 (line 1)");
  BOOST_TEST(build_error("num.partitions=99999999999999999999\n").message.find("num.partitions")
             == 0);
  BOOST_TEST(build_error("log.retention.bytes=9223372036854775808\n").message.find(
               "at most 9223372036854775807")
             != std::string::npos);
  BOOST_TEST(build_error("broker.id=-2147483649\n").message.find("broker.id") == 0);
  // int keys do not take long values even where the product would fit
  build_error("log.retention.hours=2147483648\n");
  build_error("caf.port=4294976288\n"); // 9192 + 2^32 must not wrap to 9192
}

BOOST_AUTO_TEST_CASE(the_first_bad_value_is_reported) {
  auto e = build_error("num.partitions=x\nbroker.id=y\n");
  BOOST_TEST(e.message.find("num.partitions") == 0);
}

// A bad value for every key is an error that names the key and the value.
BOOST_AUTO_TEST_CASE(a_bad_value_for_every_key) {
  const std::multimap<std::string, std::string> bad = {
    {"broker.id", "-1"},
    {"broker.id", "one"},
    {"listeners", ""},
    {"listeners", "127.0.0.1:9092"},
    {"listeners", "PLAINTEXT://h:65536"},
    {"listeners", "PLAINTEXT://h:1,plaintext://h:2"},
    {"listeners", "PLAINTEXT://h:1,"},
    {"log.dirs", ""},
    {"log.dirs", "/a,,/b"},
    {"log.dirs", "/a,/a"},
    {"log.dir", ""},
    {"num.partitions", "0"},
    {"broker.rack", "a\"b"},
    {"default.replication.factor", "0"},
    {"min.insync.replicas", "0"},
    {"zookeeper.connect", "zk"},
    {"zookeeper.connect", "zk:2181/chroot/"},
    {"zookeeper.session.timeout.ms", "0"},
    {"log.segment.bytes", "13"},
    {"log.segment.bytes", "1GB"},
    {"log.roll.ms", "0"},
    {"log.roll.ms", ""},
    {"log.roll.hours", "0"},
    {"log.retention.ms", "-2"},
    {"log.retention.ms", "0"},
    {"log.retention.minutes", "0"},
    {"log.retention.minutes", "-5"},
    {"log.retention.hours", "0"},
    {"log.retention.hours", "1.5"},
    {"log.retention.bytes", "-2"},
    {"log.retention.check.interval.ms", "0"},
    {"log.cleaner.enable", "1"},
    {"log.cleaner.threads", "0"},
    {"log.cleaner.dedupe.buffer.size", "1000"},
    {"log.cleaner.io.buffer.load.factor", "1.5"},
    {"log.cleaner.io.buffer.load.factor", "x"},
    {"log.cleaner.backoff.ms", "-1"},
    {"log.cleaner.min.cleanable.ratio", "-0.1"},
    {"log.cleaner.min.compaction.lag.ms", "-1"},
    {"log.cleaner.max.compaction.lag.ms", "0"},
    {"log.cleaner.delete.retention.ms", "-1"},
    {"log.flush.interval.messages", "0"},
    {"log.flush.interval.ms", "-1"},
    {"log.index.interval.bytes", "-1"},
    {"log.index.size.max.bytes", "3"},
    {"message.max.bytes", "-1"},
    {"auto.create.topics.enable", "yes"},
    {"delete.topic.enable", "on"},
    {"replica.lag.time.max.ms", "0"},
    {"replica.fetch.wait.max.ms", "-1"},
    {"replica.fetch.max.bytes", "0"},
    {"replica.fetch.backoff.ms", "-1"},
    {"replica.high.watermark.checkpoint.interval.ms", "0"},
    {"unclean.leader.election.enable", "maybe"},
    {"socket.request.max.bytes", "0"},
    {"group.initial.rebalance.delay.ms", "-1"},
    {"group.min.session.timeout.ms", "-1"},
    {"group.max.session.timeout.ms", "2147483648"},
    {"offsets.retention.minutes", "0"},
    {"offsets.topic.num.partitions", "0"},
    {"offsets.topic.num.partitions", "2147483648"},
    {"offsets.topic.replication.factor", "0"},
    {"offsets.topic.replication.factor", "-1"},
    {"offsets.retention.check.interval.ms", "0"},
    {"transaction.state.log.num.partitions", "0"},
    {"transaction.state.log.replication.factor", "0"},
    {"transaction.state.log.min.isr", "0"},
    {"transaction.state.log.segment.bytes", "13"},
    {"transaction.max.timeout.ms", "0"},
    {"transactional.id.expiration.ms", "2147483648"},
    {"transaction.abort.timed.out.transaction.cleanup.interval.ms", "0"},
    {"caf.port", "-1"},
    {"caf.port", "65536"},
    {"metrics.listener", "127.0.0.1"},
    {"metrics.listener", "127.0.0.1:65536"},
    {"metrics.listener", "http://127.0.0.1:9644"},
    {"queued.max.requests", "0"},
    {"queued.max.request.bytes", "0"},
    {"socket.send.buffer.bytes", "0"},
    {"socket.receive.buffer.bytes", "-2"},
    {"max.connections", "-1"},
    {"max.connections.per.ip", "-1"},
    {"max.connections.per.ip.overrides", "10.0.0.1"},
    {"max.connections.per.ip.overrides", "10.0.0.1:x"},
    {"connections.max.idle.ms", "0"},
    {"quota.window.num", "0"},
    {"controlled.shutdown.enable", "yes"},
    {"producer.id.expiration.ms", "0"},
    {"controlled.shutdown.max.retries", "-1"},
    {"controlled.shutdown.retry.backoff.ms", "-5"},
    {"auto.leader.rebalance.enable", "1"},
    {"leader.imbalance.check.interval.seconds", "0"},
    {"leader.imbalance.per.broker.percentage", "101"},
    {"quota.window.size.seconds", "0"},
    {"caf.secret.file", "/nonexistent/caf.secret"},
    {"log.level", "LOUD"},
    {"log.level.server", "0"},
    {"log.level.listener", "x"},
    {"log.level.caf.port", "x"},
    {"log.level.cluster", "x"},
    {"log.level.replication", "x"},
    {"log.level.groups", "x"},
    {"log.level.storage", "x"},
    {"log.level.quotas", "x"},
    {"log.level.configs", "x"},
    {"log.level.transactions", "x"},
  };
  for (auto& key : known_keys())
    BOOST_TEST(bad.count(key.name) > 0, "no bad value tested for " << key.name);
  for (auto& [key, value] : bad) {
    auto built = make_server_config(props("a.b=1\n" + key + "=" + value + "\n"));
    BOOST_REQUIRE_MESSAGE(!built, key << "=" << value << " was accepted");
    auto& message = built.error().message;
    BOOST_TEST(built.error().code == errc::invalid_value);
    BOOST_TEST(message.rfind(key + ": invalid value '" + value + "': expected ", 0) == 0, message);
    BOOST_TEST(message.find(" (line 2)") != std::string::npos, message);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(server_config_conversion)

BOOST_AUTO_TEST_CASE(defaults_match_storage_defaults) {
  auto l = to_log_config(server_config{});
  cafka::storage::log_config d;
  BOOST_TEST(l.segment_bytes == d.segment_bytes);
  BOOST_TEST(l.roll_ms == d.roll_ms);
  BOOST_TEST(l.index_interval_bytes == d.index_interval_bytes);
  BOOST_TEST(l.index_max_bytes == d.index_max_bytes);
  BOOST_TEST(l.retention_ms == d.retention_ms);
  BOOST_TEST(l.retention_bytes == d.retention_bytes);
  BOOST_TEST(l.flush_interval_messages == d.flush_interval_messages);
  BOOST_TEST(l.flush_interval_ms == d.flush_interval_ms);
  BOOST_TEST(l.max_message_bytes == d.max_message_bytes);
}

BOOST_AUTO_TEST_CASE(values_are_carried_over) {
  auto c = config_ok("log.segment.bytes=1000\nlog.roll.ms=2000\nlog.index.interval.bytes=30\n"
                     "log.index.size.max.bytes=4000\nlog.retention.minutes=5\n"
                     "log.retention.bytes=6000\nlog.flush.interval.messages=7\n"
                     "log.flush.interval.ms=8\nmessage.max.bytes=9000\n");
  auto l = to_log_config(c);
  BOOST_TEST(l.segment_bytes == 1000);
  BOOST_TEST(l.roll_ms == 2000);
  BOOST_TEST(l.index_interval_bytes == 30);
  BOOST_TEST(l.index_max_bytes == 4000);
  BOOST_TEST(l.retention_ms == 5 * 60 * 1000);
  BOOST_TEST(l.retention_bytes == 6000);
  BOOST_TEST(l.flush_interval_messages == 7);
  BOOST_TEST(l.flush_interval_ms == 8);
  BOOST_TEST(l.max_message_bytes == 9000);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(log_levels)

BOOST_AUTO_TEST_CASE(log_level_and_one_component_override) {
  auto d = config_ok("");
  BOOST_TEST((d.logging.of(cafka::config::log_component::replication) == cafka::config::log_level::info));
  auto c = config_ok("log.level=warn\nlog.level.replication=DEBUG\nlog.level.caf.port=ERROR\n");
  using cafka::config::log_component;
  using cafka::config::log_level;
  BOOST_TEST((c.logging.of(log_component::server) == log_level::warn));
  BOOST_TEST((c.logging.of(log_component::replication) == log_level::debug));
  BOOST_TEST((c.logging.of(log_component::caf_port) == log_level::error));
  BOOST_TEST(c.logging.enabled(log_level::debug, log_component::replication));
  BOOST_TEST(!c.logging.enabled(log_level::info, log_component::groups));
  BOOST_TEST(c.logging.enabled(log_level::warn, log_component::groups));
  // An empty component level falls back to log.level.
  auto back = config_ok("log.level=ERROR\nlog.level.groups=\n");
  BOOST_TEST((back.logging.of(log_component::groups) == log_level::error));
}

BOOST_AUTO_TEST_CASE(a_bad_level_names_its_key) {
  BOOST_TEST(build_error("log.level=LOUD\n").message
             == "log.level: invalid value 'LOUD': expected ERROR, WARN, INFO or DEBUG (line 1)");
  BOOST_TEST(build_error("log.level.storage=verbose\n").message
             == "log.level.storage: invalid value 'verbose': expected empty (log.level), ERROR, WARN, INFO or DEBUG "
                "(line 1)");
}

BOOST_AUTO_TEST_SUITE_END()
