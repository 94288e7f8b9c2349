// cafka-console-producer: one record per line of stdin into a topic (flags as Kafka's
// kafka-console-producer.sh), over the broker's Kafka listener through librdkafka's producer.
//
//   cafka-console-producer [--bootstrap-server 127.0.0.1:9092] --topic T
//       [--property parse.key=true --property key.separator=:] [--key-separator :]
//       [--producer-property acks=all ...] [--request-required-acks 1] [--compression-codec lz4]
//       [--sync]
//
// With parse.key each line is "key<separator>value" (split at the first separator); a
// line without the separator is an error (or, with --property ignore.error=true, a
// record with a null key and the whole line as value). Records are sent asynchronously
// (ordered per partition; a key's partition as Kafka's Java producer picks it, murmur2);
// at the end of input
// everything is flushed. --producer-property passes any librdkafka producer property on.
// Exit codes: 0 all records acknowledged, 1 a record failed or the broker could not be
// reached, 2 a bad argument.

#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "apps/rdkafka_handle.hpp"
#include "apps/tool_args.hpp"

using namespace cafka;

namespace {

constexpr const char* tool = "cafka-console-producer";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"topic", "TOPIC", "the topic to produce to (required)"},
  {"property", "KEY=VALUE", "line reader: parse.key=true|false, key.separator=SEP, ignore.error=true|false", true},
  {"key-separator", "SEP", "short for --property parse.key=true --property key.separator=SEP"},
  {"producer-property", "KEY=VALUE", "a librdkafka producer property, e.g. acks=all, linger.ms=5", true},
  {"request-required-acks", "ACKS", "acks: 0, 1 or all (default 1)"},
  {"compression-codec", "CODEC", "none, gzip, snappy, lz4 or zstd"},
  {"compression", "CODEC", "the same as --compression-codec"},
  {"sync", "", "send each record synchronously (wait for its acknowledgement)"},
  {"connect-timeout-ms", "MS", "give up reaching the broker after this long (default 5000)"},
};

struct line_reader {
  bool parse_key = false;
  std::string separator = "\t";
  bool ignore_error = false;
};

// What the delivery reports (served by rd_kafka_poll on this thread) tell.
struct outcome {
  size_t failed = 0;
  size_t pending = 0;
  std::string first_error;
};

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  auto* out = static_cast<outcome*>(opaque);
  --out->pending;
  if (m->err && out->failed++ == 0)
    out->first_error = tools::error_name(m->err) + ": " + rd_kafka_err2str(m->err);
}

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
  // Shorter than librdkafka's defaults: a tool at a terminal should not wait minutes.
  std::map<std::string, std::string> props{{"bootstrap.servers", bootstrap}, {"client.id", tool},
                                           {"acks", "1"},                     {"request.timeout.ms", "10000"},
                                           {"message.timeout.ms", "30000"},   {"log_level", "0"},
                                           // keys to partitions as Kafka's Java producer (and cafka's client)
                                           {"partitioner", "murmur2_random"}};
  if (a.has("request-required-acks"))
    props["acks"] = a.value_or("request-required-acks", "");
  for (auto name : {"compression-codec", "compression"})
    if (a.has(name))
      props["compression.type"] = a.value_or(name, "");
  for (auto& [k, v] : tools::key_values(a, "producer-property"))
    props[k] = v;
  if (auto& acks = props["acks"]; acks != "0" && acks != "1" && acks != "-1" && acks != "all")
    throw tools::usage_error("acks must be 0, 1, -1 or all, not '" + acks + "'");
  auto connect_timeout = static_cast<int>(a.integer("connect-timeout-ms", 5000, 1, 3'600'000));

  outcome out;
  auto rk = tools::make_rdkafka(RD_KAFKA_PRODUCER, props, [&](rd_kafka_conf_t* conf) {
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_conf_set_opaque(conf, &out);
  });
  if (auto why = tools::unreachable(rk.get(), connect_timeout))
    tools::fail(tool, "cannot reach broker at " + bootstrap + ": " + why->what());

  size_t line_number = 0;
  std::string bad_line;
  std::string line;
  while (std::getline(std::cin, line)) {
    ++line_number;
    const char* key = nullptr;
    size_t key_size = 0;
    std::string value = line;
    if (reader.parse_key) {
      auto pos = line.find(reader.separator);
      if (pos != std::string::npos) {
        key = line.data();
        key_size = pos;
        value = line.substr(pos + reader.separator.size());
      } else if (!reader.ignore_error) {
        bad_line = "no key separator '" + reader.separator + "' on line " + std::to_string(line_number);
        break;
      }
    }
    for (;;) {
      auto err = rd_kafka_producev(rk.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
                                   RD_KAFKA_V_KEY(const_cast<char*>(key), key_size),
                                   RD_KAFKA_V_VALUE(value.data(), value.size()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                   RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        rd_kafka_poll(rk.get(), 100);
        continue;
      }
      if (err)
        tools::fail(tool, "cannot send line " + std::to_string(line_number) + ": " + tools::error_name(err) + ": "
                            + rd_kafka_err2str(err));
      ++out.pending;
      break;
    }
    if (a.has("sync")) {
      while (out.pending > 0)
        rd_kafka_poll(rk.get(), 100);
      if (out.failed > 0)
        break;
    } else {
      rd_kafka_poll(rk.get(), 0);
    }
  }
  auto flushed = rd_kafka_flush(rk.get(), 60'000);
  rd_kafka_poll(rk.get(), 0);
  if (out.failed > 0)
    tools::fail(tool, std::to_string(out.failed) + " record(s) failed: " + out.first_error);
  if (flushed)
    tools::fail(tool, "flush: " + tools::error_name(flushed));
  if (!bad_line.empty())
    tools::fail(tool, bad_line);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--topic TOPIC [options] < lines", argc, argv, options, run_tool);
}
