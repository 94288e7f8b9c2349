// cafka-console-consumer: prints the records of a topic, one line each (flags as Kafka's
// kafka-console-consumer.sh).
//
//   cafka-console-consumer [--bootstrap-server 127.0.0.1:9192] --topic T
//       [--from-beginning | --offset N|earliest|latest --partition P] [--partition P]
//       [--max-messages N] [--timeout-ms MS]
//       [--property print.key=true --property print.offset=true ...] [--print-key] [--print-offset]
//
// Without --partition every partition of the topic is read (one subscription each, all
// delivering to one printing actor). A line is the value, prefixed when asked by
// "Partition:P", "Offset:N" and the key, separated by key.separator (a tab by default);
// a null key or value prints as "null". The consumer stops after --max-messages, when
// no record arrived for --timeout-ms, or on SIGINT/SIGTERM, and prints "Processed a
// total of N messages" on stderr. Exit codes: 0 done, 1 the broker could not be
// reached or a subscription failed, 2 a bad argument.

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "apps/tool_args.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/consumer_records.hpp"
#include "client/subscription.hpp"

using namespace cafka;
using namespace std::chrono;

namespace {

constexpr const char* tool = "cafka-console-consumer";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "the node's caf.port (default 127.0.0.1:9192)"},
  {"topic", "TOPIC", "the topic to read (required)"},
  {"from-beginning", "", "start at the earliest offset instead of the latest"},
  {"partition", "P", "read only this partition (default: all)"},
  {"offset", "OFFSET", "start offset in --partition: a number, earliest or latest (default latest)"},
  {"max-messages", "N", "exit after N records"},
  {"timeout-ms", "MS", "exit when no record arrived for this long"},
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

// Shared by the printing actor and the main thread.
struct progress {
  std::mutex mtx;
  int64_t max_messages = -1; ///< -1: no limit
  int64_t processed = 0;
  steady_clock::time_point last_record = steady_clock::now();
  bool done = false;
  std::string error; ///< set on a failure
};

void append(std::string& out, int32_t partition, const protocol::decoded_record& r, const format& fmt) {
  auto field = [&](const std::string& text, bool more) {
    out += text;
    out += more ? fmt.separator : fmt.line_end;
  };
  if (fmt.timestamp)
    field("Timestamp:" + std::to_string(r.timestamp), fmt.partition || fmt.offset || fmt.key || fmt.value);
  if (fmt.partition)
    field("Partition:" + std::to_string(partition), fmt.offset || fmt.key || fmt.value);
  if (fmt.offset)
    field("Offset:" + std::to_string(r.offset), fmt.key || fmt.value);
  if (fmt.key)
    field(r.key.value_or("null"), fmt.value);
  if (fmt.value)
    field(r.value.value_or("null"), false);
  if (!fmt.value && !fmt.key && !fmt.offset && !fmt.partition && !fmt.timestamp)
    out += fmt.line_end;
}

// The consumer actor: prints each delivered batch (all subscriptions deliver here, one
// batch at a time, so lines never interleave).
caf::behavior printer(caf::event_based_actor*, std::shared_ptr<progress> st, format fmt) {
  return {
    [=](client::consumer_records& recs) {
      std::string out;
      std::lock_guard<std::mutex> guard{st->mtx};
      if (st->done)
        return;
      auto rs = client::decode_records(recs);
      if (!rs) {
        st->error = "partition " + std::to_string(recs.tp.partition) + ": " + describe(rs.error());
        st->done = true;
        return;
      }
      for (auto& r : *rs) {
        append(out, recs.tp.partition, r, fmt);
        if (++st->processed == st->max_messages) {
          st->done = true;
          break;
        }
      }
      if (!rs->empty())
        st->last_record = steady_clock::now();
      std::fwrite(out.data(), 1, out.size(), stdout);
      std::fflush(stdout);
    },
    [=](client::consumer_error& e) {
      std::lock_guard<std::mutex> guard{st->mtx};
      if (!st->done)
        st->error = "partition " + std::to_string(e.tp.partition) + ": " + describe(e.error);
      st->done = true;
    },
  };
}

// The topic's partitions, BLOCKING for at most `timeout`.
caf::expected<std::vector<int32_t>> partitions_of(caf::actor_system& sys, const node_actor& node,
                                                  const std::string& topic, milliseconds timeout) {
  caf::expected<std::vector<int32_t>> out{std::vector<int32_t>{}};
  metadata_request req;
  req.topics = {topic};
  caf::scoped_actor self{sys};
  self->request(node, timeout, metadata_atom_v, req)
    .receive(
      [&](cluster_metadata& md) {
        for (auto& t : md.topics) {
          if (t.name != topic)
            continue;
          if (t.error != 0) {
            auto code = t.error < 0 ? kafka_error::unknown_server_error : static_cast<kafka_error>(t.error);
            out = caf::make_error(code, "topic '" + topic + "'");
            return;
          }
          for (auto& p : t.partitions)
            out->push_back(p.partition);
        }
        std::sort(out->begin(), out->end());
      },
      [&](caf::error& e) { out = std::move(e); });
  return out;
}

int run_tool(const tools::args& a) {
  auto topic = a.value_or("topic", "");
  if (topic.empty())
    throw tools::usage_error("--topic is required");
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
  if (a.has("offset") && !a.has("partition"))
    throw tools::usage_error("--offset needs --partition");
  if (a.has("offset") && a.has("from-beginning"))
    throw tools::usage_error("--offset and --from-beginning cannot be used together");
  auto start = a.has("from-beginning") ? client::start_position::earliest() : client::start_position::latest();
  auto offset_text = a.value_or("offset", "latest");
  if (offset_text == "earliest")
    start = client::start_position::earliest();
  else if (offset_text != "latest")
    start = client::start_position::at_offset(
      tools::parse_integer(offset_text, "--offset", 0, std::numeric_limits<int64_t>::max()));
  auto only_partition = a.integer("partition", -1, 0, std::numeric_limits<int32_t>::max());
  auto max_messages = a.integer("max-messages", -1, 1, std::numeric_limits<int64_t>::max());
  auto idle_limit = a.integer("timeout-ms", -1, 0, std::numeric_limits<int32_t>::max());
  auto bootstrap = a.value_or("bootstrap-server", tools::default_bootstrap);
  tools::check_bootstrap(bootstrap);
  milliseconds connect_timeout{a.integer("connect-timeout-ms", 5000, 1, 3'600'000)};

  // SIGINT/SIGTERM end the consumer in order: only the main thread takes them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  caf::actor_system_config cfg;
  client::configure_client(cfg);
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, bootstrap, connect_timeout);
  if (!node)
    tools::fail(tool, "cannot reach broker at " + bootstrap + ": " + describe(node.error()));
  auto partitions = partitions_of(sys, *node, topic, seconds(30));
  if (!partitions)
    tools::fail(tool, "cannot read topic '" + topic + "': " + describe(partitions.error()));
  if (only_partition >= 0) {
    if (std::find(partitions->begin(), partitions->end(), only_partition) == partitions->end())
      tools::fail(tool, "topic '" + topic + "' has no partition " + std::to_string(only_partition));
    *partitions = {static_cast<int32_t>(only_partition)};
  }

  auto st = std::make_shared<progress>();
  st->max_messages = max_messages;
  auto consumer = sys.spawn(printer, st, fmt);
  client::fetch_options opts;
  opts.bootstrap = bootstrap;
  if (start.what == client::start_position::kind::earliest)
    opts.auto_offset_reset = client::offset_reset::earliest;
  else if (start.what == client::start_position::kind::latest)
    opts.auto_offset_reset = client::offset_reset::latest;
  for (auto p : *partitions)
    client::subscribe(sys, *node, consumer, topic_partition{topic, p}, start, opts);

  for (;;) {
    {
      std::lock_guard<std::mutex> guard{st->mtx};
      if (st->done)
        break;
      if (idle_limit >= 0 && steady_clock::now() - st->last_record >= milliseconds{idle_limit}) {
        st->done = true;
        break;
      }
    }
    timespec tick{0, 50'000'000};
    if (sigtimedwait(&stop_signals, nullptr, &tick) > 0) {
      std::lock_guard<std::mutex> guard{st->mtx};
      st->done = true;
      break;
    }
  }
  // Stopping the consumer stops its subscriptions (they monitor it).
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  std::lock_guard<std::mutex> guard{st->mtx};
  std::fflush(stdout);
  std::fprintf(stderr, "Processed a total of %" PRId64 " messages\n", st->processed);
  if (!st->error.empty())
    tools::fail(tool, st->error);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--topic TOPIC [options]", argc, argv, options, run_tool);
}
