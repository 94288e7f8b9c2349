// cafka-consumer-groups: list, describe and delete consumer groups, reset and delete their
// offsets (flags as kafka-consumer-groups.sh), over the brokers' Kafka listeners.
//
//   cafka-consumer-groups [--bootstrap-server 127.0.0.1:9092] --list
//   cafka-consumer-groups --describe --group G
//       GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
//   cafka-consumer-groups --reset-offsets --group G (--topic T ... | --all-topics)
//       (--to-earliest | --to-latest | --to-offset N) [--dry-run | --execute]
//   cafka-consumer-groups --delete --group G
//   cafka-consumer-groups --delete-offsets --group G --topic T[:P,P...] ...
//
// --reset-offsets only plans (prints the new offsets) unless --execute is given, and refuses
// a group that has members, as Kafka's tool does. --all-topics resets the partitions the group
// has committed offsets for; --topic every partition of the topic. --delete removes a group
// without members and its offsets (DeleteGroups); --delete-offsets the group's offsets of the
// topics (or of the listed partitions) its members do not consume (OffsetDelete), printing
// Kafka's TOPIC PARTITION STATUS table.
//
// Everything goes through librdkafka's admin API (apps/kafka_admin.hpp), which asks every
// broker for its groups (--list) and each group's coordinator for the rest. The table logic
// is cluster/group_lag.hpp.
//
// Exit codes: 0 done, 1 the broker refused or could not be reached, 2 a bad argument.

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "apps/kafka_admin.hpp"
#include "apps/tool_args.hpp"
#include "cluster/group_lag.hpp"
#include "protocol/wire/consumer_protocol.hpp"

using namespace cafka;

namespace {

constexpr const char* tool = "cafka-consumer-groups";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"list", "", "list the consumer groups"},
  {"describe", "", "members, assigned partitions, committed offsets, log end offsets and lag"},
  {"reset-offsets", "", "plan (or with --execute, store) new committed offsets for an inactive group"},
  {"delete", "", "delete a group without members, with its committed offsets"},
  {"delete-offsets", "", "delete the group's committed offsets of --topic (TOPIC or TOPIC:P,P...)"},
  {"group", "GROUP", "the group (for every action but --list)"},
  {"topic", "TOPIC", "--reset-offsets: every partition of this topic; --delete-offsets: TOPIC[:P,P...]", true},
  {"all-topics", "", "--reset-offsets: every partition the group has committed offsets for"},
  {"to-earliest", "", "--reset-offsets: to each partition's log start offset"},
  {"to-latest", "", "--reset-offsets: to each partition's log end offset"},
  {"to-offset", "N", "--reset-offsets: to N (clamped into each partition's start and end)"},
  {"dry-run", "", "--reset-offsets: only print the plan (the default)"},
  {"execute", "", "--reset-offsets: store the new offsets"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 30000)"},
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

cluster::group_phase phase_of(const std::string& state) {
  for (auto p : {cluster::group_phase::empty, cluster::group_phase::preparing_rebalance,
                 cluster::group_phase::completing_rebalance, cluster::group_phase::stable})
    if (state == cluster::to_string(p))
      return p;
  return cluster::group_phase::dead;
}

// The group as cluster/group_lag.hpp reads it: members' assignments in the consumer protocol.
cluster::group_description description_of(const tools::group_info& g) {
  cluster::group_description d;
  d.state = phase_of(g.state);
  d.protocol_type = "consumer";
  d.protocol = g.assignor;
  for (auto& m : g.members) {
    wire::consumer_assignment a;
    std::map<std::string, std::vector<int32_t>> by_topic;
    for (auto& tp : m.assignment)
      by_topic[tp.topic].push_back(tp.partition);
    for (auto& [topic, ps] : by_topic)
      a.assigned_partitions.push_back({topic, ps});
    cluster::member_description md;
    md.member_id = m.member_id;
    md.client_id = m.client_id;
    md.client_host = m.host;
    wire::byte_writer w{md.assignment};
    wire::encode_consumer_assignment(a, w);
    d.members.push_back(std::move(md));
  }
  return d;
}

// Log start and end of every partition of `topics`; unknown topics are left out, and a
// partition whose leader does not answer (said on stderr).
std::map<cluster::topic_partition, cluster::partition_bounds> bounds(tools::kafka_admin& admin,
                                                                     const std::set<std::string>& topics) {
  std::map<cluster::topic_partition, cluster::partition_bounds> out;
  if (topics.empty())
    return out;
  for (auto& t : admin.metadata().topics) {
    if (topics.count(t.name) == 0 || !t.error.empty())
      continue;
    for (auto& p : t.partitions) {
      try {
        auto [low, high] = admin.watermarks({t.name, p.id});
        out[{t.name, p.id}] = {low, high};
      } catch (const tools::kafka_failure& f) {
        std::fprintf(stderr, "%s: log end of %s-%d unknown: %s\n", tool, t.name.c_str(), p.id, f.what());
      }
    }
  }
  return out;
}

int list_groups(tools::kafka_admin& admin) {
  for (auto& g : admin.list_groups())
    std::printf("%s\n", g.id.c_str());
  return 0;
}

tools::group_info existing_group(tools::kafka_admin& admin, const std::string& id) {
  auto g = admin.describe_group(id);
  if (g.state == "Dead")
    tools::fail(tool, "consumer group '" + id + "' does not exist.");
  return g;
}

int describe_group(tools::kafka_admin& admin, const std::string& id) {
  auto d = description_of(existing_group(admin, id));
  auto committed = admin.committed_offsets(id);
  std::set<std::string> topics;
  for (auto& [tp, _] : committed)
    topics.insert(tp.topic);
  auto owners = cluster::partition_owners(d);
  for (auto& [tp, _] : owners)
    topics.insert(tp.topic);
  auto rows = cluster::group_lag(d, committed, bounds(admin, topics));
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

int reset_offsets(tools::kafka_admin& admin, const std::string& id, const tools::args& a, cluster::reset_spec spec) {
  auto g = admin.describe_group(id);
  auto state = phase_of(g.state);
  if (a.has("execute") && !cluster::is_inactive(state))
    tools::fail(tool, "assignments can only be reset if the group '" + id + "' is inactive, but the current state is "
                        + g.state + ".");
  std::set<std::string> topics;
  std::vector<cluster::topic_partition> partitions;
  if (a.has("all-topics")) {
    for (auto& [tp, _] : admin.committed_offsets(id)) {
      topics.insert(tp.topic);
      partitions.push_back(tp);
    }
  } else {
    for (auto& topic : a.values("topic"))
      topics.insert(topic);
  }
  auto known = bounds(admin, topics);
  if (!a.has("all-topics")) {
    for (auto& topic : topics) {
      size_t before = partitions.size();
      for (auto& [tp, _] : known)
        if (tp.topic == topic)
          partitions.push_back(tp);
      if (partitions.size() == before)
        tools::fail(tool, "topic '" + topic + "' does not exist");
    }
  }
  auto plan = cluster::plan_reset(partitions, known, spec);
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
  admin.alter_offsets(id, plan.offsets);
  return 0;
}

int delete_group(tools::kafka_admin& admin, const std::string& id) {
  try {
    admin.delete_group(id);
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, "deletion of group '" + id + "' failed: " + f.what());
  }
  std::printf("Deletion of requested consumer groups ('%s') was successful.\n", id.c_str());
  return 0;
}

// --delete-offsets: TOPIC (every partition the group committed) or TOPIC:P,P,...
int delete_offsets(tools::kafka_admin& admin, const std::string& id, const tools::args& a) {
  std::vector<cluster::topic_partition> partitions;
  std::optional<std::map<cluster::topic_partition, int64_t>> committed;
  for (auto& spec : a.values("topic")) {
    auto colon = spec.find(':');
    auto topic = spec.substr(0, colon);
    if (colon == std::string::npos) {
      if (!committed)
        committed = admin.committed_offsets(id);
      for (auto& [tp, _] : *committed)
        if (tp.topic == topic)
          partitions.push_back(tp);
      continue;
    }
    for (auto& p : tools::comma_list(spec.substr(colon + 1)))
      partitions.push_back(
        {topic, static_cast<int32_t>(tools::parse_integer(p, "--topic partition", 0, std::numeric_limits<int32_t>::max()))});
  }
  std::map<cluster::topic_partition, std::string> results;
  try {
    results = admin.delete_offsets(id, partitions);
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, "deletion of offsets of group '" + id + "' failed: " + f.what());
  }
  std::vector<std::vector<std::string>> table{{"TOPIC", "PARTITION", "STATUS"}};
  bool failed = false;
  for (auto& [tp, error] : results) {
    table.push_back({tp.topic, std::to_string(tp.partition), error.empty() ? "Successful" : "Error: " + error});
    failed = failed || !error.empty();
  }
  print_table(table);
  return failed ? 1 : 0;
}

int run_tool(const tools::args& a) {
  // -- everything about the command line is checked before connecting ----------------
  std::vector<std::string> actions;
  for (auto name : {"list", "describe", "reset-offsets", "delete", "delete-offsets"})
    if (a.has(name))
      actions.push_back(name);
  if (actions.size() != 1)
    throw tools::usage_error(
      "exactly one of --list, --describe, --reset-offsets, --delete, --delete-offsets is required");
  auto action = actions.front();
  auto group = a.value_or("group", "");
  if (action != "list" && group.empty())
    throw tools::usage_error("--" + action + " needs --group");
  if (action == "list" && a.has("group"))
    throw tools::usage_error("--list takes no --group");
  std::vector<std::string> reset_only{"topic", "all-topics", "to-earliest", "to-latest", "to-offset", "dry-run",
                                      "execute"};
  for (auto& name : reset_only)
    if (a.has(name) && action != "reset-offsets" && !(name == "topic" && action == "delete-offsets"))
      throw tools::usage_error("--" + name + " is only valid with --reset-offsets");
  if (action == "delete-offsets" && !a.has("topic"))
    throw tools::usage_error("--delete-offsets needs --topic");
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
  auto connect_timeout = static_cast<int>(a.integer("connect-timeout-ms", 5000, 1, 3'600'000));
  auto timeout = static_cast<int>(a.integer("request-timeout-ms", 30000, 1, 3'600'000));

  // -- the brokers ---------------------------------------------------------------------
  auto admin = tools::reach_admin(tool, bootstrap, connect_timeout, timeout);
  try {
    if (action == "list")
      return list_groups(*admin);
    if (action == "describe")
      return describe_group(*admin, group);
    if (action == "delete")
      return delete_group(*admin, group);
    if (action == "delete-offsets")
      return delete_offsets(*admin, group, a);
    return reset_offsets(*admin, group, a, spec);
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, "group '" + group + "': " + f.what());
  }
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--list | --describe|--delete|--reset-offsets|--delete-offsets --group G ... [options]",
                    argc, argv, options, run_tool);
}
