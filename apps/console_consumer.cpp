// cafka-console-consumer: prints the records of a topic, one line each (flags as Kafka's
// kafka-console-consumer.sh), over the broker's Kafka listener through librdkafka's consumer.
//
//   cafka-console-consumer [--bootstrap-server 127.0.0.1:9092] --topic T
//       [--group G | --partition P [--offset N|earliest|latest]] [--from-beginning]
//       [--max-messages N] [--timeout-ms MS] [--consumer-property k=v ...]
//       [--property print.key=true --property print.offset=true ...] [--print-key] [--print-offset]
//
// With --group the consumer joins that consumer group (partitions shared with its other
// members, offsets committed as it goes; --from-beginning: where the group has no offset,
// start at the earliest). Without it every partition of the topic (or --partition's) is
// read from the latest offset (--from-beginning: the earliest; --offset: that one), and
// nothing is committed. A line is the value, prefixed when asked by "Timestamp:T",
// "Partition:P", "Offset:N" and the key, separated by key.separator (a tab by default); a
// null key or value prints as "null". The consumer stops after --max-messages, when no
// record arrived for --timeout-ms, or on SIGINT/SIGTERM, and prints "Processed a total of N
// messages" on stderr. Exit codes: 0 done, 1 the broker could not be reached or the topic
// cannot be read, 2 a bad argument.

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apps/kafka_admin.hpp"
#include "apps/rdkafka_handle.hpp"
#include "apps/tool_args.hpp"

using namespace cafka;
using namespace std::chrono;

namespace {

constexpr const char* tool = "cafka-console-consumer";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"topic", "TOPIC", "the topic to read (required)"},
  {"group", "GROUP", "consume as a member of this consumer group (committing offsets)"},
  {"from-beginning", "", "start at the earliest offset instead of the latest"},
  {"partition", "P", "read only this partition (default: all)"},
  {"offset", "OFFSET", "start offset in --partition: a number, earliest or latest (default latest)"},
  {"max-messages", "N", "exit after N records"},
  {"timeout-ms", "MS", "exit when no record arrived for this long"},
  {"consumer-property", "KEY=VALUE", "a librdkafka consumer property, e.g. isolation.level=read_committed", true},
  {"property", "KEY=VALUE",
   "print.key, print.offset, print.partition, print.timestamp, print.value (true|false), key.separator, "
   "line.separator",
   true},
  {"print-key", "", "short for --property print.key=true"},
  {"print-offset", "", "short for --property print.offset=true"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
};

struct format {
  bool key = false, offset = false, partition = false, timestamp = false, value = true;
  std::string separator = "\t";
  std::string line_end = "\n";
};

std::string text_of(const void* data, size_t size) {
  return data ? std::string(static_cast<const char*>(data), size) : std::string{"null"};
}

void append(std::string& out, const rd_kafka_message_t& m, const format& fmt) {
  auto field = [&](const std::string& text, bool more) {
    out += text;
    out += more ? fmt.separator : fmt.line_end;
  };
  if (fmt.timestamp)
    field("Timestamp:" + std::to_string(rd_kafka_message_timestamp(&m, nullptr)),
          fmt.partition || fmt.offset || fmt.key || fmt.value);
  if (fmt.partition)
    field("Partition:" + std::to_string(m.partition), fmt.offset || fmt.key || fmt.value);
  if (fmt.offset)
    field("Offset:" + std::to_string(m.offset), fmt.key || fmt.value);
  if (fmt.key)
    field(text_of(m.key, m.key_len), fmt.value);
  if (fmt.value)
    field(text_of(m.payload, m.len), false);
  if (!fmt.value && !fmt.key && !fmt.offset && !fmt.partition && !fmt.timestamp)
    out += fmt.line_end;
}

format format_of(const tools::args& a) {
  format fmt;
  for (auto& [k, v] : tools::key_values(a, "property")) {
    if (k == "print.key")
      fmt.key = tools::parse_bool(v, k);
    else if (k == "print.offset")
      fmt.offset = tools::parse_bool(v, k);
    else if (k == "print.partition")
      fmt.partition = tools::parse_bool(v, k);
    else if (k == "print.timestamp")
      fmt.timestamp = tools::parse_bool(v, k);
    else if (k == "print.value")
      fmt.value = tools::parse_bool(v, k);
    else if (k == "key.separator")
      fmt.separator = v;
    else if (k == "line.separator")
      fmt.line_end = v;
    else
      throw tools::usage_error("unsupported property '" + k + "'");
  }
  fmt.key |= a.has("print-key");
  fmt.offset |= a.has("print-offset");
  return fmt;
}

// The topic's partitions (through the admin handle); ends the tool if it cannot be read.
std::vector<int32_t> partitions_of(const std::string& bootstrap, const std::string& topic, int connect_timeout) {
  auto admin = tools::reach_admin(tool, bootstrap, connect_timeout, 30000);
  try {
    for (auto& t : admin->metadata().topics) {
      if (t.name != topic)
        continue;
      if (!t.error.empty())
        tools::fail(tool, "cannot read topic '" + topic + "': " + t.error);
      std::vector<int32_t> out;
      for (auto& p : t.partitions)
        out.push_back(p.id);
      return out;
    }
  } catch (const tools::kafka_failure& f) {
    tools::fail(tool, "cannot read topic '" + topic + "': " + f.what());
  }
  tools::fail(tool, "cannot read topic '" + topic + "': UNKNOWN_TOPIC_OR_PARTITION");
}

int run_tool(const tools::args& a) {
  auto topic = a.value_or("topic", "");
  if (topic.empty())
    throw tools::usage_error("--topic is required");
  auto fmt = format_of(a);
  if (a.has("offset") && !a.has("partition"))
    throw tools::usage_error("--offset needs --partition");
  if (a.has("offset") && a.has("from-beginning"))
    throw tools::usage_error("--offset and --from-beginning cannot be used together");
  if (a.has("group") && a.has("partition"))
    throw tools::usage_error("--group and --partition cannot be used together");
  int64_t start = a.has("from-beginning") ? RD_KAFKA_OFFSET_BEGINNING : RD_KAFKA_OFFSET_END;
  auto offset_text = a.value_or("offset", "latest");
  if (offset_text == "earliest")
    start = RD_KAFKA_OFFSET_BEGINNING;
  else if (offset_text != "latest")
    start = tools::parse_integer(offset_text, "--offset", 0, std::numeric_limits<int64_t>::max());
  auto only_partition = a.integer("partition", -1, 0, std::numeric_limits<int32_t>::max());
  auto max_messages = a.integer("max-messages", -1, 1, std::numeric_limits<int64_t>::max());
  auto idle_limit = a.integer("timeout-ms", -1, 0, std::numeric_limits<int32_t>::max());
  auto bootstrap = a.value_or("bootstrap-server", tools::default_bootstrap);
  tools::check_bootstrap(bootstrap);
  auto connect_timeout = static_cast<int>(a.integer("connect-timeout-ms", 5000, 1, 3'600'000));
  auto group = a.value_or("group", "");
  std::map<std::string, std::string> props{{"bootstrap.servers", bootstrap}, {"client.id", tool},
                                           {"log_level", "0"}};
  if (group.empty()) {
    props["enable.auto.commit"] = "false";
    props["group.id"] = "cafka-console-consumer"; // librdkafka wants one; nothing joins or commits
  } else {
    props["group.id"] = group;
    props["auto.offset.reset"] = a.has("from-beginning") ? "earliest" : "latest";
  }
  for (auto& [k, v] : tools::key_values(a, "consumer-property"))
    props[k] = v;

  // SIGINT/SIGTERM end the consumer in order: the main thread looks for them between polls.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto partitions = partitions_of(bootstrap, topic, connect_timeout);
  if (only_partition >= 0) {
    if (std::find(partitions.begin(), partitions.end(), only_partition) == partitions.end())
      tools::fail(tool, "topic '" + topic + "' has no partition " + std::to_string(only_partition));
    partitions = {static_cast<int32_t>(only_partition)};
  }
  auto rk = tools::make_rdkafka(RD_KAFKA_CONSUMER, props);
  rd_kafka_poll_set_consumer(rk.get());
  auto* list = rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size()));
  rd_kafka_resp_err_t err;
  if (group.empty()) {
    for (auto p : partitions)
      rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = start;
    err = rd_kafka_assign(rk.get(), list);
  } else {
    rd_kafka_topic_partition_list_add(list, topic.c_str(), RD_KAFKA_PARTITION_UA);
    err = rd_kafka_subscribe(rk.get(), list);
  }
  rd_kafka_topic_partition_list_destroy(list);
  if (err)
    tools::fail(tool, "cannot read topic '" + topic + "': " + tools::error_name(err));

  int64_t processed = 0;
  auto last_record = steady_clock::now();
  std::string error;
  while (max_messages < 0 || processed < max_messages) {
    if (idle_limit >= 0 && steady_clock::now() - last_record >= milliseconds{idle_limit})
      break;
    timespec no_wait{0, 0};
    if (sigtimedwait(&stop_signals, nullptr, &no_wait) > 0)
      break;
    auto* m = rd_kafka_consumer_poll(rk.get(), 50);
    if (!m)
      continue;
    if (m->err) {
      // Transient trouble (a broker restarting) is librdkafka's to retry; a topic that
      // went away or a fatal error ends the tool.
      auto code = m->err;
      if (code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || code == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC
          || code == RD_KAFKA_RESP_ERR__FATAL)
        error = "partition " + std::to_string(m->partition) + ": " + tools::error_name(code) + ": "
                + rd_kafka_message_errstr(m);
      rd_kafka_message_destroy(m);
      if (!error.empty())
        break;
      continue;
    }
    std::string out;
    append(out, *m, fmt);
    rd_kafka_message_destroy(m);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    ++processed;
    last_record = steady_clock::now();
  }
  rd_kafka_consumer_close(rk.get()); // a group member leaves the group, committing first
  std::fflush(stdout);
  std::fprintf(stderr, "Processed a total of %" PRId64 " messages\n", processed);
  if (!error.empty())
    tools::fail(tool, error);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--topic TOPIC [options]", argc, argv, options, run_tool);
}
