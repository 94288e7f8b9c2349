// cafka-leader-election: Kafka's kafka-leader-election.sh over the Kafka protocol
// (ElectLeaders on a broker's Kafka listener; the controller elects).
//
//   cafka-leader-election --bootstrap-server 127.0.0.1:9092 --election-type preferred --all-topic-partitions
//   cafka-leader-election --bootstrap-server 127.0.0.1:9092 --election-type unclean --topic T --partition 0
//
// Output as Kafka's tool: "Successfully completed leader election (PREFERRED) for partitions
// T-0, ...", "Valid replica already elected for partitions ...", and one "Error completing
// leader election (...) for partition: T-P: ..." line per failure (exit status 1 then).
// Kafka's --path-to-json-file is not offered.
#include <cstdio>
#include <string>

#include "apps/kafka_call.hpp"
#include "apps/tool_args.hpp"
#include "protocol/kafka_error.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/elect_leaders.hpp"

namespace {

using namespace cafka;
namespace wire = cafka::wire;

constexpr const char* tool = "cafka-leader-election";
constexpr int16_t version = 1; // the first with election_type

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"election-type", "TYPE", "preferred (the first replica, if in sync) or unclean (any live replica)"},
  {"topic", "NAME", "the topic of the partition to elect a leader for"},
  {"partition", "N", "the partition (with --topic)"},
  {"all-topic-partitions", "", "every partition of the cluster"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 60000)"},
};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

int elect(const tools::args& a) {
  auto broker = a.value_or("bootstrap-server", "127.0.0.1:9092");
  tools::check_bootstrap(broker);
  auto type_name = a.value_or("election-type", "");
  if (type_name != "preferred" && type_name != "unclean")
    throw tools::usage_error("--election-type must be preferred or unclean");
  wire::elect_leaders_request req;
  req.election_type = type_name == "unclean" ? 1 : 0;
  if (a.has("all-topic-partitions") == a.has("topic"))
    throw tools::usage_error("give either --all-topic-partitions or --topic with --partition");
  if (a.has("topic")) {
    if (!a.has("partition"))
      throw tools::usage_error("--topic needs --partition");
    auto p = static_cast<int32_t>(a.integer("partition", 0, 0, 2147483647));
    req.topic_partitions = std::vector<wire::election_topic>{{a.value_or("topic", ""), {p}}};
  }
  auto timeout = static_cast<int>(a.integer("request-timeout-ms", 60000, 1, 2147483647));
  req.timeout_ms = timeout;
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_elect_leaders_request(req, version, w);
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::elect_leaders), version, body, timeout);
  auto resp = wire::decode_elect_leaders_response({answer.data(), answer.size()}, version);
  if (!resp)
    tools::fail(tool, broker + " sent a malformed ElectLeaders response");
  if (resp->error_code != 0)
    tools::fail(tool, std::string{"error "} + protocol::to_string(static_cast<protocol::kafka_error>(resp->error_code)));
  auto label = req.election_type == 1 ? "UNCLEAN" : "PREFERRED";
  std::vector<std::string> elected, already;
  int failures = 0;
  for (auto& t : resp->results)
    for (auto& p : t.partitions) {
      auto name = t.topic + "-" + std::to_string(p.partition_id);
      if (p.error_code == 0)
        elected.push_back(name);
      else if (p.error_code == protocol::wire_code(protocol::kafka_error::election_not_needed))
        already.push_back(name);
      else {
        ++failures;
        std::printf("Error completing leader election (%s) for partition: %s: %s: %s\n", label, name.c_str(),
                    protocol::to_string(static_cast<protocol::kafka_error>(p.error_code)),
                    p.error_message.value_or("").c_str());
      }
    }
  if (!elected.empty())
    std::printf("Successfully completed leader election (%s) for partitions %s\n", label, joined(elected).c_str());
  if (!already.empty())
    std::printf("Valid replica already elected for partitions %s\n", joined(already).c_str());
  if (failures > 0)
    tools::fail(tool, std::to_string(failures) + " replica(s) could not be elected");
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool,
                    "--bootstrap-server HOST:PORT --election-type preferred|unclean "
                    "(--all-topic-partitions | --topic T --partition P)",
                    argc, argv, options, elect);
}
