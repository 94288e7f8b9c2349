// The topic config catalogue, DescribeConfigs' answers, AlterConfigs / IncrementalAlterConfigs
// on stored overrides, and the dynamic broker configs (config/topic_config_catalog.hpp,
// config_description.hpp, config_alteration.hpp, dynamic_broker_config.hpp).
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "config/config_alteration.hpp"
#include "config/config_description.hpp"
#include "config/overrides.hpp"
#include "config/to_log_config.hpp"
#include "config/topic_config.hpp"
#include "config/topic_config_catalog.hpp"

using namespace cafka::config;
namespace wire = cafka::wire;

namespace {

const wire::described_config& find(const std::vector<wire::described_config>& configs, const std::string& name) {
  auto it = std::find_if(configs.begin(), configs.end(), [&](auto& c) { return c.name == name; });
  BOOST_REQUIRE_MESSAGE(it != configs.end(), "no entry " << name);
  return *it;
}

server_config loaded(std::vector<std::string> overrides) {
  std::vector<std::string_view> args;
  for (auto& o : overrides) {
    args.push_back("--override");
    args.push_back(o);
  }
  auto parsed = parse_overrides(args);
  BOOST_REQUIRE(parsed);
  auto cfg = make_server_config({}, *parsed);
  BOOST_REQUIRE(cfg);
  return cfg->config;
}

wire::alter_configs_resource resource(std::vector<wire::altered_config> configs) {
  return {2, "t", std::move(configs)};
}

constexpr int8_t set = 0, del = 1, append = 2, subtract = 3;

} // namespace

BOOST_AUTO_TEST_SUITE(topic_and_broker_configs)

BOOST_AUTO_TEST_CASE(every_kafka_topic_key_is_accepted_at_its_default_and_at_other_valid_values) {
  auto base = to_log_config(server_config{});
  for (auto& key : topic_keys())
    BOOST_TEST_CONTEXT(key.name) {
      BOOST_TEST(apply_topic_configs(base, {{key.name, key.default_value}}).has_value());
    }
  auto applied_one = [&](const std::string& key, const std::string& value) {
    auto r = apply_topic_configs(base, {{key, value}});
    BOOST_REQUIRE_MESSAGE(r, key << "=" << value << ": " << (r ? "" : r.error().message));
    return *r;
  };
  BOOST_TEST(applied_one("compression.type", "lz4").compression == 3);
  BOOST_TEST(applied_one("compression.type", "uncompressed").compression == 0);
  BOOST_TEST(applied_one("compression.type", "producer").compression == -1);
  BOOST_TEST(applied_one("message.timestamp.type", "LogAppendTime").log_append_time);
  BOOST_TEST(applied_one("segment.jitter.ms", "5000").roll_jitter_ms == 5000);
  BOOST_TEST(applied_one("file.delete.delay.ms", "0").file_delete_delay_ms == 0);
  BOOST_TEST(applied_one("preallocate", "true").preallocate);
  // difference.max.ms stands in for before/after where those are not set (Kafka 3.6).
  auto diff = applied_one("message.timestamp.difference.max.ms", "1000");
  BOOST_TEST(diff.timestamp_before_max_ms == 1000);
  BOOST_TEST(diff.timestamp_after_max_ms == 1000);
  auto both = apply_topic_configs(base, {{"message.timestamp.difference.max.ms", "1000"},
                                         {"message.timestamp.after.max.ms", "50"}});
  BOOST_REQUIRE(both);
  BOOST_TEST(both->timestamp_before_max_ms == 1000);
  BOOST_TEST(both->timestamp_after_max_ms == 50);
  // Stored for the cleaner and tiered storage, as Kafka takes them on a topic without either.
  for (auto [key, value] : std::map<std::string, std::string>{{"delete.retention.ms", "900"},
                                                             {"min.cleanable.dirty.ratio", "0.1"},
                                                             {"min.compaction.lag.ms", "10"},
                                                             {"max.compaction.lag.ms", "1000"},
                                                             {"local.retention.ms", "-2"},
                                                             {"message.format.version", "2.8-IV1"},
                                                             {"message.downconversion.enable", "false"}})
    BOOST_TEST(apply_topic_configs(base, {{key, value}}).has_value(), key << "=" << value);
  // Bad values name their key.
  for (auto [key, value] : std::map<std::string, std::string>{{"compression.type", "brotli"},
                                                             {"message.timestamp.type", "Now"},
                                                             {"min.cleanable.dirty.ratio", "1.5"},
                                                             {"message.format.version", "banana"},
                                                             {"remote.storage.enable", "true"},
                                                             {"segment.jitter.ms", "-1"},
                                                             {"preallocate", "maybe"}}) {
    auto refused = apply_topic_configs(base, {{key, value}});
    BOOST_REQUIRE_MESSAGE(!refused, key << "=" << value);
    BOOST_TEST(refused.error().message.find(key) != std::string::npos, refused.error().message);
  }
  BOOST_TEST(!apply_topic_configs(base, {{"no.such.key", "1"}}));
  auto applied = apply_topic_configs(base, {{"retention.ms", "5000"}, {"leader.replication.throttled.replicas", "0:1, 2:3"}});
  BOOST_REQUIRE(applied);
  BOOST_TEST(applied->retention_ms == 5000);
  BOOST_TEST(apply_topic_configs(base, {{"follower.replication.throttled.replicas", "*"}}).has_value());
  BOOST_TEST(!apply_topic_configs(base, {{"follower.replication.throttled.replicas", "0-1"}}));
}

BOOST_AUTO_TEST_CASE(a_topic_lists_every_key_with_its_source_and_synonyms) {
  auto cfg = loaded({"log.retention.hours=1"});
  auto configs = describe_topic({{"segment.bytes", "1048576"}}, cfg, {}, std::nullopt, true);
  BOOST_TEST(configs.size() == topic_keys().size());
  auto& seg = find(configs, "segment.bytes");
  BOOST_TEST(*seg.value == "1048576");
  BOOST_TEST(seg.config_source == static_cast<int8_t>(wire::config_source::topic_config));
  BOOST_REQUIRE_EQUAL(seg.synonyms.size(), 2u); // the override, then the default of log.segment.bytes
  BOOST_TEST(seg.synonyms[1].name == "log.segment.bytes");
  auto& retention = find(configs, "retention.ms");
  BOOST_TEST(*retention.value == "3600000"); // the effective value of log.retention.hours=1
  BOOST_TEST(retention.config_source == static_cast<int8_t>(wire::config_source::static_broker_config));
  BOOST_TEST(retention.synonyms.front().name == "log.retention.hours");
  auto& policy = find(configs, "cleanup.policy");
  BOOST_TEST(policy.config_source == static_cast<int8_t>(wire::config_source::default_config));
  // Asked keys only (unknown ones left out); no synonyms unless asked.
  auto some = describe_topic({}, cfg, {}, std::vector<std::string>{"retention.ms", "nope"}, false);
  BOOST_REQUIRE_EQUAL(some.size(), 1u);
  BOOST_TEST(some[0].synonyms.empty());
  // A dynamic broker default comes before the properties file; this broker's before the cluster's.
  dynamic_broker_configs dynamic{{{"log.retention.ms", "60000"}}, {{"log.retention.ms", "120000"}}};
  auto with_dynamic = describe_topic({}, cfg, dynamic, std::vector<std::string>{"retention.ms"}, true);
  BOOST_REQUIRE_EQUAL(with_dynamic.size(), 1u);
  BOOST_TEST(*with_dynamic[0].value == "60000");
  BOOST_TEST(with_dynamic[0].config_source == static_cast<int8_t>(wire::config_source::dynamic_broker_config));
  BOOST_REQUIRE_EQUAL(with_dynamic[0].synonyms.size(), 4u); // dynamic, default dynamic, static hours, default
  BOOST_TEST(with_dynamic[0].synonyms[1].source
             == static_cast<int8_t>(wire::config_source::dynamic_default_broker_config));
  BOOST_TEST((dynamic_topic_defaults(dynamic) == std::map<std::string, std::string>{{"retention.ms", "60000"}}));
}

BOOST_AUTO_TEST_CASE(a_broker_lists_static_and_dynamic_keys_and_the_defaults_resource_only_dynamic_ones) {
  auto cfg = loaded({"num.partitions=3"});
  cfg.broker_id = 1;
  dynamic_broker_configs dynamic{{{"leader.replication.throttled.rate", "100"}},
                                 {{"follower.replication.throttled.rate", "200"}}};
  dynamic.cluster_default["log.retention.ms"] = "5000";
  auto mine = describe_broker("1", cfg, dynamic, std::nullopt, true);
  auto& retention = find(mine, "log.retention.ms");
  BOOST_TEST(!retention.read_only);
  BOOST_TEST(*retention.value == "5000");
  auto& partitions = find(mine, "num.partitions");
  BOOST_TEST(*partitions.value == "3");
  BOOST_TEST(partitions.read_only);
  BOOST_TEST(partitions.config_source == static_cast<int8_t>(wire::config_source::static_broker_config));
  auto& leader = find(mine, "leader.replication.throttled.rate");
  BOOST_TEST(!leader.read_only);
  BOOST_TEST(leader.config_source == static_cast<int8_t>(wire::config_source::dynamic_broker_config));
  BOOST_TEST(*find(mine, "follower.replication.throttled.rate").value == "200");
  auto defaults = describe_broker("", cfg, dynamic, std::nullopt, false);
  BOOST_REQUIRE_EQUAL(defaults.size(), 2u);
  BOOST_TEST(defaults[0].name == "follower.replication.throttled.rate");
  BOOST_TEST(defaults[1].name == "log.retention.ms");
  BOOST_TEST(leader_throttled_rate(dynamic) == 100);
  BOOST_TEST(follower_throttled_rate(dynamic) == 200);
  BOOST_TEST(leader_throttled_rate({}) == std::numeric_limits<int64_t>::max());
}

BOOST_AUTO_TEST_CASE(alter_configs_replaces_the_set_and_incremental_changes_only_the_keys_named) {
  std::map<std::string, std::string> current{{"retention.ms", "1000"}, {"segment.bytes", "2000"}};
  auto whole = alter_overrides(current, resource({{"segment.ms", 0, std::string("5")}, {"x", 0, std::nullopt}}), false);
  BOOST_TEST(whole.error_code == 0);
  BOOST_TEST((whole.overrides == std::map<std::string, std::string>{{"segment.ms", "5"}}));
  auto inc = alter_overrides(current, resource({{"retention.ms", set, std::string("7")}, {"segment.bytes", del, {}},
                                                {"cleanup.policy", append, std::string("compact, delete")}}),
                             true);
  BOOST_TEST(inc.error_code == 0);
  BOOST_TEST((inc.overrides
              == std::map<std::string, std::string>{{"retention.ms", "7"}, {"cleanup.policy", "compact,delete"}}));
  auto sub = alter_overrides(inc.overrides, resource({{"cleanup.policy", subtract, std::string("delete")}}), true);
  BOOST_TEST(sub.overrides.at("cleanup.policy") == "compact");
  BOOST_TEST(alter_overrides(current, resource({{"retention.ms", append, std::string("1")}}), true).error_code == 40);
  BOOST_TEST(alter_overrides(current, resource({{"a", set, std::string("1")}, {"a", del, {}}}), true).error_code
             == 42);
}

BOOST_AUTO_TEST_CASE(dynamic_broker_keys_are_validated_and_others_refused_by_name) {
  BOOST_TEST(!refuse_dynamic("leader.replication.throttled.rate", "1048576"));
  auto bad = refuse_dynamic("leader.replication.throttled.rate", "-1");
  BOOST_REQUIRE(bad);
  BOOST_TEST(bad->error_code == 40);
  BOOST_TEST(bad->message.find("leader.replication.throttled.rate") != std::string::npos);
  BOOST_TEST(!refuse_dynamic("log.retention.ms", "1")); // a broker default of a topic config
  auto small = refuse_dynamic("log.segment.bytes", "5");
  BOOST_REQUIRE(small);
  BOOST_TEST(small->message.rfind("log.segment.bytes: invalid value '5'", 0) == 0, small->message);
  BOOST_TEST(!refuse_dynamic("max.connections", "2"));
  BOOST_TEST(refuse_dynamic("max.connections", "-1")->message.rfind("max.connections: invalid value '-1'", 0) == 0);
  BOOST_TEST(!refuse_dynamic("max.connections.per.ip.overrides", "10.0.0.1:3"));
  BOOST_TEST(refuse_dynamic("max.connections.per.ip.overrides", "10.0.0.1")->error_code == 40);
  BOOST_TEST(refuse_dynamic("log.cleaner.enable", "false")->error_code == 42); // not dynamic in Kafka either
  BOOST_TEST(!refuse_dynamic("min.insync.replicas", "2"));
  BOOST_TEST(refuse_dynamic("min.insync.replicas", "0")->message.rfind("min.insync.replicas: invalid value", 0) == 0);
  BOOST_TEST(!refuse_dynamic("unclean.leader.election.enable", "true"));
  BOOST_TEST(refuse_dynamic("unclean.leader.election.enable", "maybe")->error_code == 40);
  BOOST_TEST(refuse_dynamic("broker.id", "3")->error_code == 42);        // not dynamic anywhere
  BOOST_TEST(refuse_dynamic("no.such.key", "3")->error_code == 40);
}

BOOST_AUTO_TEST_CASE(replication_defaults_come_from_the_dynamic_configs_before_server_properties) {
  dynamic_broker_configs none;
  BOOST_TEST(min_insync_replicas_default(none, 1) == 1);
  BOOST_TEST(!unclean_leader_election_default(none, false));
  dynamic_broker_configs cluster_wide{{}, {{"min.insync.replicas", "2"}, {"unclean.leader.election.enable", "true"}}};
  BOOST_TEST(min_insync_replicas_default(cluster_wide, 1) == 2);
  BOOST_TEST(unclean_leader_election_default(cluster_wide, false));
  dynamic_broker_configs mine{{{"min.insync.replicas", "3"}}, {{"min.insync.replicas", "2"}}};
  BOOST_TEST(min_insync_replicas_default(mine, 1) == 3); // this broker's over the cluster's
}

BOOST_AUTO_TEST_CASE(connection_limits_come_from_the_dynamic_configs_before_server_properties) {
  server_config static_config;
  static_config.max_connections = 100;
  static_config.max_connections_per_ip = 10;
  auto none = connection_limits_in_force({}, static_config);
  BOOST_TEST(none.max_total == 100);
  BOOST_TEST(none.max_per_ip == 10);
  dynamic_broker_configs c{{{"max.connections.per.ip", "3"}},
                           {{"max.connections.per.ip", "5"}, {"max.connections.per.ip.overrides", "10.0.0.1:7"}}};
  auto in_force = connection_limits_in_force(c, static_config);
  BOOST_TEST(in_force.max_total == 100);
  BOOST_TEST(in_force.max_per_ip == 3);
  BOOST_TEST((in_force.per_ip_overrides == std::map<std::string, int32_t>{{"10.0.0.1", 7}}));
}

BOOST_AUTO_TEST_CASE(the_single_node_broker_configs_file_round_trips) {
  dynamic_broker_configs c{{{"leader.replication.throttled.rate", "5"}}, {{"follower.replication.throttled.rate", "6"}}};
  auto text = format_broker_configs_file(c);
  auto back = parse_broker_configs_file(text);
  BOOST_REQUIRE(back);
  BOOST_TEST((*back == c));
  BOOST_TEST(!parse_broker_configs_file("version=1\nweird\n"));
  BOOST_TEST(!parse_broker_configs_file("broker.a=1\n")); // no version line
}

BOOST_AUTO_TEST_SUITE_END()
