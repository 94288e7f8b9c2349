// cafka-topics: create, delete, alter, list and describe topics (flags as kafka-topics.sh),
// over the broker's Kafka listener.
//
//   cafka-topics [--bootstrap-server 127.0.0.1:9092] --create --topic T --partitions N
//                [--replication-factor R | --replica-assignment 1:2,2:3,...] [--config key=value ...]
//                [--if-not-exists]
//   cafka-topics --delete --topic T [--if-exists]
//   cafka-topics --alter --topic T --partitions N [--replica-assignment 1:2,2:3,...]
//   cafka-topics --list
//   cafka-topics --describe [--topic T] [--under-replicated-partitions | --unavailable-partitions]
//
// --describe prints, as kafka-topics.sh does (without its TopicId: cafka has none), per topic
//   Topic: T\tPartitionCount: N\tReplicationFactor: R\tConfigs: k=v,...
// and per partition
//   \tTopic: T\tPartition: P\tLeader: L\tReplicas: 1,2,3\tIsr: 1,2[\tAdding Replicas: 4\tRemoving Replicas: 1][\tOffline: 3]
//   \tStartOffset: S\tEndOffset: E
// Leader, Replicas and Isr come from Metadata; Offline lists the replicas whose broker is not
// among Metadata's live brokers (the column only when there are some); Adding and Removing
// Replicas (while the partition is being reassigned) from ListPartitionReassignments; Configs
// are the topic's overrides (DescribeConfigs' DYNAMIC_TOPIC_CONFIG entries). Leader is "none"
// without one (Kafka's word). StartOffset and EndOffset (log start and high watermark, from
// ListOffsets to the leader) are cafka's own columns: "-" for a partition whose leader does
// not answer.
//
// --alter adds partitions up to N (never fewer, as Kafka); --replica-assignment there lists every
// partition, as Kafka's: the entries of the partitions the topic has are skipped. Prints
// Kafka's two lines ("WARNING: If partitions are increased ..." and "Adding partitions succeeded!").
//
// --under-replicated-partitions: only the partitions whose ISR is smaller than their replicas;
// --unavailable-partitions: only those without a live leader. Both without the topic lines, as
// Kafka's. (Kafka's --under-min-isr-partitions and --at-min-isr-partitions are left out.)
//
// The Kafka protocol goes through librdkafka's admin API (apps/kafka_admin.hpp): it finds the
// controller and the leaders the way Kafka's clients do; ListPartitionReassignments, which
// librdkafka 2.0.2 lacks, through the project's codec (apps/kafka_call.hpp).
//
// Exit codes: 0 done, 1 the broker refused or could not be reached, 2 a bad argument.

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "apps/kafka_admin.hpp"
#include "apps/kafka_call.hpp"
#include "apps/tool_args.hpp"
#include "protocol/kafka_error.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/partition_reassignments.hpp"

using namespace cafka;

namespace {

constexpr const char* tool = "cafka-topics";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"create", "", "create a topic"},
  {"delete", "", "delete a topic and its data"},
  {"alter", "", "add partitions to a topic (--partitions: the new total)"},
  {"list", "", "list the topics"},
  {"describe", "", "partitions: leader, replicas, ISR, start and end offsets"},
  {"under-replicated-partitions", "", "--describe: only partitions whose ISR is smaller than their replicas"},
  {"unavailable-partitions", "", "--describe: only partitions without a live leader"},
  {"topic", "TOPIC", "the topic (required for --create and --delete)"},
  {"partitions", "N", "partitions of a new topic (default: the broker's num.partitions), or --alter's new total"},
  {"replication-factor", "N", "replicas per partition (default: the broker's default)"},
  {"replica-assignment", "LIST", "brokers per partition, preferred leader first: 1:2:3,2:3:1 (partition 0, 1, ...)"},
  {"config", "KEY=VALUE", "a topic config override for --create", true},
  {"if-not-exists", "", "--create: no error if the topic exists"},
  {"if-exists", "", "--delete, --describe: no error if the topic does not exist"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 30000)"},
};

std::string join(const std::vector<int32_t>& xs) {
  std::string out;
  for (auto x : xs)
    out += (out.empty() ? "" : ",") + std::to_string(x);
  return out;
}

bool is(const tools::kafka_failure& f, const char* code) {
  return f.code == code;
}

// Which partitions --describe prints: all, or one of Kafka's replication reports.
enum class report { all, under_replicated, unavailable };

bool live(const tools::kafka_metadata& md, int32_t id) {
  return std::any_of(md.brokers.begin(), md.brokers.end(), [&](auto& b) { return b.id == id; });
}

bool wanted(report r, const tools::kafka_partition& p, const tools::kafka_metadata& md) {
  switch (r) {
    case report::under_replicated:
      return p.isr.size() < p.replicas.size();
    case report::unavailable: // as Kafka: no leader, or a leader that is not a live broker
      return p.leader < 0 || p.error == "LEADER_NOT_AVAILABLE" || !live(md, p.leader);
    default:
      return true;
  }
}

// The reassignments under way: (topic, partition) -> (adding, removing).
using moves = std::map<std::pair<std::string, int32_t>, std::pair<std::vector<int32_t>, std::vector<int32_t>>>;

moves reassignments(const std::string& bootstrap, int timeout_ms) {
  wire::list_partition_reassignments_request req;
  req.timeout_ms = timeout_ms;
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_list_partition_reassignments_request(req, w);
  auto broker = bootstrap.substr(0, bootstrap.find(','));
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::list_partition_reassignments), 0, body,
                                  timeout_ms);
  auto resp = wire::decode_list_partition_reassignments_response({answer.data(), answer.size()});
  if (!resp)
    tools::fail(tool, broker + " sent a malformed ListPartitionReassignments response");
  if (resp->error_code != 0)
    tools::fail(tool, "cannot list the reassignments: "
                        + std::string{protocol::to_string(static_cast<protocol::kafka_error>(resp->error_code))});
  moves out;
  for (auto& t : resp->topics)
    for (auto& p : t.partitions)
      out[{t.name, p.partition_index}] = {p.adding_replicas, p.removing_replicas};
  return out;
}

void print_topic(tools::kafka_admin& admin, const tools::kafka_topic& t) {
  std::string configs;
  for (auto& [k, v] : admin.topic_overrides(t.name))
    configs += (configs.empty() ? "" : ",") + k + "=" + v;
  auto rf = t.partitions.empty() ? 0 : t.partitions.front().replicas.size();
  std::printf("Topic: %s\tPartitionCount: %zu\tReplicationFactor: %zu\tConfigs: %s\n", t.name.c_str(),
              t.partitions.size(), rf, configs.c_str());
}

void print_partition(tools::kafka_admin& admin, const tools::kafka_metadata& md, const std::string& topic,
                     const tools::kafka_partition& p, const moves& moving) {
  auto leader = p.leader >= 0 ? std::to_string(p.leader) : std::string{"none"};
  std::vector<int32_t> offline;
  for (auto id : p.replicas)
    if (!live(md, id))
      offline.push_back(id);
  std::string extra;
  if (auto m = moving.find({topic, p.id}); m != moving.end())
    extra = "\tAdding Replicas: " + join(m->second.first) + "\tRemoving Replicas: " + join(m->second.second);
  if (!offline.empty())
    extra += "\tOffline: " + join(offline);
  std::string start = "-", end = "-";
  if (p.leader >= 0 && live(md, p.leader)) {
    try {
      auto [low, high] = admin.watermarks({topic, p.id});
      start = std::to_string(low);
      end = std::to_string(high);
    } catch (const tools::kafka_failure& f) {
      std::fprintf(stderr, "%s: offsets of %s-%d unknown: %s\n", tool, topic.c_str(), p.id, f.what());
    }
  }
  std::printf("\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s%s\tStartOffset: %s\tEndOffset: %s\n",
              topic.c_str(), p.id, leader.c_str(), join(p.replicas).c_str(), join(p.isr).c_str(), extra.c_str(),
              start.c_str(), end.c_str());
}

// --describe of `names` (every topic when --topic is absent).
void describe_topics(tools::kafka_admin& admin, const tools::args& a, const std::string& bootstrap,
                     const std::string& only, report r, int timeout_ms) {
  auto md = admin.metadata();
  auto moving = reassignments(bootstrap, timeout_ms);
  bool found = false;
  for (auto& t : md.topics) {
    if (!only.empty() && t.name != only)
      continue;
    found = true;
    if (!t.error.empty())
      tools::fail(tool, "cannot describe topic '" + t.name + "': " + t.error);
    if (r == report::all)
      print_topic(admin, t);
    for (auto& p : t.partitions)
      if (wanted(r, p, md))
        print_partition(admin, md, t.name, p, moving);
  }
  if (!found && !only.empty() && !a.has("if-exists"))
    tools::fail(tool, "cannot describe topic '" + only + "': UNKNOWN_TOPIC_OR_PARTITION: topic '" + only
                        + "' does not exist");
}

// --alter: the topic grows to `total`; `assignments`, if given, lists every partition (those
// the topic has are skipped, as Kafka's tool does).
void add_partitions(tools::kafka_admin& admin, const std::string& topic, int32_t total,
                    std::vector<std::vector<int32_t>> assignments) {
  if (!assignments.empty()) {
    auto md = admin.metadata();
    auto t = std::find_if(md.topics.begin(), md.topics.end(), [&](auto& x) { return x.name == topic; });
    if (t == md.topics.end())
      tools::fail(tool, "cannot add partitions to topic '" + topic + "': UNKNOWN_TOPIC_OR_PARTITION");
    auto now = t->partitions.size();
    if (assignments.size() != static_cast<size_t>(total) || assignments.size() <= now)
      throw tools::usage_error("--replica-assignment must list all " + std::to_string(total) + " partitions, the "
                               + std::to_string(now) + " existing ones first");
    assignments.erase(assignments.begin(), assignments.begin() + static_cast<std::ptrdiff_t>(now));
  }
  try {
    admin.create_partitions(topic, total, assignments);
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, "cannot add partitions to topic '" + topic + "': " + f.what());
  }
  std::printf("WARNING: If partitions are increased for a topic that has a key, the partition logic or ordering of "
              "the messages will be affected\nAdding partitions succeeded!\n");
}

int run_tool(const tools::args& a) {
  // -- everything about the command line is checked before connecting ----------------
  std::vector<std::string> actions;
  for (auto name : {"create", "delete", "alter", "list", "describe"})
    if (a.has(name))
      actions.push_back(name);
  if (actions.size() != 1)
    throw tools::usage_error("exactly one of --create, --delete, --alter, --list, --describe is required");
  auto action = actions.front();
  auto topic = a.value_or("topic", "");
  if ((action == "create" || action == "delete" || action == "alter") && topic.empty())
    throw tools::usage_error("--" + action + " needs --topic");
  if (action == "list" && a.has("topic"))
    throw tools::usage_error("--list takes no --topic");
  for (auto name : {"replication-factor", "config", "if-not-exists"})
    if (a.has(name) && action != "create")
      throw tools::usage_error(std::string{"--"} + name + " is only valid with --create");
  for (auto name : {"partitions", "replica-assignment"})
    if (a.has(name) && action != "create" && action != "alter")
      throw tools::usage_error(std::string{"--"} + name + " is only valid with --create or --alter");
  if (action == "alter" && !a.has("partitions"))
    throw tools::usage_error("--alter needs --partitions (it changes only a topic's partition count)");
  if (a.has("if-exists") && action != "delete" && action != "describe")
    throw tools::usage_error("--if-exists is only valid with --delete or --describe");
  auto filter = report::all;
  for (auto [name, r] : {std::pair{"under-replicated-partitions", report::under_replicated},
                         std::pair{"unavailable-partitions", report::unavailable}}) {
    if (!a.has(name))
      continue;
    if (action != "describe")
      throw tools::usage_error(std::string{"--"} + name + " is only valid with --describe");
    if (filter != report::all)
      throw tools::usage_error("--under-replicated-partitions and --unavailable-partitions exclude each other");
    filter = r;
  }
  tools::new_topic spec;
  spec.name = topic;
  spec.partitions = static_cast<int32_t>(a.integer("partitions", -1, 1, std::numeric_limits<int32_t>::max()));
  spec.replication_factor
    = static_cast<int32_t>(a.integer("replication-factor", -1, 1, std::numeric_limits<int16_t>::max()));
  spec.configs = tools::key_values(a, "config");
  if (a.has("replica-assignment")) {
    if ((a.has("partitions") && action == "create") || a.has("replication-factor"))
      throw tools::usage_error("--replica-assignment excludes --partitions and --replication-factor");
    spec.assignments = tools::parse_replica_assignment(a.value_or("replica-assignment", ""));
  }
  auto bootstrap = a.value_or("bootstrap-server", tools::default_bootstrap);
  tools::check_bootstrap(bootstrap);
  auto connect_timeout = static_cast<int>(a.integer("connect-timeout-ms", 5000, 1, 3'600'000));
  auto timeout = static_cast<int>(a.integer("request-timeout-ms", 30000, 1, 3'600'000));

  // -- the broker ----------------------------------------------------------------------
  auto admin = tools::reach_admin(tool, bootstrap, connect_timeout, timeout);
  try {
    if (action == "create") {
      try {
        admin->create_topic(spec);
      } catch (const tools::kafka_failure& f) {
        if (a.has("if-not-exists") && is(f, "TOPIC_ALREADY_EXISTS"))
          return 0;
        tools::fail(tool, "cannot create topic '" + topic + "': " + f.what());
      }
      std::printf("Created topic %s.\n", topic.c_str());
    } else if (action == "alter") {
      add_partitions(*admin, topic, spec.partitions, spec.assignments);
    } else if (action == "delete") {
      try {
        admin->delete_topic(topic);
      } catch (const tools::kafka_failure& f) {
        if (a.has("if-exists") && is(f, "UNKNOWN_TOPIC_OR_PARTITION"))
          return 0;
        tools::fail(tool, "cannot delete topic '" + topic + "': " + f.what());
      }
      std::printf("Deleted topic %s.\n", topic.c_str());
    } else if (action == "list") {
      for (auto& t : admin->metadata().topics)
        std::printf("%s\n", t.name.c_str());
    } else {
      describe_topics(*admin, a, bootstrap, topic, filter, timeout);
    }
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, f.what());
  } catch (const std::runtime_error& e) { // kafka_call: a broker that cannot be reached
    tools::fail(tool, e.what());
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--create|--delete|--alter|--list|--describe [--topic TOPIC] [options]", argc, argv, options,
                    run_tool);
}
