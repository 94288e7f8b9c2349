// Configs read and changed at run time over the Kafka protocol, against a real cafka-server:
// cafka-configs for topics and brokers (DescribeConfigs, IncrementalAlterConfigs), a topic's
// new segment.bytes taking effect without a restart, bad values refused naming the key, the
// changes surviving kill -9; and kafka-python's KafkaAdminClient (DescribeConfigs v2,
// AlterConfigs v1 replacing the whole set). Bounded waits only; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/byte_reader.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/cluster_fixture.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
using cafka::test::run;
using cafka::test::run_result;

namespace {

const std::string configs_bin = CAFKA_BINARY_DIR "/bin/cafka-configs";

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

run_result configs(const cafka::test::server_process& s, std::vector<std::string> args) {
  args.insert(args.begin(), {configs_bin, "--bootstrap-server", s.bootstrap()});
  return run(args, "", 60s);
}

// One cafka-console-producer run: one batch of ten records of ~110 bytes.
void produce_batch(const cafka::test::server_process& s, const std::string& topic, const std::string& prefix) {
  std::string input;
  for (int i = 0; i < 10; ++i)
    input += prefix + std::string(100, 'x') + std::to_string(i) + "\n";
  auto produced = run({CAFKA_BINARY_DIR "/bin/cafka-console-producer", "--bootstrap-server",
                       "127.0.0.1:" + std::to_string(s.kafka_port()), "--topic", topic},
                      input, 60s);
  BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));
}

size_t segment_files(const std::string& folder) {
  size_t n = 0;
  for (auto& e : std::filesystem::directory_iterator(folder))
    n += e.path().extension() == ".log";
  return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(run_time_configs)

BOOST_AUTO_TEST_CASE(topic_and_broker_configs_change_at_run_time_and_survive_kill_9) {
  cafka::test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  std::optional<cafka::test::server_process> server{std::in_place, logs};
  auto created = run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                      "127.0.0.1:" + std::to_string(server->kafka_port()), "--create", "--topic", "cfg",
                      "--partitions", "1"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto topic = std::vector<std::string>{"--entity-type", "topics", "--entity-name", "cfg"};
  auto with = [](std::vector<std::string> a, std::vector<std::string> b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };

  // Nothing dynamic yet; then two overrides.
  auto none = configs(*server, with(topic, {"--describe"}));
  BOOST_TEST(none.out == "Dynamic configs for topic cfg are:\n", show(none));
  auto altered = configs(*server, with(topic, {"--alter", "--add-config", "segment.bytes=1024,retention.ms=3600000"}));
  BOOST_REQUIRE_MESSAGE(altered.code == 0, show(altered));
  BOOST_TEST(altered.out == "Completed updating config for topic cfg.\n");
  auto described = configs(*server, with(topic, {"--describe"}));
  BOOST_TEST(has(described.out, "  segment.bytes=1024 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:segment.bytes=1024, "
                                "STATIC_BROKER_CONFIG:log.segment.bytes=1073741824, DEFAULT_CONFIG:log.segment.bytes=1073741824}\n"),
             show(described));
  BOOST_TEST(has(described.out, "  retention.ms=3600000 sensitive=false"), show(described));
  auto all = configs(*server, with(topic, {"--describe", "--all"}));
  BOOST_TEST(has(all.out, "All configs for topic cfg are:\n"), show(all));
  BOOST_TEST(has(all.out, "  cleanup.policy=delete sensitive=false synonyms={DEFAULT_CONFIG:log.cleanup.policy=delete}"),
             show(all));

  // The new segment size applies to the running partition: each batch of ~1.1 kB (one
  // producer run each) lands in a segment of its own.
  for (int run_no = 0; run_no < 3; ++run_no)
    produce_batch(*server, "cfg", "value-");
  BOOST_TEST(segment_files(logs + "/cfg-0") >= 3u, "segment.bytes=1024 did not roll the log");

  // Refused values name the key; nothing is stored.
  auto bad = configs(*server, with(topic, {"--alter", "--add-config", "retention.ms=soon"}));
  BOOST_TEST(bad.code == 1, show(bad));
  BOOST_TEST((has(bad.err, "error 40") && has(bad.err, "retention.ms")), show(bad));
  auto unknown_codec = configs(*server, with(topic, {"--alter", "--add-config", "compression.type=brotli"}));
  BOOST_TEST(unknown_codec.code == 1, show(unknown_codec));
  BOOST_TEST(has(unknown_codec.err, "compression.type"), show(unknown_codec));
  auto missing = configs(*server, {"--entity-type", "topics", "--entity-name", "nope", "--describe"});
  BOOST_TEST(missing.code == 1, show(missing));
  BOOST_TEST(has(missing.err, "error 3"), show(missing));

  // Broker configs: the replication quota rates are dynamic, other keys are not.
  auto rate = configs(*server, {"--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
                                "leader.replication.throttled.rate=1048576"});
  BOOST_REQUIRE_MESSAGE(rate.code == 0, show(rate));
  BOOST_TEST(rate.out == "Completed updating config for broker 0.\n");
  auto defaults = configs(*server, {"--entity-type", "brokers", "--entity-default", "--alter", "--add-config",
                                    "follower.replication.throttled.rate=2097152"});
  BOOST_TEST(defaults.out == "Completed updating default config for brokers in the cluster.\n", show(defaults));
  auto static_key = configs(*server, {"--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
                                      "num.partitions=3"});
  BOOST_TEST(static_key.code == 1, show(static_key));
  BOOST_TEST((has(static_key.err, "error 42") && has(static_key.err, "num.partitions")), show(static_key));
  auto other = configs(*server, {"--entity-type", "brokers", "--entity-name", "7", "--describe"});
  BOOST_TEST(other.code == 1, show(other));

  // kill -9, then a new process on the same log dirs: every change is still there.
  server->kill_hard();
  server.emplace(logs);
  auto topic_after = configs(*server, with(topic, {"--describe"}));
  BOOST_TEST(has(topic_after.out, "  segment.bytes=1024 sensitive=false"), show(topic_after));
  BOOST_TEST(has(topic_after.out, "  retention.ms=3600000 sensitive=false"), show(topic_after));
  auto broker_after = configs(*server, {"--entity-type", "brokers", "--entity-name", "0", "--describe"});
  BOOST_TEST(broker_after.out
               == "Dynamic configs for broker 0 are:\n"
                  "  follower.replication.throttled.rate=2097152 sensitive=false "
                  "synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:follower.replication.throttled.rate=2097152, "
                  "DEFAULT_CONFIG:follower.replication.throttled.rate=9223372036854775807}\n"
                  "  leader.replication.throttled.rate=1048576 sensitive=false "
                  "synonyms={DYNAMIC_BROKER_CONFIG:leader.replication.throttled.rate=1048576, "
                  "DEFAULT_CONFIG:leader.replication.throttled.rate=9223372036854775807}\n",
             show(broker_after));
  // --delete-config takes an override away.
  auto deleted = configs(*server, with(topic, {"--alter", "--delete-config", "segment.bytes"}));
  BOOST_TEST(deleted.code == 0, show(deleted));
  auto left = configs(*server, with(topic, {"--describe"}));
  BOOST_TEST(!has(left.out, "segment.bytes"), show(left));

  // A broker default changed at run time applies to the topics without their own override.
  auto before = segment_files(logs + "/cfg-0");
  auto broker_default = configs(*server, {"--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
                                          "log.segment.bytes=1024"});
  BOOST_REQUIRE_MESSAGE(broker_default.code == 0, show(broker_default));
  auto inherited = configs(*server, with(topic, {"--describe", "--all"}));
  BOOST_TEST(has(inherited.out, "  segment.bytes=1024 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.segment.bytes=1024, "
                                "STATIC_BROKER_CONFIG:log.segment.bytes=1073741824"),
             show(inherited));
  for (int run_no = 0; run_no < 2; ++run_no)
    produce_batch(*server, "cfg", "later-");
  BOOST_TEST(segment_files(logs + "/cfg-0") >= before + 2, "the dynamic log.segment.bytes did not roll the log");
  auto too_small = configs(*server, {"--entity-type", "brokers", "--entity-name", "0", "--alter", "--add-config",
                                     "log.segment.bytes=5"});
  BOOST_TEST(too_small.code == 1, show(too_small));
  BOOST_TEST(has(too_small.err, "log.segment.bytes: invalid value '5'"), show(too_small));
}

BOOST_AUTO_TEST_CASE(kafka_pythons_admin_client_describes_and_alters_configs) {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path + "/logs"};
  auto created = run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                      "127.0.0.1:" + std::to_string(server.kafka_port()), "--create", "--topic", "py-cfg",
                      "--partitions", "2", "--config", "segment.bytes=1048576"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto r = run({"/usr/bin/python3", CAFKA_SOURCE_DIR "/tests/integration/kafka_python_configs.py", "--bootstrap",
                server.bootstrap(), "--topic", "py-cfg", "--broker", "0"},
               "", 180s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  // Sources: 1 the topic's override, 4 the properties file, 5 the default.
  BOOST_TEST(has(r.out, "before segment.bytes=1048576 source=1\n"), r.out);
  BOOST_TEST(has(r.out, "before cleanup.policy=delete source=5\n"), r.out);
  BOOST_TEST(has(r.out, "broker leader.replication.throttled.rate=9223372036854775807 source=5\n"), r.out);
  BOOST_TEST(has(r.out, "broker num.partitions="), r.out);
  BOOST_TEST(has(r.out, "alter error=0\n"), r.out);
  // AlterConfigs replaced the whole set: segment.bytes is back to the broker's (server.properties).
  BOOST_TEST(has(r.out, "after retention.ms=7200000 source=1\n"), r.out);
  BOOST_TEST(has(r.out, "after segment.bytes=1073741824 source=4\n"), r.out);
  BOOST_TEST(has(r.out, "bad error=40 message=retention.ms"), r.out);
}

// DescribeLogDirs v1 (no real client of ours sends it: kafka-python 2.0.2 and librdkafka
// 2.0.2 have no call for it) read byte by byte: both log dirs, each partition in one of them
// with its size.
BOOST_AUTO_TEST_CASE(describe_log_dirs_lists_each_partition_in_its_log_dir) {
  cafka::test::scratch_dir dir;
  auto a = dir.path + "/a", b = dir.path + "/b";
  cafka::test::server_process server{a, {"log.dirs=" + a + "," + b}};
  auto created = run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                      "127.0.0.1:" + std::to_string(server.kafka_port()), "--create", "--topic", "dirs", "--partitions",
                      "2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto produced = run({CAFKA_BINARY_DIR "/bin/cafka-console-producer", "--bootstrap-server",
                       "127.0.0.1:" + std::to_string(server.kafka_port()), "--topic", "dirs"},
                      "one\ntwo\nthree\n", 60s);
  BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));
  cafka::test::kafka_socket sock{server.kafka_port()};
  sock.send_frame(cafka::test::request_frame(35, 1, 9, {'\xff', '\xff', '\xff', '\xff'}));
  auto answer = sock.receive_frame();
  BOOST_REQUIRE(answer);
  cafka::protocol::byte_reader r{{answer->data(), answer->size()}};
  BOOST_TEST(r.read_i32() == 9); // correlation id
  r.read_i32();                  // throttle
  std::map<std::string, std::map<int32_t, int64_t>> sizes; // dir -> partition -> bytes
  auto dirs = r.read_i32();
  for (int32_t d = 0; d < dirs && r.ok(); ++d) {
    BOOST_TEST(r.read_i16() == 0);
    auto name_length = r.read_i16();
    std::string root(static_cast<size_t>(std::max<int16_t>(name_length, 0)), ' ');
    for (auto& c : root)
      c = static_cast<char>(r.read_i8());
    auto& in_dir = sizes[root];
    auto topics = r.read_i32();
    for (int32_t t = 0; t < topics && r.ok(); ++t) {
      auto len = r.read_i16();
      for (int16_t k = 0; k < len; ++k)
        r.read_i8();
      auto partitions = r.read_i32();
      for (int32_t p = 0; p < partitions && r.ok(); ++p) {
        auto index = r.read_i32();
        in_dir[index] = r.read_i64();
        BOOST_TEST(r.read_i64() == 0); // offset lag
        BOOST_TEST(r.read_i8() == 0);  // not a future log
      }
    }
  }
  BOOST_REQUIRE(r.ok());
  BOOST_REQUIRE_EQUAL(sizes.size(), 2u);
  BOOST_TEST(sizes.count(a) == 1u);
  BOOST_TEST(sizes.count(b) == 1u);
  int64_t total = 0;
  size_t partitions = 0;
  for (auto& [root, in_dir] : sizes)
    for (auto& [p, bytes] : in_dir) {
      ++partitions;
      total += bytes;
    }
  BOOST_TEST(partitions == 2u);
  BOOST_TEST(total > 0);
}

// compression.type and the timestamp keys act on what real clients produce: librdkafka's
// uncompressed batches are stored in zstd with the broker's append time (read back by kcat, and
// checked in the segment file's first batch header), and kafka-python's record with a
// timestamp two hours old is refused by message.timestamp.before.max.ms.
BOOST_AUTO_TEST_CASE(compression_type_and_timestamp_configs_act_on_what_clients_produce) {
  cafka::test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  cafka::test::server_process server{logs};
  auto create = [&](const std::string& name, std::vector<std::string> configs) {
    std::vector<std::string> args{CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", server.bootstrap(),
                                  "--create", "--topic", name, "--partitions", "1"};
    for (auto& c : configs)
      args.insert(args.end(), {"--config", c});
    auto created = run(args);
    BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  };
  create("zs", {"compression.type=zstd", "message.timestamp.type=LogAppendTime"});
  create("bounded", {"message.timestamp.before.max.ms=3600000"});

  auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch()).count();
  produce_batch(server, "zs", "z-");
  auto read = run({"/usr/bin/kcat", "-b", server.bootstrap(), "-C", "-t", "zs", "-e", "-o", "beginning", "-f",
                   "%T %s\\n"},
                  "", 60s);
  BOOST_REQUIRE_MESSAGE(read.code == 0, show(read));
  auto got = cafka::test::lines(read.out);
  BOOST_REQUIRE_EQUAL(got.size(), 10u);
  for (auto& line : got) {
    BOOST_TEST(std::stoll(line.substr(0, line.find(' '))) >= before, line); // the append time, not the client's
    BOOST_TEST(has(line, " z-"), line);
  }
  std::ifstream segment{logs + "/zs-0/00000000000000000000.log", std::ios::binary};
  char header[61] = {};
  BOOST_REQUIRE(segment.read(header, sizeof header));
  auto attributes = (static_cast<unsigned char>(header[21]) << 8) | static_cast<unsigned char>(header[22]);
  BOOST_TEST((attributes & 0x07) == 4, "codec " << (attributes & 0x07)); // zstd
  BOOST_TEST((attributes & 0x08) != 0);                                 // LogAppendTime

  auto script = R"(
import sys, time
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=sys.argv[1], retries=0)
now = int(time.time() * 1000)
for name, ts in (("old", now - 2 * 3600 * 1000), ("new", now)):
    try:
        p.send("bounded", b"v", timestamp_ms=ts).get(timeout=30)
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__)
)";
  auto sent = run({"/usr/bin/python3", "-c", script, server.bootstrap()}, "", 90s);
  BOOST_REQUIRE_MESSAGE(sent.code == 0, show(sent));
  BOOST_TEST(has(sent.out, "old InvalidTimestampError"), show(sent));
  BOOST_TEST(has(sent.out, "new ok"), show(sent));
}

// A cluster-wide min.insync.replicas set at run time reaches the leaders of topics without
// their own: with a partition of two replicas down to one in sync, acks=all is then refused as
// NOT_ENOUGH_REPLICAS, and accepted again once the key is deleted.
BOOST_AUTO_TEST_CASE(a_dynamic_min_insync_replicas_reaches_the_leaders) {
  cafka::test::cluster_fixture c{2, 4000};
  auto created = c.create_topic(1, "isr", 1, 2, {});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  int32_t leader = -1;
  BOOST_REQUIRE(cafka::test::poll_until(
    [&] {
      auto md = cafka::test::read_metadata(c.bootstrap(1));
      leader = md.ok() ? md.topics["isr"][0].leader : -1;
      return leader > 0 && md.topics["isr"][0].isr.size() == 2u;
    },
    60s));
  c.kill(leader == 1 ? 2 : 1);
  BOOST_REQUIRE_MESSAGE(cafka::test::poll_until(
                          [&] {
                            auto md = cafka::test::read_metadata(c.bootstrap(leader));
                            return md.ok() && md.topics["isr"][0].isr.size() == 1u;
                          },
                          60s),
                        "the ISR did not shrink to the leader");
  auto produce = [&] {
    return run({"/usr/bin/kcat", "-b", c.bootstrap(leader), "-P", "-t", "isr", "-X", "acks=all", "-X",
                "message.timeout.ms=5000", "-X", "retries=0"},
               "one\n", 60s);
  };
  auto ok = produce();
  BOOST_REQUIRE_MESSAGE(ok.code == 0 && !has(ok.err, "failed"), show(ok));
  auto alter = [&](std::vector<std::string> what) {
    std::vector<std::string> args{configs_bin, "--bootstrap-server", c.bootstrap(leader), "--entity-type", "brokers",
                                  "--entity-default", "--alter"};
    args.insert(args.end(), what.begin(), what.end());
    auto r = run(args, "", 60s);
    BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  };
  alter({"--add-config", "min.insync.replicas=2"});
  run_result last;
  bool refused = cafka::test::poll_until(
    [&] {
      last = produce();
      return has(last.err + last.out, "Not enough in-sync replicas");
    },
    60s);
  BOOST_TEST(refused, "acks=all was still accepted with a cluster-wide min.insync.replicas=2: " << show(last));
  alter({"--delete-config", "min.insync.replicas"});
  bool accepted = cafka::test::poll_until(
    [&] {
      auto r = produce();
      return r.code == 0 && !has(r.err, "failed");
    },
    60s);
  BOOST_TEST(accepted, "acks=all stayed refused after the key was deleted");
}

BOOST_AUTO_TEST_SUITE_END()
