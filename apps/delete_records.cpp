// cafka-delete-records: Kafka's kafka-delete-records.sh over the Kafka protocol (DeleteRecords,
// sent by librdkafka's admin API to each partition's leader).
//
//   cafka-delete-records --bootstrap-server 127.0.0.1:9092 --offset-json-file F
//       F: {"partitions":[{"topic":"t","partition":0,"offset":3}],"version":1}
//          (offset -1: every record below the high watermark)
//
// Output as Kafka's tool: "Executing records delete operation", "Records delete operation
// completed:", then "partition: t-0\tlow_watermark: 3" or "partition: t-0\terror: ..." per
// partition. Unlike Kafka's tool the exit status is 1 when a partition failed.
#include <cstdio>
#include <string>

#include "apps/kafka_admin.hpp"
#include "apps/tool_args.hpp"
#include "cluster/reassignment_json.hpp"

using namespace cafka;

namespace {

constexpr const char* tool = "cafka-delete-records";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"offset-json-file", "FILE",
   "{\"partitions\":[{\"topic\":\"t\",\"partition\":0,\"offset\":3}],\"version\":1}: delete below each offset"},
  {"command-config", "FILE", "not supported (no client security settings yet)"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 60000)"},
};

int run_tool(const tools::args& a) {
  auto broker = a.value_or("bootstrap-server", "127.0.0.1:9092");
  tools::check_bootstrap(broker);
  if (a.has("command-config"))
    throw tools::usage_error("--command-config is not supported");
  if (!a.has("offset-json-file"))
    throw tools::usage_error("--offset-json-file is required");
  auto path = a.value_or("offset-json-file", "");
  std::string error;
  auto offsets = cluster::parse_offsets_json(tools::read_file(path), error);
  if (!offsets)
    throw tools::usage_error(path + ": " + error);
  std::vector<std::pair<storage::topic_partition, int64_t>> before;
  for (auto& o : *offsets)
    before.push_back({{o.topic, o.partition}, o.offset});
  auto connect = static_cast<int>(a.integer("connect-timeout-ms", 5000, 1, 2147483647));
  auto timeout = static_cast<int>(a.integer("request-timeout-ms", 60000, 1, 2147483647));
  auto admin = tools::reach_admin(tool, broker, connect, timeout);
  std::printf("Executing records delete operation\n");
  auto results = admin->delete_records(before);
  std::printf("Records delete operation completed:\n");
  int failures = 0;
  for (auto& [tp, r] : results) {
    auto name = tp.topic + "-" + std::to_string(tp.partition);
    if (r.error.empty()) {
      std::printf("partition: %s\tlow_watermark: %lld\n", name.c_str(), static_cast<long long>(r.low_watermark));
    } else {
      std::printf("partition: %s\terror: %s\n", name.c_str(), r.error.c_str());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--offset-json-file FILE [--bootstrap-server HOST:PORT]", argc, argv, options, run_tool);
}
