// cafka-topics: create, delete, list and describe topics (flags as kafka-topics.sh).
//
//   cafka-topics [--bootstrap-server 127.0.0.1:9192] --create --topic T --partitions N
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
//   \tStartOffset: S\tEndOffset: E\tSize: B
// Leader, Replicas, Isr and Offline (replicas whose broker is not live; the column only when
// there are some) come from Metadata; Adding and Removing Replicas (as Kafka's, while the
// partition is being reassigned) from the broker's list of reassignments; Leader is "none"
// without one (Kafka's word). The offsets
// and the size (bytes) are cafka's own columns: in cluster mode those of a partition come from
// its leader (asked at its caf.port), "-" for a partition without a reachable leader.
//
// --alter adds partitions up to N (never fewer, as Kafka); --replica-assignment there lists every
// partition, as Kafka's: the entries of the partitions the topic has are skipped. Prints
// Kafka's two lines ("WARNING: If partitions are increased ..." and "Adding partitions succeeded!").
//
// --under-replicated-partitions: only the partitions whose ISR is smaller than their replicas;
// --unavailable-partitions: only those without a live leader. Both without the topic lines, as
// Kafka's. (Kafka's --under-min-isr-partitions and --at-min-isr-partitions are left out: the
// tool cannot know the broker's default min.insync.replicas.)
//
// Exit codes: 0 done, 1 the broker refused or could not be reached, 2 a bad argument.

#include <sstream>
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "apps/blocking_request.hpp"
#include "apps/tool_args.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "protocol/kafka_error.hpp"

using namespace cafka;
using namespace std::chrono;
using tools::ask;

namespace {

// Kafka's --replica-assignment: partitions separated by ',', broker ids by ':'.
std::vector<std::vector<int32_t>> parse_assignment(const std::string& text) {
  std::vector<std::vector<int32_t>> out;
  std::stringstream partitions{text};
  for (std::string partition; std::getline(partitions, partition, ',');) {
    std::vector<int32_t> brokers;
    std::stringstream ids{partition};
    for (std::string id; std::getline(ids, id, ':');)
      brokers.push_back(static_cast<int32_t>(tools::parse_integer(id, "replica-assignment", 0, 2147483647)));
    out.push_back(std::move(brokers));
  }
  if (out.empty() || text.back() == ',')
    throw tools::usage_error("--replica-assignment: expected broker ids like 1:2:3,2:3:1");
  return out;
}

constexpr const char* tool = "cafka-topics";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "the node's caf.port (default 127.0.0.1:9192)"},
  {"create", "", "create a topic"},
  {"delete", "", "delete a topic and its data"},
  {"alter", "", "add partitions to a topic (--partitions: the new total)"},
  {"list", "", "list the topics"},
  {"describe", "", "partitions: leader, replicas, ISR, start/end offsets and sizes"},
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

bool is(const caf::error& err, kafka_error code) {
  return to_kafka_error(err) == code;
}

std::string join(const std::vector<int32_t>& xs) {
  std::string out;
  for (auto x : xs)
    out += (out.empty() ? "" : ",") + std::to_string(x);
  return out;
}

// Which partitions --describe prints: all, or one of Kafka's replication reports.
enum class report { all, under_replicated, unavailable };

// One partition as Metadata knows it (a partition only `describe` knows has no leader).
struct partition_view {
  int32_t leader = -1;
  int16_t error = 0;
  std::vector<int32_t> replicas, isr, offline;
  std::vector<int32_t> adding, removing; ///< while it is being reassigned
};

// As Kafka: no leader, or a leader that is not a live broker.
bool unavailable(const partition_view& p, const cluster_metadata& md) {
  if (p.leader < 0 || p.error == protocol::wire_code(protocol::kafka_error::leader_not_available))
    return true;
  return std::none_of(md.brokers.begin(), md.brokers.end(), [&](auto& b) { return b.id == p.leader; });
}

bool under_replicated(const partition_view& p) {
  return p.isr.size() < p.replicas.size();
}

bool wanted(report r, const partition_view& p, const cluster_metadata& md) {
  switch (r) {
    case report::under_replicated:
      return under_replicated(p);
    case report::unavailable:
      return unavailable(p, md);
    default:
      return true;
  }
}

// Every partition of `d` that Metadata or `d` itself knows, with the reassignments under way.
std::map<int32_t, partition_view> partition_views(const topic_description& d, const cluster_metadata& md,
                                                  const std::vector<partition_move_status>& moving) {
  std::map<int32_t, partition_view> out;
  for (auto& t : md.topics)
    if (t.name == d.name)
      for (auto& p : t.partitions)
        out[p.partition] = partition_view{p.leader, p.error, p.replicas, p.isr, p.offline_replicas, {}, {}};
  for (auto& p : d.partitions)
    out.try_emplace(p.tp.partition);
  for (auto& m : moving)
    if (m.tp.topic == d.name) {
      out[m.tp.partition].adding = m.adding;
      out[m.tp.partition].removing = m.removing;
    }
  return out;
}

// The topic line (unless a report filters the partitions) and one line per partition in
// `views`: leader, replicas, ISR and offline replicas from Metadata, offsets from `statuses`
// (the brokers that lead them), "-" where no leader answered.
void print_description(const topic_description& d, report r, const std::map<int32_t, partition_view>& views,
                       const std::map<int32_t, partition_status>& statuses, size_t partition_count) {
  if (r == report::all) {
    std::string configs;
    for (auto& [k, v] : d.configs)
      configs += (configs.empty() ? "" : ",") + k + "=" + v;
    std::printf("Topic: %s\tPartitionCount: %zu\tReplicationFactor: %d\tConfigs: %s\n", d.name.c_str(),
                partition_count, d.replication_factor, configs.c_str());
  }
  auto number = [](int64_t x) { return std::to_string(x); };
  for (auto& [p, v] : views) {
    auto leader = v.leader >= 0 ? std::to_string(v.leader) : std::string{"none"};
    auto offline = v.offline.empty() ? std::string{} : "\tOffline: " + join(v.offline);
    if (!v.adding.empty() || !v.removing.empty())
      offline = "\tAdding Replicas: " + join(v.adding) + "\tRemoving Replicas: " + join(v.removing) + offline;
    auto s = statuses.find(p);
    bool known = s != statuses.end();
    std::printf("\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s%s\tStartOffset: %s\tEndOffset: "
                "%s\tSize: %s\n",
                d.name.c_str(), p, leader.c_str(), join(v.replicas).c_str(), join(v.isr).c_str(), offline.c_str(),
                known ? number(s->second.log_start_offset).c_str() : "-",
                known ? number(s->second.high_watermark).c_str() : "-",
                known ? number(s->second.size_bytes).c_str() : "-");
  }
}

// In cluster mode a broker describes only the partitions it leads: the others' offsets come
// from their leaders (reached at the caf.port Metadata names), asked only for the partitions
// in `views` (those to be printed). A leader that cannot be reached leaves its partitions'
// offsets unknown; the tool says so on stderr and goes on.
std::map<int32_t, partition_status> partition_statuses(caf::actor_system& sys, const topic_description& d,
                                                       const cluster_metadata& md,
                                                       const std::map<int32_t, partition_view>& views,
                                                       milliseconds connect_timeout, milliseconds timeout) {
  std::map<int32_t, partition_status> out;
  for (auto& p : d.partitions)
    out[p.tp.partition] = p;
  std::set<int32_t> asked;
  for (auto& [p, v] : views) {
    if (out.count(p) != 0 || v.leader < 0 || !asked.insert(v.leader).second)
      continue;
    auto b = std::find_if(md.brokers.begin(), md.brokers.end(), [&](auto& x) { return x.id == v.leader; });
    if (b == md.brokers.end())
      continue;
    auto leader = client::connect(sys, b->host, static_cast<uint16_t>(b->caf_port), connect_timeout);
    auto there = leader ? ask<topic_description>(sys, *leader, timeout, describe_atom_v, d.name)
                        : caf::expected<topic_description>{leader.error()};
    if (!there) {
      std::fprintf(stderr, "%s: offsets of broker %d's partitions unknown: %s\n", tool, v.leader,
                   describe(there.error()).c_str());
      continue;
    }
    for (auto& q : there->partitions)
      out.emplace(q.tp.partition, q);
  }
  return out;
}

// --describe of `names` (every topic when --topic is absent).
void describe_topics(caf::actor_system& sys, const node_actor& node, const tools::args& a,
                     const std::vector<std::string>& names, report r, milliseconds connect_timeout,
                     milliseconds timeout) {
  metadata_request req;
  req.topics = names;
  auto md = ask<cluster_metadata>(sys, node, timeout, metadata_atom_v, req);
  if (!md)
    tools::fail(tool, "cannot get metadata: " + describe(md.error()));
  auto moving = ask<std::vector<partition_move_status>>(sys, node, timeout, reassign_atom_v, names);
  if (!moving)
    tools::fail(tool, "cannot list the reassignments: " + describe(moving.error()));
  for (auto& name : names) {
    auto d = ask<topic_description>(sys, node, timeout, describe_atom_v, name);
    if (!d && a.has("if-exists") && is(d.error(), kafka_error::unknown_topic_or_partition))
      continue;
    if (!d)
      tools::fail(tool, "cannot describe topic '" + name + "': " + describe(d.error()));
    auto views = partition_views(*d, *md, *moving);
    auto count = views.size();
    for (auto it = views.begin(); it != views.end();)
      it = wanted(r, it->second, *md) ? std::next(it) : views.erase(it);
    auto statuses = views.empty() ? std::map<int32_t, partition_status>{}
                                  : partition_statuses(sys, *d, *md, views, connect_timeout, timeout);
    print_description(*d, r, views, statuses, count);
  }
}

// --alter: the topic grows to spec.partitions; spec.assignments, if given, lists every
// partition (those the topic has are skipped, as Kafka's tool does).
void add_partitions(caf::actor_system& sys, const node_actor& node, const std::string& topic, const topic_spec& spec,
                    milliseconds timeout) {
  partition_addition_request req{topic, spec.partitions, {}, false};
  if (!spec.assignments.empty()) {
    metadata_request mr;
    mr.topics = {topic};
    auto md = ask<cluster_metadata>(sys, node, timeout, metadata_atom_v, mr);
    if (!md || md->topics.size() != 1)
      tools::fail(tool, "cannot get the metadata of topic '" + topic + "'");
    auto now = md->topics[0].partitions.size();
    if (spec.assignments.size() != static_cast<size_t>(spec.partitions) || spec.assignments.size() <= now)
      throw tools::usage_error("--replica-assignment must list all " + std::to_string(spec.partitions)
                               + " partitions, the " + std::to_string(now) + " existing ones first");
    req.assignments.assign(spec.assignments.begin() + static_cast<std::ptrdiff_t>(now), spec.assignments.end());
  }
  auto added = ask<int32_t>(sys, node, timeout, add_partitions_atom_v, req);
  if (!added)
    tools::fail(tool, "cannot add partitions to topic '" + topic + "': " + describe(added.error()));
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
  topic_spec spec;
  spec.name = topic;
  spec.partitions = static_cast<int32_t>(a.integer("partitions", -1, 1, std::numeric_limits<int32_t>::max()));
  spec.replication_factor
    = static_cast<int16_t>(a.integer("replication-factor", -1, 1, std::numeric_limits<int16_t>::max()));
  for (auto& [k, v] : tools::key_values(a, "config"))
    spec.configs[k] = v;
  if (a.has("replica-assignment")) {
    if ((a.has("partitions") && action == "create") || a.has("replication-factor"))
      throw tools::usage_error("--replica-assignment excludes --partitions and --replication-factor");
    spec.assignments = parse_assignment(a.value_or("replica-assignment", ""));
  }
  auto bootstrap = a.value_or("bootstrap-server", tools::default_bootstrap);
  tools::check_bootstrap(bootstrap);
  milliseconds connect_timeout{a.integer("connect-timeout-ms", 5000, 1, 3'600'000)};
  milliseconds timeout{a.integer("request-timeout-ms", 30000, 1, 3'600'000)};

  // -- the broker ----------------------------------------------------------------------
  caf::actor_system_config cfg;
  client::configure_client(cfg);
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, bootstrap, connect_timeout);
  if (!node)
    tools::fail(tool, "cannot reach broker at " + bootstrap + ": " + describe(node.error()));

  if (action == "create") {
    auto created = ask<topic_description>(sys, *node, timeout, create_topic_atom_v, spec);
    if (!created && a.has("if-not-exists") && is(created.error(), kafka_error::topic_already_exists))
      return 0;
    if (!created)
      tools::fail(tool, "cannot create topic '" + topic + "': " + describe(created.error()));
    std::printf("Created topic %s.\n", topic.c_str());
  } else if (action == "alter") {
    add_partitions(sys, *node, topic, spec, timeout);
  } else if (action == "delete") {
    auto deleted = ask<std::string>(sys, *node, timeout, delete_topic_atom_v, topic);
    if (!deleted && a.has("if-exists") && is(deleted.error(), kafka_error::unknown_topic_or_partition))
      return 0;
    if (!deleted)
      tools::fail(tool, "cannot delete topic '" + topic + "': " + describe(deleted.error()));
    std::printf("Deleted topic %s.\n", topic.c_str());
  } else {
    auto names = ask<std::vector<std::string>>(sys, *node, timeout, list_topics_atom_v);
    if (!names)
      tools::fail(tool, "cannot list topics: " + describe(names.error()));
    std::sort(names->begin(), names->end());
    if (action == "list") {
      for (auto& name : *names)
        std::printf("%s\n", name.c_str());
      return 0;
    }
    if (!topic.empty())
      *names = {topic};
    describe_topics(sys, *node, a, *names, filter, connect_timeout, timeout);
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--create|--delete|--alter|--list|--describe [--topic TOPIC] [options]", argc, argv, options,
                    run_tool);
}
