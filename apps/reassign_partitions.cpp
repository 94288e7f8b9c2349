// cafka-reassign-partitions: Kafka's kafka-reassign-partitions.sh over the Kafka protocol
// (Metadata, AlterPartitionReassignments and ListPartitionReassignments on a broker's Kafka
// listener; the controller moves the replicas: docs/operations.md).
//
//   --generate --topics-to-move-json-file F --broker-list 1,2,3
//       prints the current assignment of the topics in F and a proposal over the brokers
//       (the placement of new topics, cluster/replica_placement.hpp), both as Kafka's JSON
//   --execute --reassignment-json-file F
//       prints the current assignment (to roll back with) and starts the moves
//   --verify --reassignment-json-file F
//       "Reassignment of partition T-P is complete." / "... is still in progress." per partition
//   --cancel --reassignment-json-file F
//       the moves in F still under way go back to their original replicas
//
// --execute --throttle B sets Kafka's replication quota for the moves (apps/reassign_throttle.hpp);
// --verify removes it once every partition is moved (unless --preserve-throttles). Files take
// only "any" as a log dir. Exit codes: 0 done, 1 the broker
// refused or could not be reached (or a partition failed), 2 a bad argument or file.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "apps/kafka_call.hpp"
#include "apps/reassign_throttle.hpp"
#include "apps/tool_args.hpp"
#include "cluster/reassignment_json.hpp"
#include "cluster/replica_placement.hpp"
#include "protocol/kafka_error.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/partition_reassignments.hpp"

namespace {

using namespace cafka;
namespace wire = cafka::wire;
using cluster::partition_target;

constexpr const char* tool = "cafka-reassign-partitions";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"generate", "", "propose an assignment of the topics in --topics-to-move-json-file over --broker-list"},
  {"execute", "", "start the reassignment in --reassignment-json-file"},
  {"verify", "", "show which partitions of --reassignment-json-file are moved"},
  {"cancel", "", "cancel the moves of --reassignment-json-file still under way"},
  {"topics-to-move-json-file", "FILE", "--generate: {\"topics\":[{\"topic\":\"t\"}],\"version\":1}"},
  {"reassignment-json-file", "FILE", "{\"version\":1,\"partitions\":[{\"topic\":\"t\",\"partition\":0,\"replicas\":[1,2]}]}"},
  {"broker-list", "1,2,3", "--generate: the brokers to spread the topics over"},
  {"throttle", "BYTES/S", "--execute: limit the replication of the moves to this rate per broker"},
  {"preserve-throttles", "", "--verify: keep the throttle after the moves are done"},
  {"command-config", "FILE", "not supported (no client security settings yet)"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 60000)"},
};

std::string partition_name(const std::string& topic, int32_t p) { return topic + "-" + std::to_string(p); }

std::string joined(const std::vector<std::string>& xs, const char* sep = ",") {
  std::string out;
  for (auto& x : xs)
    out += (out.empty() ? "" : sep) + x;
  return out;
}

std::string ids(const std::vector<int32_t>& xs) {
  std::vector<std::string> out;
  for (auto x : xs)
    out.push_back(std::to_string(x));
  return joined(out);
}

// -- Metadata v1, the current assignment ---------------------------------------------------

constexpr int16_t metadata_version = 1;

// topic -> partition -> replicas; unknown topics are left out. `addresses` (if given) gets
// every broker's Kafka listener, by id.
std::map<std::string, std::map<int32_t, std::vector<int32_t>>> current_assignment(
  const std::string& broker, const std::set<std::string>& topics, int timeout,
  std::map<int32_t, std::string>* addresses = nullptr) {
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::write_array_count(w, static_cast<int32_t>(topics.size()));
  for (auto& t : topics)
    wire::write_string(w, t);
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::metadata), metadata_version, body, timeout);
  wire::byte_reader r{{answer.data(), answer.size()}};
  auto brokers = wire::read_required_array_count(r, 14, false);
  for (int32_t i = 0; i < brokers && r.ok(); ++i) {
    auto id = r.read_i32();
    auto host = wire::read_string(r, false);
    auto port = r.read_i32();
    wire::read_nullable_string(r, false);
    if (addresses != nullptr)
      (*addresses)[id] = host + ":" + std::to_string(port);
  }
  r.read_i32(); // controller
  std::map<std::string, std::map<int32_t, std::vector<int32_t>>> out;
  auto read_ids = [&r] {
    std::vector<int32_t> xs;
    auto n = wire::read_required_array_count(r, 4, false);
    for (int32_t k = 0; k < n && r.ok(); ++k)
      xs.push_back(r.read_i32());
    return xs;
  };
  auto count = wire::read_required_array_count(r, 9, false);
  for (int32_t i = 0; i < count && r.ok(); ++i) {
    auto error = r.read_i16();
    auto name = wire::read_string(r, false);
    if (error != 0 && error != protocol::wire_code(protocol::kafka_error::unknown_topic_or_partition))
      tools::fail(tool, "topic " + name + ": " + protocol::to_string(static_cast<protocol::kafka_error>(error))
                          + " (retry)");
    r.read_i8();
    auto partitions = wire::read_required_array_count(r, 18, false);
    for (int32_t k = 0; k < partitions && r.ok(); ++k) {
      r.read_i16();
      auto p = r.read_i32();
      r.read_i32();
      auto replicas = read_ids();
      read_ids(); // isr
      if (error == 0)
        out[name][p] = std::move(replicas);
    }
  }
  if (!r.ok())
    tools::fail(tool, broker + " sent a malformed Metadata response");
  return out;
}

std::vector<partition_target> current_of(const std::map<std::string, std::map<int32_t, std::vector<int32_t>>>& now,
                                         const std::vector<partition_target>& wanted) {
  std::vector<partition_target> out;
  for (auto& t : wanted) {
    auto topic = now.find(t.topic);
    if (topic == now.end() || topic->second.count(t.partition) == 0)
      tools::fail(tool, "partition " + partition_name(t.topic, t.partition) + " does not exist");
    out.push_back({t.topic, t.partition, topic->second.at(t.partition)});
  }
  return out;
}

// -- the reassignment APIs -------------------------------------------------------------------

wire::alter_partition_reassignments_response alter(const std::string& broker, const std::vector<partition_target>& targets,
                                                   bool cancel, int timeout) {
  wire::alter_partition_reassignments_request req;
  req.timeout_ms = timeout;
  std::map<std::string, std::vector<wire::reassignable_partition>> by_topic;
  for (auto& t : targets)
    by_topic[t.topic].push_back({t.partition, cancel ? std::nullopt : std::optional<std::vector<int32_t>>{t.replicas}});
  for (auto& [name, partitions] : by_topic)
    req.topics.push_back({name, partitions});
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_alter_partition_reassignments_request(req, w);
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::alter_partition_reassignments), 0, body,
                                  timeout + 5000);
  auto resp = wire::decode_alter_partition_reassignments_response({answer.data(), answer.size()});
  if (!resp)
    tools::fail(tool, broker + " sent a malformed AlterPartitionReassignments response");
  if (resp->error_code != 0)
    tools::fail(tool, std::string{protocol::to_string(static_cast<protocol::kafka_error>(resp->error_code))} + ": "
                        + resp->error_message.value_or(""));
  return *resp;
}

std::set<std::pair<std::string, int32_t>> in_progress(const std::string& broker, int timeout) {
  wire::list_partition_reassignments_request req;
  req.timeout_ms = timeout;
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_list_partition_reassignments_request(req, w);
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::list_partition_reassignments), 0, body,
                                  timeout);
  auto resp = wire::decode_list_partition_reassignments_response({answer.data(), answer.size()});
  if (!resp || resp->error_code != 0)
    tools::fail(tool, broker + ": ListPartitionReassignments failed");
  std::set<std::pair<std::string, int32_t>> out;
  for (auto& t : resp->topics)
    for (auto& p : t.partitions)
      out.emplace(t.name, p.partition_index);
  return out;
}

std::vector<partition_target> reassignment_file(const tools::args& a) {
  if (!a.has("reassignment-json-file"))
    throw tools::usage_error("this action needs --reassignment-json-file");
  std::string error;
  auto parsed = cluster::parse_reassignment_json(tools::read_file(a.value_or("reassignment-json-file", "")), error);
  if (!parsed)
    throw tools::usage_error("--reassignment-json-file: " + error);
  return *parsed;
}

std::set<std::string> topics_of(const std::vector<partition_target>& targets) {
  std::set<std::string> out;
  for (auto& t : targets)
    out.insert(t.topic);
  return out;
}

// -- the actions -------------------------------------------------------------------------------

int generate(const tools::args& a, const std::string& broker, int timeout) {
  if (!a.has("topics-to-move-json-file") || !a.has("broker-list"))
    throw tools::usage_error("--generate needs --topics-to-move-json-file and --broker-list");
  std::string error;
  auto topics = cluster::parse_topics_json(tools::read_file(a.value_or("topics-to-move-json-file", "")), error);
  if (!topics)
    throw tools::usage_error("--topics-to-move-json-file: " + error);
  std::vector<int32_t> brokers;
  std::stringstream list{a.value_or("broker-list", "")};
  for (std::string id; std::getline(list, id, ',');)
    brokers.push_back(static_cast<int32_t>(tools::parse_integer(id, "broker-list", 0, 2147483647)));
  auto now = current_assignment(broker, {topics->begin(), topics->end()}, timeout);
  std::vector<partition_target> current, proposed;
  for (auto& name : *topics) {
    auto topic = now.find(name);
    if (topic == now.end())
      tools::fail(tool, "topic " + name + " does not exist");
    auto& partitions = topic->second;
    auto rf = static_cast<int32_t>(partitions.begin()->second.size());
    auto placed = cluster::place_replicas(static_cast<int32_t>(partitions.size()), rf, brokers);
    if (!placed)
      tools::fail(tool, "cannot place " + name + " (replication factor " + std::to_string(rf) + ") over brokers "
                          + ids(brokers) + ": " + placed.error().message());
    for (auto& [p, replicas] : partitions) {
      current.push_back({name, p, replicas});
      proposed.push_back({name, p, (*placed)[static_cast<size_t>(p)]});
    }
  }
  std::printf("Current partition replica assignment\n%s\n\nProposed partition reassignment configuration\n%s\n",
              cluster::reassignment_json(current).c_str(), cluster::reassignment_json(proposed).c_str());
  return 0;
}

// The partitions of `resp` that failed, printed; how many. Those that went through are in
// `fine`, those that were not being moved (for a cancel) in `idle`.
int report_failures(const wire::alter_partition_reassignments_response& resp, const char* what,
                    std::vector<std::string>& fine, std::vector<std::string>* idle = nullptr) {
  std::vector<std::string> errors;
  for (auto& t : resp.responses)
    for (auto& p : t.partitions) {
      auto name = partition_name(t.name, p.partition_index);
      auto code = static_cast<protocol::kafka_error>(p.error_code);
      if (p.error_code == 0)
        fine.push_back(name);
      else if (idle != nullptr && code == protocol::kafka_error::no_reassignment_in_progress)
        idle->push_back(name);
      else
        errors.push_back(name + ": " + protocol::to_string(code) + ": " + p.error_message.value_or(""));
    }
  if (!errors.empty())
    std::printf("Error %s partition(s):\n%s\n", what, joined(errors, "\n").c_str());
  return static_cast<int>(errors.size());
}

int execute(const tools::args& a, const std::string& broker, int timeout) {
  auto targets = reassignment_file(a);
  std::map<int32_t, std::string> addresses;
  auto now = current_assignment(broker, topics_of(targets), timeout, &addresses);
  auto current = current_of(now, targets);
  std::printf("Current partition replica assignment\n\n%s\n\nSave this to use as the --reassignment-json-file option "
              "during rollback\n",
              cluster::reassignment_json(current).c_str());
  if (a.has("throttle"))
    tools::set_throttles(broker, addresses, current, targets, a.integer("throttle", 0, 1, INT64_MAX), timeout);
  auto resp = alter(broker, targets, false, timeout);
  std::vector<std::string> started;
  auto failed = report_failures(resp, "reassigning", started);
  if (!started.empty())
    std::printf("Successfully started partition reassignment%s for %s\n", started.size() == 1 ? "" : "s",
                joined(started).c_str());
  return failed == 0 ? 0 : 1;
}

int verify(const tools::args& a, const std::string& broker, int timeout) {
  auto targets = reassignment_file(a);
  auto moving = in_progress(broker, timeout);
  std::map<int32_t, std::string> addresses;
  auto now = current_assignment(broker, topics_of(targets), timeout, &addresses);
  std::printf("Status of partition reassignment:\n");
  bool all_done = true;
  for (auto& t : targets) {
    auto name = partition_name(t.topic, t.partition);
    auto current = current_of(now, {t}).front().replicas;
    if (moving.count({t.topic, t.partition}) > 0)
      std::printf("Reassignment of partition %s is still in progress.\n", name.c_str());
    else if (current == t.replicas)
      std::printf("Reassignment of partition %s is complete.\n", name.c_str());
    else
      std::printf("There is no active reassignment of partition %s, but replica set is %s rather than %s.\n",
                  name.c_str(), ids(current).c_str(), ids(t.replicas).c_str());
    // Kafka's rule: the throttle stays until every partition has its target replicas.
    all_done = all_done && moving.count({t.topic, t.partition}) == 0 && current == t.replicas;
  }
  if (all_done && !a.has("preserve-throttles"))
    tools::clear_throttles(broker, addresses, topics_of(targets), timeout);
  return 0;
}

int cancel(const tools::args& a, const std::string& broker, int timeout) {
  auto targets = reassignment_file(a);
  auto resp = alter(broker, targets, true, timeout);
  std::vector<std::string> cancelled, idle;
  auto failed = report_failures(resp, "cancelling", cancelled, &idle);
  if (!cancelled.empty())
    std::printf("Successfully cancelled partition reassignment%s for: %s\n", cancelled.size() == 1 ? "" : "s",
                joined(cancelled).c_str());
  else if (failed == 0)
    std::printf("None of the specified partition reassignments are active.\n");
  return failed == 0 ? 0 : 1;
}

int run_tool(const tools::args& a) {
  std::vector<std::string> actions;
  for (auto name : {"generate", "execute", "verify", "cancel"})
    if (a.has(name))
      actions.push_back(name);
  if (actions.size() != 1)
    throw tools::usage_error("exactly one of --generate, --execute, --verify, --cancel is required");
  if (a.has("command-config"))
    throw tools::usage_error("--command-config is not supported: cafka's tools have no client security settings yet");
  if (a.has("throttle") && !a.has("execute"))
    throw tools::usage_error("--throttle goes with --execute");
  auto broker = a.value_or("bootstrap-server", "127.0.0.1:9092");
  tools::check_bootstrap(broker);
  auto timeout = static_cast<int>(a.integer("request-timeout-ms", 60000, 1, 2147483647));
  auto& action = actions.front();
  if (action == "generate")
    return generate(a, broker, timeout);
  if (action == "execute")
    return execute(a, broker, timeout);
  if (action == "verify")
    return verify(a, broker, timeout);
  return cancel(a, broker, timeout);
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--bootstrap-server HOST:PORT (--generate | --execute | --verify | --cancel) [options]", argc,
                    argv, options, run_tool);
}
