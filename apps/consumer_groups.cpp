// cafka-consumer-groups: list and describe consumer groups, reset their offsets (flags as
// kafka-consumer-groups.sh).
//
//   cafka-consumer-groups [--bootstrap-server 127.0.0.1:9192] --list
//   cafka-consumer-groups --describe --group G
//       GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
//   cafka-consumer-groups --reset-offsets --group G (--topic T ... | --all-topics)
//       (--to-earliest | --to-latest | --to-offset N) [--dry-run | --execute]
//
// --reset-offsets only plans (prints the new offsets) unless --execute is given, and refuses
// a group that has members, as Kafka's tool does. --all-topics resets the partitions the group
// has committed offsets for; --topic every partition of the topic.
//
// It talks to the node's actors through cafka's client: the node hands out the group's actor,
// which describes the group and stores the offsets; the topic descriptions give log starts
// and ends. The table logic is cluster/group_lag.hpp.
//
// In a cluster the --bootstrap-server may be any broker. A group lives on the broker that
// coordinates it: a node that does not answers NOT_COORDINATOR naming that broker, and the
// tool asks that broker instead (its host:caf.port from the metadata; one hop,
// client/coordinator_hop.hpp). --list asks every live broker of the metadata for the groups
// it coordinates and prints the union, as Kafka's tool does; a broker that cannot be reached
// is named on stderr and left out (the bootstrap broker must answer). Log start and end
// offsets come from every broker too (each describes the partitions it leads).
// --describe looks for the group in that union first (asking for a group's actor creates
// the group).
//
// Exit codes: 0 done, 1 the broker refused or could not be reached, 2 a bad argument.

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "actors/node_actor.hpp"
#include "apps/blocking_request.hpp"
#include "apps/tool_args.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/coordinator_hop.hpp"
#include "cluster/group_lag.hpp"

using namespace cafka;
using namespace std::chrono;
using tools::ask;
using tools::tell;

namespace {

constexpr const char* tool = "cafka-consumer-groups";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "the node's caf.port (default 127.0.0.1:9192)"},
  {"list", "", "list the consumer groups"},
  {"describe", "", "members, assigned partitions, committed offsets, log end offsets and lag"},
  {"reset-offsets", "", "plan (or with --execute, store) new committed offsets for an inactive group"},
  {"group", "GROUP", "the group (for --describe and --reset-offsets)"},
  {"topic", "TOPIC", "--reset-offsets: every partition of this topic", true},
  {"all-topics", "", "--reset-offsets: every partition the group has committed offsets for"},
  {"to-earliest", "", "--reset-offsets: to each partition's log start offset"},
  {"to-latest", "", "--reset-offsets: to each partition's log end offset"},
  {"to-offset", "N", "--reset-offsets: to N (clamped into each partition's start and end)"},
  {"dry-run", "", "--reset-offsets: only print the plan (the default)"},
  {"execute", "", "--reset-offsets: store the new offsets"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 30000)"},
};

struct session {
  caf::actor_system& sys;
  node_actor node;
  milliseconds timeout;
  milliseconds connect_timeout;

  // The live brokers of the metadata with a caf.port: (id, host, caf.port).
  std::vector<broker_info> brokers() {
    auto md = ask<cluster_metadata>(sys, node, timeout, metadata_atom_v, metadata_request{});
    if (!md)
      tools::fail(tool, "cannot read the cluster's metadata: " + describe(md.error()));
    std::vector<broker_info> out;
    for (auto& b : md->brokers)
      if (b.caf_port > 0 && b.caf_port <= 65535)
        out.push_back(b);
    return out;
  }

  std::map<int32_t, caf::expected<node_actor>> nodes; ///< by broker id, reached once

  caf::expected<node_actor> node_of(const broker_info& b) {
    auto it = nodes.find(b.id);
    if (it == nodes.end())
      it = nodes.emplace(b.id, client::connect(sys, b.host, static_cast<uint16_t>(b.caf_port), connect_timeout))
             .first;
    return it->second;
  }

  group_actor group(const std::string& id) {
    auto g = ask<group_actor>(sys, node, timeout, group_coordinator_atom_v, id);
    if (auto next = g ? std::nullopt : client::coordinator_hint(g.error())) {
      // Coordinated by another broker: ask it (one hop).
      for (auto& b : brokers()) {
        if (b.id != *next)
          continue;
        auto there = node_of(b);
        if (!there)
          tools::fail(tool, "group '" + id + "' is coordinated by broker " + std::to_string(b.id) + " at " + b.host
                              + ":" + std::to_string(b.caf_port) + ", which cannot be reached: "
                              + describe(there.error()));
        g = ask<group_actor>(sys, *there, timeout, group_coordinator_atom_v, id);
        break;
      }
    }
    if (!g)
      tools::fail(tool, "cannot find group '" + id + "': " + describe(g.error()));
    return *g;
  }

  cluster::group_description describe_group(const group_actor& g, const std::string& id) {
    auto d = ask<cluster::group_description>(sys, g, timeout, describe_atom_v);
    if (!d)
      tools::fail(tool, "cannot describe group '" + id + "': " + describe(d.error()));
    return *d;
  }

  std::map<cluster::topic_partition, int64_t> committed(const group_actor& g, const std::string& id) {
    auto offsets = ask<std::vector<group_offset>>(sys, g, timeout, fetch_offsets_atom_v, group_offset_query{true, {}});
    if (!offsets)
      tools::fail(tool, "cannot fetch the offsets of group '" + id + "': " + describe(offsets.error()));
    std::map<cluster::topic_partition, int64_t> out;
    for (auto& o : *offsets)
      out[o.tp] = o.offset;
    return out;
  }

  // Log start and end of every partition of `topics`; unknown topics are left out. In a
  // cluster a broker describes only the partitions it leads: the others come from the other
  // brokers (one that cannot be reached leaves its partitions' ends unknown, said on stderr).
  std::map<cluster::topic_partition, cluster::partition_bounds> bounds(const std::set<std::string>& topics) {
    std::map<cluster::topic_partition, cluster::partition_bounds> out;
    auto others = topics.empty() ? std::vector<broker_info>{} : brokers();
    if (others.size() < 2)
      others.clear(); // a single node describes every partition itself
    for (auto& topic : topics) {
      auto d = ask<topic_description>(sys, node, timeout, describe_atom_v, topic);
      if (!d && to_kafka_error(d.error()) == kafka_error::unknown_topic_or_partition)
        continue;
      if (!d)
        tools::fail(tool, "cannot describe topic '" + topic + "': " + describe(d.error()));
      for (auto& p : d->partitions)
        out[p.tp] = {p.log_start_offset, p.high_watermark};
      for (auto& b : others) {
        auto n = node_of(b);
        auto there = n ? ask<topic_description>(sys, *n, timeout, describe_atom_v, topic)
                       : caf::expected<topic_description>{n.error()};
        if (!there) {
          std::fprintf(stderr, "%s: log ends of broker %d's partitions of '%s' unknown: %s\n", tool, b.id,
                       topic.c_str(), describe(there.error()).c_str());
          continue;
        }
        for (auto& p : there->partitions)
          out.emplace(p.tp, cluster::partition_bounds{p.log_start_offset, p.high_watermark});
      }
    }
    return out;
  }
};

std::string text_or_dash(const std::optional<int64_t>& x) {
  return x ? std::to_string(*x) : "-";
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

// Prints rows as left-aligned columns, two spaces apart, like Kafka's tool.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      width.resize(std::max(width.size(), row.size()));
      width[i] = std::max(width[i], row[i].size());
    }
  for (auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

// The groups of every broker (a single node: its own), sorted, without duplicates.
std::vector<std::string> group_names(session& s) {
  auto names = ask<std::vector<std::string>>(s.sys, s.node, s.timeout, list_groups_atom_v);
  if (!names)
    tools::fail(tool, "cannot list groups: " + describe(names.error()));
  std::set<std::string> all(names->begin(), names->end());
  auto brokers = s.brokers();
  if (brokers.size() > 1) {
    // Cluster: each broker lists the groups it coordinates. The bootstrap node is one of
    // them; asking it again through its listed address costs one more request, no harm.
    for (auto& b : brokers) {
      auto where = "broker " + std::to_string(b.id) + " at " + b.host + ":" + std::to_string(b.caf_port);
      auto n = s.node_of(b);
      auto theirs = n ? ask<std::vector<std::string>>(s.sys, *n, s.timeout, list_groups_atom_v)
                      : caf::expected<std::vector<std::string>>{n.error()};
      if (!theirs) {
        std::fprintf(stderr, "%s: cannot list the groups of %s: %s\n", tool, where.c_str(),
                     describe(theirs.error()).c_str());
        continue;
      }
      all.insert(theirs->begin(), theirs->end());
    }
  }
  return {all.begin(), all.end()};
}

int list_groups(session& s) {
  for (auto& name : group_names(s))
    std::printf("%s\n", name.c_str());
  return 0;
}

int describe_group(session& s, const std::string& id) {
  // Asking the node for the group's actor would create the group: look first.
  auto names = group_names(s);
  if (!std::binary_search(names.begin(), names.end(), id))
    tools::fail(tool, "consumer group '" + id + "' does not exist.");
  auto g = s.group(id);
  auto d = s.describe_group(g, id);
  auto committed = s.committed(g, id);
  std::set<std::string> topics;
  for (auto& [tp, _] : committed)
    topics.insert(tp.topic);
  auto owners = cluster::partition_owners(d);
  for (auto& [tp, _] : owners)
    topics.insert(tp.topic);
  auto rows = cluster::group_lag(d, committed, s.bounds(topics));
  std::printf("Consumer group '%s' is %s with %zu member(s)%s%s.\n\n", id.c_str(), cluster::to_string(d.state),
              d.members.size(), d.protocol.empty() ? "" : ", assignor ", d.protocol.c_str());
  std::vector<std::vector<std::string>> table{
    {"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"}};
  for (auto& r : rows)
    table.push_back({id, r.tp.topic, std::to_string(r.tp.partition), text_or_dash(r.committed),
                     text_or_dash(r.log_end), text_or_dash(r.lag), or_dash(r.member_id), or_dash(r.client_host),
                     or_dash(r.client_id)});
  // Members that hold nothing (yet) are listed too, as Kafka does.
  std::set<std::string> holding;
  for (auto& [_, member] : owners)
    holding.insert(member->member_id);
  for (auto& m : d.members) {
    if (holding.count(m.member_id) == 0)
      table.push_back({id, "-", "-", "-", "-", "-", m.member_id, or_dash(m.client_host), or_dash(m.client_id)});
  }
  print_table(table);
  return 0;
}

int reset_offsets(session& s, const std::string& id, const tools::args& a, cluster::reset_spec spec) {
  auto g = s.group(id);
  auto d = s.describe_group(g, id);
  if (a.has("execute") && !cluster::is_inactive(d.state))
    tools::fail(tool, "assignments can only be reset if the group '" + id + "' is inactive, but the current state is "
                        + cluster::to_string(d.state) + ".");
  std::set<std::string> topics;
  std::vector<cluster::topic_partition> partitions;
  if (a.has("all-topics")) {
    for (auto& [tp, _] : s.committed(g, id)) {
      topics.insert(tp.topic);
      partitions.push_back(tp);
    }
  } else {
    for (auto& topic : a.values("topic"))
      topics.insert(topic);
  }
  auto bounds = s.bounds(topics);
  if (!a.has("all-topics")) {
    for (auto& topic : topics) {
      size_t before = partitions.size();
      for (auto& [tp, _] : bounds)
        if (tp.topic == topic)
          partitions.push_back(tp);
      if (partitions.size() == before)
        tools::fail(tool, "topic '" + topic + "' does not exist");
    }
  }
  auto plan = cluster::plan_reset(partitions, bounds, spec);
  for (auto& tp : plan.unknown)
    std::fprintf(stderr, "%s: skipping %s-%d: the partition does not exist\n", tool, tp.topic.c_str(), tp.partition);
  std::vector<std::vector<std::string>> table{{"GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"}};
  for (auto& [tp, offset] : plan.offsets)
    table.push_back({id, tp.topic, std::to_string(tp.partition), std::to_string(offset)});
  print_table(table);
  if (!a.has("execute")) {
    std::printf("\n(dry run: nothing stored; add --execute to store these offsets)\n");
    return 0;
  }
  group_offset_commit commit; // from outside the group: no member, generation -1
  for (auto& [tp, offset] : plan.offsets)
    commit.offsets.push_back(group_offset{tp, offset, -1, ""});
  if (auto err = tell(s.sys, g, s.timeout, commit_offsets_atom_v, std::move(commit)))
    tools::fail(tool, "cannot store the offsets of group '" + id + "': " + describe(err));
  return 0;
}

int run_tool(const tools::args& a) {
  // -- everything about the command line is checked before connecting ----------------
  std::vector<std::string> actions;
  for (auto name : {"list", "describe", "reset-offsets"})
    if (a.has(name))
      actions.push_back(name);
  if (actions.size() != 1)
    throw tools::usage_error("exactly one of --list, --describe, --reset-offsets is required");
  auto action = actions.front();
  auto group = a.value_or("group", "");
  if (action != "list" && group.empty())
    throw tools::usage_error("--" + action + " needs --group");
  if (action == "list" && a.has("group"))
    throw tools::usage_error("--list takes no --group");
  std::vector<std::string> reset_only{"topic", "all-topics", "to-earliest", "to-latest", "to-offset", "dry-run",
                                      "execute"};
  for (auto& name : reset_only)
    if (a.has(name) && action != "reset-offsets")
      throw tools::usage_error("--" + name + " is only valid with --reset-offsets");
  cluster::reset_spec spec;
  if (action == "reset-offsets") {
    int targets = a.has("to-earliest") + a.has("to-latest") + a.has("to-offset");
    if (targets != 1)
      throw tools::usage_error("--reset-offsets needs exactly one of --to-earliest, --to-latest, --to-offset");
    if (a.has("topic") == a.has("all-topics"))
      throw tools::usage_error("--reset-offsets needs either --topic or --all-topics");
    if (a.has("dry-run") && a.has("execute"))
      throw tools::usage_error("--dry-run and --execute exclude each other");
    spec.target = a.has("to-earliest") ? cluster::reset_target::earliest
                  : a.has("to-latest") ? cluster::reset_target::latest
                                       : cluster::reset_target::offset;
    spec.offset = a.integer("to-offset", 0, 0, std::numeric_limits<int64_t>::max());
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
  session s{sys, *node, timeout, connect_timeout, {}};
  if (action == "list")
    return list_groups(s);
  if (action == "describe")
    return describe_group(s, group);
  return reset_offsets(s, group, a, spec);
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--list | --describe --group G | --reset-offsets --group G ... [options]", argc, argv,
                    options, run_tool);
}
