// cafka-perf: throughput and latency of any Kafka-protocol broker, measured with
// librdkafka, like Kafka's producer/consumer perf tests.
//
//   cafka-perf --bootstrap-server HOST:PORT [--phases produce,consume,latency] ...
//   cafka-perf --mock ...                    librdkafka's in-process mock broker
//   cafka-perf --mock-ceiling --bootstrap-server HOST:PORT ...
//        produce and consume against the mock broker first (what the client itself
//        can do on this machine), then against HOST:PORT, and the ratio of the two.
//
// One line of figures per phase (see apps/perf_phases.hpp), then the peak RSS of this
// process (with --mock it includes the mock broker, which keeps its log in memory).
// Exit codes: 0 done, 1 a broker failed or records went missing, 2 a bad argument.

#include <cstdio>
#include <optional>
#include <sstream>

#include <sys/resource.h>

#include "apps/perf_phases.hpp"
#include "apps/tool_args.hpp"

using namespace cafka;
using namespace cafka::perf;

namespace {

constexpr const char* tool = "cafka-perf";
constexpr const char* synopsis
  = "(--bootstrap-server HOST:PORT | --mock | --mock-ceiling --bootstrap-server HOST:PORT) [options]";
constexpr const char* mock_label = "librdkafka mock broker (client ceiling)";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "the broker's Kafka listener"},
  {"mock", "", "measure librdkafka's in-process mock broker instead"},
  {"mock-ceiling", "", "produce/consume against the mock broker, then --bootstrap-server, and the ratio"},
  {"phases", "LIST", "comma-separated: produce, consume, latency (default all three)"},
  {"topic", "TOPIC", "the topic, created if missing (default cafka-perf)"},
  {"partitions", "N", "partitions of the topic when it is created (default 1)"},
  {"replication-factor", "N", "replicas of the topic when it is created (default 1)"},
  {"topic-config", "KEY=VALUE", "a config of the topic when it is created, e.g. min.insync.replicas=2", true},
  {"records", "N", "records to produce and consume (default 2000000)"},
  {"record-size", "BYTES", "bytes per record (default 100)"},
  {"acks", "ACKS", "0, 1, -1 or all (default 1)"},
  {"compression", "CODEC", "none, gzip, snappy, lz4 or zstd (default none)"},
  {"linger-ms", "MS", "producer linger.ms of the produce phase (default 5)"},
  {"transaction-records", "N", "produce in transactions of N records each (transactional producer; default 0: none)"},
  {"rate", "N", "latency: records per second (default 20000)"},
  {"seconds", "S", "latency: how long to produce (default 10)"},
  {"fetch-wait-ms", "MS", "latency: consumer fetch.wait.max.ms (default 100)"},
  {"timeout-ms", "MS", "give up on a broker that makes no progress for this long (default 30000)"},
  {"producer-property", "KEY=VALUE", "a librdkafka producer property, overriding the tool's", true},
  {"consumer-property", "KEY=VALUE", "a librdkafka consumer property, overriding the tool's", true},
};

struct phases {
  bool produce = false, consume = false, latency = false;
};

phases parse_phases(const std::string& list) {
  phases out;
  std::istringstream in{list};
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "produce")
      out.produce = true;
    else if (name == "consume")
      out.consume = true;
    else if (name == "latency")
      out.latency = true;
    else
      throw tools::usage_error("unknown phase '" + name + "' in --phases (expected produce, consume, latency)");
  }
  if (!out.produce && !out.consume && !out.latency)
    throw tools::usage_error("--phases names no phase");
  return out;
}

std::string one_of(const tools::args& a, const char* name, std::string fallback, std::vector<std::string> allowed) {
  auto value = a.value_or(name, std::move(fallback));
  for (auto& x : allowed)
    if (value == x)
      return value;
  throw tools::usage_error("invalid value for --" + std::string{name} + ": '" + value + "'");
}

settings parse_settings(const tools::args& a) {
  settings s;
  s.topic = a.value_or("topic", s.topic);
  if (s.topic.empty())
    throw tools::usage_error("--topic is empty");
  s.partitions = static_cast<int>(a.integer("partitions", s.partitions, 1, 100'000));
  s.replication_factor = static_cast<int>(a.integer("replication-factor", s.replication_factor, 1, 1000));
  s.topic_configs = tools::key_values(a, "topic-config");
  s.records = a.integer("records", s.records, 1, 10'000'000'000);
  s.record_size = a.integer("record-size", s.record_size, 1, 10 * 1024 * 1024);
  s.acks = one_of(a, "acks", s.acks, {"0", "1", "-1", "all"});
  s.compression = one_of(a, "compression", s.compression, {"none", "gzip", "snappy", "lz4", "zstd"});
  s.linger_ms = a.integer("linger-ms", s.linger_ms, 0, 900'000);
  s.transaction_records = a.integer("transaction-records", s.transaction_records, 0, 1'000'000'000);
  // Bounds keep rate * seconds * 1e9 (the pacing arithmetic) inside 64 bits.
  s.rate = a.integer("rate", s.rate, 1, 1'000'000);
  s.seconds = a.integer("seconds", s.seconds, 1, 3600);
  s.fetch_wait_ms = a.integer("fetch-wait-ms", s.fetch_wait_ms, 0, 300'000);
  s.timeout = std::chrono::milliseconds{a.integer("timeout-ms", s.timeout.count(), 100, 3'600'000)};
  s.producer_overrides = tools::key_values(a, "producer-property");
  s.consumer_overrides = tools::key_values(a, "consumer-property");
  return s;
}

std::string error_suffix(const std::string& first_error) {
  return first_error.empty() ? "" : " (first error: " + first_error + ")";
}

void print_produce(const throughput& r, const target& t, const settings& s) {
  auto props = producer_properties(t, s); // as used, --producer-property included
  std::printf("produce: %lld records of %lld B in %.3f s: %.0f records/s, %.2f MB/s, %lld delivery errors "
              "(acks=%s, compression=%s, linger.ms=%s)%s\n",
              static_cast<long long>(r.records), static_cast<long long>(s.record_size), r.seconds,
              r.records_per_second(), r.mb_per_second(), static_cast<long long>(r.errors), props["acks"].c_str(),
              props["compression.type"].c_str(), props["linger.ms"].c_str(), error_suffix(r.first_error).c_str());
}

void print_consume(const throughput& r) {
  auto passes = r.passes > 1 ? " (" + std::to_string(r.passes) + " passes over what the mock broker kept)" : "";
  std::printf("consume: %lld records in %.3f s: %.0f records/s, %.2f MB/s, %lld missing%s%s\n",
              static_cast<long long>(r.records), r.seconds, r.records_per_second(), r.mb_per_second(),
              static_cast<long long>(r.errors), passes.c_str(), error_suffix(r.first_error).c_str());
}

void print_latency(const latency& r, const settings& s) {
  std::printf("latency: %lld records at %lld/s in %.1f s, %lld received, %lld errors: p50 %lld us, p99 %lld us, "
              "p99.9 %lld us, max %lld us%s\n",
              static_cast<long long>(r.sent), static_cast<long long>(s.rate), r.seconds,
              static_cast<long long>(r.received), static_cast<long long>(r.errors), static_cast<long long>(r.p50_us),
              static_cast<long long>(r.p99_us), static_cast<long long>(r.p999_us), static_cast<long long>(r.max_us),
              error_suffix(r.first_error).c_str());
}

// The figures of one target; `clean` is false once records failed or went missing.
struct run_result {
  std::optional<throughput> produce, consume;
  bool clean = true;
};

run_result run_target(const target& t, const settings& s, const phases& ph) {
  auto partitions = create_topic(t, s.topic, topic_layout{s.partitions, s.replication_factor, s.topic_configs}, s.timeout);
  std::printf("== %s, %s: topic %s, %zu partition(s) ==\n", t.label.c_str(), t.bootstrap.c_str(), s.topic.c_str(),
              partitions);
  std::fflush(stdout);
  run_result out;
  if (ph.produce) {
    out.produce = run_produce(t, s);
    print_produce(*out.produce, t, s);
    out.clean &= out.produce->errors == 0;
    std::fflush(stdout);
  }
  if (ph.consume) {
    out.consume = run_consume(t, s);
    print_consume(*out.consume);
    out.clean &= out.consume->errors == 0 && out.consume->first_error.empty();
    std::fflush(stdout);
  }
  if (ph.latency) {
    auto r = run_latency(t, s);
    print_latency(r, s);
    if (t.mock)
      std::printf("  (the mock broker answers a fetch with one batch per partition, found by scanning its log, and "
                  "holds an empty fetch for the whole fetch.wait.max.ms: these latencies are the mock's, not the "
                  "client's)\n");
    out.clean &= r.errors == 0 && r.received == r.sent && r.sent > 0;
  }
  return out;
}

void print_ratio(const run_result& broker, const run_result& mock) {
  std::string line;
  auto add = [&](const char* name, const std::optional<throughput>& b, const std::optional<throughput>& m) {
    if (!b || !m || m->records_per_second() <= 0)
      return;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.2fx", line.empty() ? "" : ", ", name,
                  b->records_per_second() / m->records_per_second());
    line += buf;
  };
  add("produce", broker.produce, mock.produce);
  add("consume", broker.consume, mock.consume);
  if (!line.empty())
    std::printf("ratio broker/mock (records/s): %s\n", line.c_str());
}

void print_peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS: %.1f MB\n", static_cast<double>(usage.ru_maxrss) / 1024.0); // ru_maxrss is in KiB
}

int perf_main(const tools::args& a) {
  auto s = parse_settings(a);
  auto ph = parse_phases(a.value_or("phases", "produce,consume,latency"));
  bool mock = a.has("mock");
  bool ceiling = a.has("mock-ceiling");
  bool broker = a.has("bootstrap-server");
  if (mock && (ceiling || broker))
    throw tools::usage_error("--mock excludes --bootstrap-server and --mock-ceiling");
  if (!mock && !broker)
    throw tools::usage_error("give --bootstrap-server HOST:PORT or --mock");
  if (broker)
    tools::check_bootstrap(a.value_or("bootstrap-server", ""));
  // Reject bad --producer-property/--consumer-property now, not after a first run.
  rd_kafka_conf_destroy(make_conf(s.producer_overrides));
  rd_kafka_conf_destroy(make_conf(s.consumer_overrides));
  if (ph.latency && s.record_size < 8)
    throw tools::usage_error("--record-size must be at least 8 for the latency phase (the send time)");

  bool clean = true;
  std::optional<run_result> ceiling_result;
  if (mock || ceiling) {
    mock_cluster cluster; // lives for this run only: it keeps every record in memory
    target t{mock_label, cluster.bootstrap(), &cluster};
    auto mock_phases = ph;
    mock_phases.latency = mock_phases.latency && mock;
    if (mock_phases.produce || mock_phases.consume || mock_phases.latency) {
      ceiling_result = run_target(t, s, mock_phases);
      clean &= ceiling_result->clean;
    }
  }
  if (broker) {
    target t{"broker", a.value_or("bootstrap-server", ""), nullptr};
    auto r = run_target(t, s, ph);
    clean &= r.clean;
    if (ceiling_result)
      print_ratio(r, *ceiling_result);
  }
  print_peak_rss();
  return clean ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  auto code = tools::run(tool, synopsis, argc, argv, options, perf_main);
  if (code == 2) // only a bad command line ends with 2
    std::fprintf(stderr, "usage: %s %s\n", tool, synopsis);
  return code;
}
