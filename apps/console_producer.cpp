// cafka-console-producer: one record per line of stdin into a topic (flags as Kafka's
// kafka-console-producer.sh).
//
//   cafka-console-producer [--bootstrap-server 127.0.0.1:9192] --topic T
//       [--property parse.key=true --property key.separator=:] [--key-separator :]
//       [--producer-property acks=0|1|all ...] [--compression-codec lz4] [--sync]
//
// With parse.key each line is "key<separator>value" (split at the first separator); a
// line without the separator is an error (or, with --property ignore.error=true, a
// record with a null key and the whole line as value). Records are sent asynchronously
// (ordered per partition); at the end of input everything is flushed. Exit codes: 0 all
// records acknowledged, 1 a record failed or the broker could not be reached, 2 a bad
// argument.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "apps/tool_args.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/producer.hpp"

using namespace cafka;
using namespace std::chrono;

namespace {

constexpr const char* tool = "cafka-console-producer";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "the node's caf.port (default 127.0.0.1:9192)"},
  {"topic", "TOPIC", "the topic to produce to (required)"},
  {"property", "KEY=VALUE", "line reader: parse.key=true|false, key.separator=SEP, ignore.error=true|false", true},
  {"key-separator", "SEP", "short for --property parse.key=true --property key.separator=SEP"},
  {"producer-property", "KEY=VALUE",
   "acks, linger.ms, batch.size, compression.type, retries, request.timeout.ms, delivery.timeout.ms, "
   "max.request.size",
   true},
  {"request-required-acks", "ACKS", "acks: 0, 1 or all (default 1)"},
  {"compression-codec", "CODEC", "none or lz4"},
  {"compression", "CODEC", "the same as --compression-codec"},
  {"sync", "", "send each record synchronously (wait for its acknowledgement)"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
};

struct line_reader {
  bool parse_key = false;
  std::string separator = "\t";
  bool ignore_error = false;
};

protocol::compression_codec codec(const std::string& name) {
  if (name == "none")
    return protocol::compression_codec::none;
  if (name == "lz4")
    return protocol::compression_codec::lz4;
  throw tools::usage_error("unsupported compression codec '" + name + "' (none or lz4)");
}

int16_t acks(const std::string& text) {
  if (text == "all" || text == "-1")
    return -1;
  return static_cast<int16_t>(tools::parse_integer(text, "acks", 0, 1));
}

void apply(client::producer_config& cfg, const std::string& key, const std::string& value) {
  auto ms = [&] { return milliseconds{tools::parse_integer(value, key, 0, 86'400'000)}; };
  if (key == "acks")
    cfg.acks = acks(value);
  else if (key == "linger.ms")
    cfg.linger = ms();
  else if (key == "batch.size")
    cfg.batch_size = static_cast<size_t>(tools::parse_integer(value, key, 1, 1 << 30));
  else if (key == "compression.type")
    cfg.compression = codec(value);
  else if (key == "retries")
    cfg.retries = static_cast<int>(tools::parse_integer(value, key, 0, 1'000'000));
  else if (key == "request.timeout.ms")
    cfg.request_timeout = ms();
  else if (key == "delivery.timeout.ms")
    cfg.delivery_timeout = ms();
  else if (key == "max.request.size")
    cfg.max_request_size = static_cast<size_t>(tools::parse_integer(value, key, 1, 1 << 30));
  else if (key != "bootstrap.servers")
    throw tools::usage_error("unsupported producer property '" + key + "'");
}

// What the send callbacks (on the producer actor's thread) report.
struct outcome {
  std::mutex mtx;
  size_t failed = 0;
  caf::error first_error;

  void note(const caf::expected<client::record_metadata>& res) {
    if (res)
      return;
    std::lock_guard<std::mutex> guard{mtx};
    if (failed++ == 0)
      first_error = res.error();
  }
};

int run_tool(const tools::args& a) {
  auto topic = a.value_or("topic", "");
  if (topic.empty())
    throw tools::usage_error("--topic is required");
  line_reader reader;
  for (auto& [k, v] : tools::key_values(a, "property")) {
    if (k == "parse.key")
      reader.parse_key = tools::parse_bool(v, k);
    else if (k == "key.separator")
      reader.separator = v;
    else if (k == "ignore.error")
      reader.ignore_error = tools::parse_bool(v, k);
    else
      throw tools::usage_error("unsupported property '" + k + "' (parse.key, key.separator, ignore.error)");
  }
  if (a.has("key-separator")) {
    reader.parse_key = true;
    reader.separator = a.value_or("key-separator", "");
  }
  if (reader.parse_key && reader.separator.empty())
    throw tools::usage_error("the key separator must not be empty");
  auto bootstrap = a.value_or("bootstrap-server", tools::default_bootstrap);
  tools::check_bootstrap(bootstrap);
  client::producer_config cfg;
  cfg.bootstrap_servers = bootstrap;
  // Shorter than a library's defaults: a tool at a terminal should not wait minutes.
  cfg.request_timeout = seconds(10);
  cfg.delivery_timeout = seconds(30);
  if (a.has("request-required-acks"))
    cfg.acks = acks(a.value_or("request-required-acks", ""));
  for (auto name : {"compression-codec", "compression"})
    if (a.has(name))
      cfg.compression = codec(a.value_or(name, ""));
  for (auto& [k, v] : tools::key_values(a, "producer-property"))
    apply(cfg, k, v);
  if (auto err = client::validate(cfg, true))
    throw tools::usage_error(describe(err));
  milliseconds connect_timeout{a.integer("connect-timeout-ms", 5000, 1, 3'600'000)};

  caf::actor_system_config sys_cfg;
  client::configure_client(sys_cfg);
  caf::actor_system sys{sys_cfg};
  auto node = client::connect(sys, bootstrap, connect_timeout);
  if (!node)
    tools::fail(tool, "cannot reach broker at " + bootstrap + ": " + describe(node.error()));

  client::producer prod{sys, *node, cfg};
  auto out = std::make_shared<outcome>(); // callbacks may outlive this frame's view of it
  size_t line_number = 0;
  std::string bad_line;
  std::string line;
  while (std::getline(std::cin, line)) {
    ++line_number;
    client::producer_record rec;
    rec.topic = topic;
    rec.value = line;
    if (reader.parse_key) {
      auto pos = line.find(reader.separator);
      if (pos != std::string::npos) {
        rec.key = line.substr(0, pos);
        rec.value = line.substr(pos + reader.separator.size());
      } else if (!reader.ignore_error) {
        bad_line = "no key separator '" + reader.separator + "' on line " + std::to_string(line_number);
        break;
      }
    }
    if (a.has("sync")) {
      auto offset = prod.send_sync(std::move(rec));
      out->note(offset ? caf::expected<client::record_metadata>{client::record_metadata{}} : offset.error());
      if (!offset)
        break;
    } else {
      prod.send(std::move(rec), [out](caf::expected<client::record_metadata> res) { out->note(res); });
    }
  }
  auto flushed = prod.flush();
  prod.close();
  std::lock_guard<std::mutex> guard{out->mtx};
  if (out->failed > 0)
    tools::fail(tool, std::to_string(out->failed) + " record(s) failed: " + describe(out->first_error));
  if (flushed)
    tools::fail(tool, "flush: " + describe(flushed));
  if (!bad_line.empty())
    tools::fail(tool, bad_line);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--topic TOPIC [options] < lines", argc, argv, options, run_tool);
}
