// cafka-topics, cafka-console-producer and cafka-console-consumer as child processes
// against a real cafka-server: topic administration, error handling and exit codes, and
// a console round trip with keys; cafka-topics --describe on a cluster of 3 brokers
// (cluster_fixture): replicas and ISR, then --under-replicated-partitions and
// --unavailable-partitions after kill -9 of a broker. Every child runs with a bounded wait
// and is killed on timeout; every wait is a bounded poll; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "client/partitioner.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/cluster_fixture.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

const std::string topics_bin = CAFKA_BINARY_DIR "/bin/cafka-topics";
const std::string producer_bin = CAFKA_BINARY_DIR "/bin/cafka-console-producer";
const std::string consumer_bin = CAFKA_BINARY_DIR "/bin/cafka-console-consumer";

using cafka::test::lines;
using cafka::test::run;
using cafka::test::read_metadata;
using cafka::test::run_result;

size_t count_lines(const std::string& text) {
  return lines(text).size();
}

// A port on 127.0.0.1 that nobody listens on (bound once, then released).
uint16_t unused_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// One server per test case.
struct fixture {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path + "/logs"};
  std::string bootstrap = server.bootstrap();

  run_result tool(const std::string& bin, std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {bin, "--bootstrap-server", bootstrap});
    return run(args, input);
  }
  run_result topics(std::vector<std::string> args) {
    return tool(topics_bin, std::move(args));
  }
  run_result produce(const std::string& topic, const std::string& input, std::vector<std::string> args = {}) {
    args.insert(args.begin(), {"--topic", topic});
    return tool(producer_bin, std::move(args), input);
  }
  run_result consume(const std::string& topic, std::vector<std::string> args) {
    args.insert(args.begin(), {"--topic", topic});
    return tool(consumer_bin, std::move(args));
  }
};

struct partition_line {
  int32_t partition;
  int64_t start, end;
};

// The partition lines of a --describe output.
std::vector<partition_line> described_partitions(const std::string& out) {
  static const std::regex re{R"(Partition: (\d+)\t.*StartOffset: (\d+)\tEndOffset: (\d+))"};
  std::vector<partition_line> res;
  for (auto& line : lines(out)) {
    std::smatch m;
    if (std::regex_search(line, m, re))
      res.push_back({std::stoi(m[1]), std::stoll(m[2]), std::stoll(m[3])});
  }
  return res;
}

// "key-<i % 17>:value-<i>" for i in [0, n).
std::string keyed_lines(int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += "key-" + std::to_string(i % 17) + ":value-" + std::to_string(i) + "\n";
  return out;
}

// For keyed_lines(n): per partition, (key, value) in send order.
std::map<int32_t, std::vector<std::pair<std::string, std::string>>> expected_by_partition(int n, int32_t partitions) {
  std::map<int32_t, std::vector<std::pair<std::string, std::string>>> out;
  for (int i = 0; i < n; ++i) {
    auto key = "key-" + std::to_string(i % 17);
    out[cafka::client::partition_for_key(key, partitions)].emplace_back(key, "value-" + std::to_string(i));
  }
  return out;
}

// One partition line of a --describe output, by its columns ("Leader: 1" and so on).
struct described_row {
  std::string topic;
  int32_t partition = -1;
  std::string leader; ///< an id or "none"
  std::vector<int32_t> replicas, isr, offline;
  std::string line;
};

std::vector<int32_t> ids(const std::string& text) {
  std::vector<int32_t> out;
  std::stringstream in{text};
  for (std::string id; std::getline(in, id, ',');)
    out.push_back(std::stoi(id));
  return out;
}

std::vector<int32_t> sorted(std::vector<int32_t> xs) {
  std::sort(xs.begin(), xs.end());
  return xs;
}

// The partition lines (those starting with a tab) of a --describe output.
std::vector<described_row> described_rows(const std::string& out) {
  std::vector<described_row> res;
  for (auto& line : lines(out)) {
    if (line.empty() || line[0] != '\t')
      continue;
    described_row row;
    row.line = line;
    std::stringstream in{line.substr(1)};
    for (std::string column; std::getline(in, column, '\t');) {
      auto colon = column.find(": ");
      auto key = column.substr(0, colon);
      auto value = colon == std::string::npos ? std::string{} : column.substr(colon + 2);
      if (key == "Topic")
        row.topic = value;
      else if (key == "Partition")
        row.partition = std::stoi(value);
      else if (key == "Leader")
        row.leader = value;
      else if (key == "Replicas")
        row.replicas = ids(value);
      else if (key == "Isr")
        row.isr = ids(value);
      else if (key == "Offline")
        row.offline = ids(value);
    }
    res.push_back(std::move(row));
  }
  return res;
}

// (topic, partition) of each row.
std::set<std::pair<std::string, int32_t>> partitions_of(const std::vector<described_row>& rows) {
  std::set<std::pair<std::string, int32_t>> out;
  for (auto& r : rows)
    out.emplace(r.topic, r.partition);
  return out;
}

// Whether a --describe output has a topic line (one that starts with "Topic: ").
bool has_topic_line(const std::string& out) {
  for (auto& line : lines(out))
    if (line.rfind("Topic: ", 0) == 0)
      return true;
  return false;
}

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

} // namespace

BOOST_AUTO_TEST_SUITE(tools)

BOOST_FIXTURE_TEST_CASE(create_list_describe_and_delete_topics, fixture) {
  auto created = topics({"--create", "--topic", "orders", "--partitions", "3"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, created.err);
  BOOST_TEST(created.out == "Created topic orders.\n");
  auto metrics = topics({"--create", "--topic", "metrics", "--partitions", "2", "--replication-factor", "1",
                         "--config", "retention.ms=60000", "--config", "cleanup.policy=delete"});
  BOOST_REQUIRE_MESSAGE(metrics.code == 0, metrics.err);

  auto list = topics({"--list"});
  BOOST_REQUIRE_MESSAGE(list.code == 0, list.err);
  BOOST_TEST((lines(list.out) == std::vector<std::string>{"metrics", "orders"}));

  auto fresh = topics({"--describe", "--topic", "orders"});
  BOOST_REQUIRE_MESSAGE(fresh.code == 0, fresh.err);
  BOOST_TEST(fresh.out.find("Topic: orders\tPartitionCount: 3\tReplicationFactor: 1") != std::string::npos);
  auto parts = described_partitions(fresh.out);
  BOOST_REQUIRE_EQUAL(parts.size(), 3u);
  for (int32_t p = 0; p < 3; ++p) {
    BOOST_TEST(parts[p].partition == p);
    BOOST_TEST(parts[p].start == 0);
    BOOST_TEST(parts[p].end == 0);
  }
  // A single node leads every partition, its only replica and ISR.
  auto rows = described_rows(fresh.out);
  BOOST_REQUIRE_EQUAL(rows.size(), 3u);
  for (auto& row : rows) {
    BOOST_REQUIRE_EQUAL(row.replicas.size(), 1u);
    BOOST_TEST(row.leader == std::to_string(row.replicas[0]), row.line);
    BOOST_TEST((row.isr == row.replicas), row.line);
    BOOST_TEST(row.offline.empty(), row.line);
    BOOST_TEST(row.line.find("\tIsr: " + row.leader + "\tStartOffset: ") != std::string::npos, row.line);
  }
  // Nothing is under-replicated or unavailable there: the reports print nothing.
  for (auto report : {"--under-replicated-partitions", "--unavailable-partitions"}) {
    auto r = topics({"--describe", report});
    BOOST_TEST(r.code == 0, report << ": " << r.err);
    BOOST_TEST(r.out.empty(), report << ": " << r.out);
  }

  // After producing, the end offsets are the records per partition.
  constexpr int n = 60;
  auto produced = produce("orders", keyed_lines(n), {"--key-separator", ":"});
  BOOST_REQUIRE_MESSAGE(produced.code == 0, produced.err);
  auto expected = expected_by_partition(n, 3);
  auto after = topics({"--describe", "--topic", "orders"});
  BOOST_REQUIRE_MESSAGE(after.code == 0, after.err);
  parts = described_partitions(after.out);
  BOOST_REQUIRE_EQUAL(parts.size(), 3u);
  for (int32_t p = 0; p < 3; ++p) {
    BOOST_TEST(parts[p].start == 0);
    BOOST_TEST(parts[p].end == static_cast<int64_t>(expected[p].size()));
  }

  // --describe without --topic describes every topic; configs are shown.
  auto all = topics({"--describe"});
  BOOST_REQUIRE_MESSAGE(all.code == 0, all.err);
  BOOST_TEST(all.out.find("Topic: metrics\tPartitionCount: 2") != std::string::npos);
  BOOST_TEST(all.out.find("cleanup.policy=delete,retention.ms=60000") != std::string::npos);
  BOOST_TEST(described_partitions(all.out).size() == 5u);

  // --alter adds partitions (never removes any), served at once, empty.
  auto grown = topics({"--alter", "--topic", "metrics", "--partitions", "4"});
  BOOST_REQUIRE_MESSAGE(grown.code == 0, grown.err);
  BOOST_TEST(grown.out.find("Adding partitions succeeded!") != std::string::npos, grown.out);
  auto metrics_now = topics({"--describe", "--topic", "metrics"});
  BOOST_TEST(metrics_now.out.find("Topic: metrics\tPartitionCount: 4") != std::string::npos, metrics_now.out);
  BOOST_TEST(described_partitions(metrics_now.out).size() == 4u);
  auto into_all = produce("metrics", keyed_lines(40), {"--key-separator", ":"});
  BOOST_REQUIRE_MESSAGE(into_all.code == 0, into_all.err);
  auto filled = described_partitions(topics({"--describe", "--topic", "metrics"}).out);
  BOOST_REQUIRE_EQUAL(filled.size(), 4u);
  BOOST_TEST(filled[3].end > 0); // keys hash into the new partitions too
  BOOST_TEST(filled[0].end + filled[1].end + filled[2].end + filled[3].end == 40);
  auto fewer = topics({"--alter", "--topic", "metrics", "--partitions", "2"});
  BOOST_TEST(fewer.code == 1);
  BOOST_TEST(fewer.err.find("INVALID_PARTITIONS") != std::string::npos, fewer.err);
  BOOST_TEST(fewer.err.find("Topic currently has 4 partitions, which is higher than the requested 2.")
               != std::string::npos,
             fewer.err);

  auto deleted = topics({"--delete", "--topic", "orders"});
  BOOST_REQUIRE_MESSAGE(deleted.code == 0, deleted.err);
  BOOST_TEST(deleted.out == "Deleted topic orders.\n");
  list = topics({"--list"});
  BOOST_TEST((lines(list.out) == std::vector<std::string>{"metrics"}));
  auto gone = topics({"--describe", "--topic", "orders"});
  BOOST_TEST(gone.code == 1);
  BOOST_TEST(gone.err.find("UNKNOWN_TOPIC_OR_PARTITION") != std::string::npos);
  auto again = topics({"--delete", "--topic", "orders"});
  BOOST_TEST(again.code == 1);
  BOOST_TEST(again.err.find("UNKNOWN_TOPIC_OR_PARTITION") != std::string::npos);
  BOOST_TEST(topics({"--delete", "--topic", "orders", "--if-exists"}).code == 0);
}

BOOST_FIXTURE_TEST_CASE(broker_errors_exit_1_with_one_line, fixture) {
  BOOST_REQUIRE_EQUAL(topics({"--create", "--topic", "t", "--partitions", "3"}).code, 0);
  auto dup = topics({"--create", "--topic", "t", "--partitions", "3"});
  BOOST_TEST(dup.code == 1);
  BOOST_TEST(dup.err.find("TOPIC_ALREADY_EXISTS") != std::string::npos);
  BOOST_TEST(dup.err.rfind("cafka-topics: ", 0) == 0);
  BOOST_TEST(count_lines(dup.err) == 1u);
  BOOST_TEST(topics({"--create", "--topic", "t", "--if-not-exists"}).code == 0);

  auto bad_config = topics({"--create", "--topic", "u", "--config", "no.such.key=1"});
  BOOST_TEST(bad_config.code == 1);
  BOOST_TEST(bad_config.err.find("INVALID_CONFIG") != std::string::npos);

  auto unknown = consume("nope", {"--from-beginning", "--timeout-ms", "5000"});
  BOOST_TEST(unknown.code == 1);
  BOOST_TEST(unknown.err.find("UNKNOWN_TOPIC_OR_PARTITION") != std::string::npos);
  auto no_partition = consume("t", {"--partition", "9", "--timeout-ms", "5000"});
  BOOST_TEST(no_partition.code == 1);
  BOOST_TEST(no_partition.err.find("has no partition 9") != std::string::npos);

  auto no_separator = produce("t", "k1:v1\nno separator here\n", {"--key-separator", ":"});
  BOOST_TEST(no_separator.code == 1);
  BOOST_TEST(no_separator.err.find("no key separator ':' on line 2") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_arguments_exit_2) {
  // No broker is needed: arguments are checked before connecting.
  auto unknown = run({topics_bin, "--foo"});
  BOOST_TEST(unknown.code == 2);
  BOOST_TEST(unknown.err.find("cafka-topics: unknown option --foo") == 0u);
  BOOST_TEST(count_lines(unknown.err) == 1u);
  BOOST_TEST(run({producer_bin, "--topic", "t", "--foo"}).code == 2);
  BOOST_TEST(run({consumer_bin, "--topic", "t", "--foo"}).code == 2);
  BOOST_TEST(run({topics_bin}).code == 2);                                   // no action
  BOOST_TEST(run({topics_bin, "--list", "--describe"}).code == 2);           // two actions
  BOOST_TEST(run({topics_bin, "--create"}).code == 2);                       // no --topic
  BOOST_TEST(run({topics_bin, "--create", "--topic", "t", "--partitions", "x"}).code == 2);
  BOOST_TEST(run({topics_bin, "--create", "--topic", "t", "--config", "novalue"}).code == 2);
  BOOST_TEST(run({topics_bin, "--list", "--bootstrap-server", "nohost"}).code == 2);
  BOOST_TEST(run({topics_bin, "--list", "--topic"}).code == 2); // a value is missing
  BOOST_TEST(run({topics_bin, "--list", "--under-replicated-partitions"}).code == 2); // only with --describe
  BOOST_TEST(run({topics_bin, "--create", "--topic", "t", "--unavailable-partitions"}).code == 2);
  auto both = run({topics_bin, "--describe", "--under-replicated-partitions", "--unavailable-partitions"});
  BOOST_TEST(both.code == 2);
  BOOST_TEST(both.err.find("exclude each other") != std::string::npos, both.err);
  BOOST_TEST(run({producer_bin}).code == 2);                    // no --topic
  BOOST_TEST(run({producer_bin, "--topic", "t", "--property", "parse.key=maybe"}).code == 2);
  BOOST_TEST(run({producer_bin, "--topic", "t", "--producer-property", "acks=7"}).code == 2);
  BOOST_TEST(run({producer_bin, "--topic", "t", "--compression-codec", "zip"}).code == 2);
  BOOST_TEST(run({consumer_bin, "--topic", "t", "--offset", "5"}).code == 2); // needs --partition
  BOOST_TEST(run({consumer_bin, "--topic", "t", "--partition", "0", "--offset", "5", "--from-beginning"}).code == 2);
  BOOST_TEST(run({consumer_bin, "--topic", "t", "--max-messages", "-3"}).code == 2);
  auto help = run({topics_bin, "--help"});
  BOOST_TEST(help.code == 0);
  BOOST_TEST(help.out.find("--bootstrap-server") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unreachable_broker_exits_1) {
  auto bootstrap = "127.0.0.1:" + std::to_string(unused_port());
  // The run's limit only guards against a hang; the tools give up after their connect
  // timeout (5 s by default).
  auto list = run({topics_bin, "--bootstrap-server", bootstrap, "--list"}, "", 60s);
  BOOST_TEST(list.code == 1);
  BOOST_TEST(list.err.find("cafka-topics: cannot reach broker at " + bootstrap + ": ") == 0u);
  BOOST_TEST(count_lines(list.err) == 1u);
  auto prod = run({producer_bin, "--bootstrap-server", bootstrap, "--topic", "t", "--connect-timeout-ms", "1000"},
                  "a\nb\n", 60s);
  BOOST_TEST(prod.code == 1);
  BOOST_TEST(prod.err.find("cannot reach broker at " + bootstrap) != std::string::npos);
  auto cons = run({consumer_bin, "--bootstrap-server", bootstrap, "--topic", "t", "--connect-timeout-ms", "1000"},
                  "", 60s);
  BOOST_TEST(cons.code == 1);
  BOOST_TEST(cons.err.find("cannot reach broker at " + bootstrap) != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(console_round_trip_with_keys, fixture) {
  constexpr int n = 400;
  constexpr int32_t partitions = 3;
  BOOST_REQUIRE_EQUAL(topics({"--create", "--topic", "rt", "--partitions", std::to_string(partitions)}).code, 0);
  auto produced = produce("rt", keyed_lines(n), {"--property", "parse.key=true", "--property", "key.separator=:"});
  BOOST_REQUIRE_MESSAGE(produced.code == 0, produced.err);
  auto expected = expected_by_partition(n, partitions);

  // Everything, with keys and offsets: each partition in order, offsets dense from 0.
  auto all = consume("rt", {"--from-beginning", "--max-messages", std::to_string(n), "--timeout-ms", "30000",
                            "--property", "print.key=true", "--property", "print.offset=true"});
  BOOST_REQUIRE_MESSAGE(all.code == 0, all.err);
  BOOST_TEST(all.err.find("Processed a total of 400 messages") != std::string::npos);
  auto got = lines(all.out);
  BOOST_REQUIRE_EQUAL(got.size(), static_cast<size_t>(n));
  std::map<int32_t, std::vector<std::pair<std::string, std::string>>> by_partition;
  static const std::regex re{R"(Offset:(\d+)\t(key-\d+)\t(value-\d+))"};
  for (auto& line : got) {
    std::smatch m;
    BOOST_REQUIRE_MESSAGE(std::regex_match(line, m, re), "unexpected line: " << line);
    auto p = cafka::client::partition_for_key(m[2].str(), partitions);
    BOOST_REQUIRE_EQUAL(std::stoll(m[1]), static_cast<int64_t>(by_partition[p].size()));
    by_partition[p].emplace_back(m[2], m[3]);
  }
  BOOST_TEST((by_partition == expected));

  // --max-messages stops early.
  auto ten = consume("rt", {"--from-beginning", "--max-messages", "10", "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(ten.code == 0, ten.err);
  BOOST_TEST(count_lines(ten.out) == 10u);

  // One partition from an offset, with the short print flags.
  auto& p1 = expected[1];
  BOOST_REQUIRE_GT(p1.size(), 5u);
  auto from5 = consume("rt", {"--partition", "1", "--offset", "5", "--print-key", "--print-offset", "--max-messages",
                              std::to_string(p1.size() - 5), "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(from5.code == 0, from5.err);
  got = lines(from5.out);
  BOOST_REQUIRE_EQUAL(got.size(), p1.size() - 5);
  for (size_t i = 0; i < got.size(); ++i)
    BOOST_TEST(got[i] == "Offset:" + std::to_string(i + 5) + "\t" + p1[i + 5].first + "\t" + p1[i + 5].second);

  // One whole partition, values only.
  auto p2 = consume("rt", {"--partition", "2", "--from-beginning", "--max-messages",
                           std::to_string(expected[2].size()), "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(p2.code == 0, p2.err);
  got = lines(p2.out);
  BOOST_REQUIRE_EQUAL(got.size(), expected[2].size());
  for (size_t i = 0; i < got.size(); ++i)
    BOOST_TEST(got[i] == expected[2][i].second);

  // --offset earliest, a custom separator, and the partition printed.
  auto p0 = consume("rt", {"--partition", "0", "--offset", "earliest", "--max-messages", "3", "--property",
                           "print.partition=true", "--property", "print.key=true", "--property", "key.separator=|",
                           "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(p0.code == 0, p0.err);
  got = lines(p0.out);
  BOOST_REQUIRE_EQUAL(got.size(), 3u);
  BOOST_TEST(got[0] == "Partition:0|" + expected[0][0].first + "|" + expected[0][0].second);

  // From the latest offset (the default) nothing old is printed, and --timeout-ms ends
  // the wait for new records.
  auto latest = consume("rt", {"--timeout-ms", "1000"});
  BOOST_TEST(latest.code == 0);
  BOOST_TEST(latest.out.empty());
  BOOST_TEST(latest.err.find("Processed a total of 0 messages") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(console_producer_options, fixture) {
  // LZ4 batches, acks=1, synchronous sends, no keys; the topic is created on first use.
  std::string input;
  for (int i = 0; i < 50; ++i)
    input += "line " + std::to_string(i) + "\n";
  auto produced = produce("auto", input, {"--compression-codec", "lz4", "--producer-property", "acks=1", "--sync"});
  BOOST_REQUIRE_MESSAGE(produced.code == 0, produced.err);
  auto consumed = consume("auto", {"--from-beginning", "--max-messages", "50", "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(consumed.code == 0, consumed.err);
  BOOST_TEST(consumed.out == input); // one partition (num.partitions=1): in order
  // With ignore.error, a line without separator is a record with a null key.
  auto lenient = produce("auto", "k:v\nplain\n",
                         {"--property", "parse.key=true", "--property", "key.separator=:", "--property",
                          "ignore.error=true"});
  BOOST_REQUIRE_MESSAGE(lenient.code == 0, lenient.err);
  auto tail = consume("auto", {"--partition", "0", "--offset", "50", "--print-key", "--max-messages", "2",
                               "--timeout-ms", "30000"});
  BOOST_REQUIRE_MESSAGE(tail.code == 0, tail.err);
  BOOST_TEST(tail.out == "k\tv\nnull\tplain\n");
}

// cafka-topics --describe through one broker of 3: every replica and the full ISR of a
// topic with replication factor 3; after kill -9 of another broker (not the controller,
// so no election of a controller slows the test) and the expiry of its ZooKeeper session,
// the replicated topic's partitions are under-replicated but available (Offline: the
// killed broker), and the partitions of a replication-factor-1 topic on the killed broker
// are unavailable (Leader: none). The reports print no topic lines, as Kafka's.
BOOST_AUTO_TEST_CASE(describe_replicas_isr_and_replication_reports_on_a_cluster) {
  cafka::test::cluster_fixture c{3};
  BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(1, {1, 2, 3}, 60s), c.outputs());
  auto via = c.bootstrap(1);
  auto topics = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {topics_bin, "--bootstrap-server", via});
    return run(args, "", 60s);
  };
  auto created = topics({"--create", "--topic", "replicated", "--partitions", "2", "--replication-factor", "3"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created) << c.outputs());
  created = topics({"--create", "--topic", "single", "--partitions", "3", "--replication-factor", "1"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created) << c.outputs());

  // Bounded polling until every partition has a leader and the ISR holds every replica.
  run_result described;
  bool full = cafka::test::poll_until(
    [&] {
      described = topics({"--describe"});
      auto rows = described_rows(described.out);
      if (described.code != 0 || rows.size() != 5)
        return false;
      for (auto& row : rows)
        if (row.leader == "none" || sorted(row.isr) != sorted(row.replicas)
            || row.replicas.size() != (row.topic == "replicated" ? 3u : 1u))
          return false;
      return true;
    },
    60s);
  BOOST_REQUIRE_MESSAGE(full, show(described) << c.outputs());
  BOOST_TEST_MESSAGE(described.out);
  BOOST_TEST(described.out.find("Topic: replicated\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: \n")
               != std::string::npos,
             described.out);
  BOOST_TEST(described.out.find("Topic: single\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: \n")
               != std::string::npos,
             described.out);
  std::set<int32_t> single_leaders;
  for (auto& row : described_rows(described.out)) {
    BOOST_TEST(row.offline.empty(), row.line);
    BOOST_TEST(row.line.find("\tStartOffset: ") != std::string::npos, row.line);
    if (row.topic == "replicated")
      BOOST_TEST((sorted(row.replicas) == std::vector<int32_t>{1, 2, 3}), row.line);
    else
      single_leaders.insert(row.replicas[0]);
  }
  BOOST_TEST((single_leaders == std::set<int32_t>{1, 2, 3}), described.out); // one partition per broker
  for (auto report : {"--under-replicated-partitions", "--unavailable-partitions"}) {
    auto r = topics({"--describe", report});
    BOOST_TEST(r.code == 0, report << ": " << show(r));
    BOOST_TEST(r.out.empty(), report << ": " << r.out);
  }

  // The victim: 2 or 3, whichever is not the controller.
  auto md = read_metadata(c.bootstrap(1));
  BOOST_REQUIRE_MESSAGE(md.ok(), md.error);
  int32_t victim = md.controller == 3 ? 2 : 3;
  std::set<std::pair<std::string, int32_t>> on_victim; // the single-replica partitions there
  for (auto& row : described_rows(described.out))
    if (row.topic == "single" && row.replicas == std::vector<int32_t>{victim})
      on_victim.emplace(row.topic, row.partition);
  BOOST_REQUIRE_EQUAL(on_victim.size(), 1u);
  const std::set<std::pair<std::string, int32_t>> replicated{{"replicated", 0}, {"replicated", 1}};
  c.kill(victim);

  // Bounded polling until the controller has taken the victim out of every ISR and the
  // replicated partitions it led have a new leader.
  run_result under, unavailable;
  bool settled = cafka::test::poll_until(
    [&] {
      under = topics({"--describe", "--under-replicated-partitions"});
      unavailable = topics({"--describe", "--unavailable-partitions"});
      return under.code == 0 && unavailable.code == 0 && partitions_of(described_rows(under.out)) == replicated
             && partitions_of(described_rows(unavailable.out)) == on_victim;
    },
    90s);
  BOOST_REQUIRE_MESSAGE(settled, "under-replicated: " << show(under) << "unavailable: " << show(unavailable)
                                                      << c.outputs());
  BOOST_TEST_MESSAGE(under.out << unavailable.out);
  BOOST_TEST(!has_topic_line(under.out), under.out);
  BOOST_TEST(!has_topic_line(unavailable.out), unavailable.out);
  for (auto& row : described_rows(under.out)) {
    BOOST_TEST(row.leader != "none", row.line);
    BOOST_TEST(row.leader != std::to_string(victim), row.line);
    BOOST_TEST(row.isr.size() == 2u, row.line);
    BOOST_TEST(std::count(row.isr.begin(), row.isr.end(), victim) == 0, row.line);
    BOOST_TEST((row.offline == std::vector<int32_t>{victim}), row.line);
  }
  for (auto& row : described_rows(unavailable.out)) {
    BOOST_TEST(row.leader == "none", row.line);
    BOOST_TEST((row.offline == std::vector<int32_t>{victim}), row.line);
    BOOST_TEST(row.line.find("\tStartOffset: -\tEndOffset: -") != std::string::npos, row.line);
  }

  // With --topic: the same reports for one topic.
  auto one = topics({"--describe", "--topic", "replicated", "--unavailable-partitions"});
  BOOST_TEST(one.code == 0, show(one));
  BOOST_TEST(one.out.empty(), one.out);
  one = topics({"--describe", "--topic", "replicated", "--under-replicated-partitions"});
  BOOST_TEST(one.code == 0, show(one));
  BOOST_TEST((partitions_of(described_rows(one.out)) == replicated), one.out);
  one = topics({"--describe", "--topic", "single", "--unavailable-partitions"});
  BOOST_TEST(one.code == 0, show(one));
  BOOST_TEST((partitions_of(described_rows(one.out)) == on_victim), one.out);
  BOOST_TEST(!has_topic_line(one.out), one.out);
  one = topics({"--describe", "--topic", "single", "--under-replicated-partitions"});
  BOOST_TEST(one.code == 0, show(one));
  BOOST_TEST(one.out.empty(), one.out);

  // The full description still has the topic lines and every partition.
  auto all = topics({"--describe"});
  BOOST_TEST(all.code == 0, show(all));
  BOOST_TEST(has_topic_line(all.out), all.out);
  BOOST_TEST(described_rows(all.out).size() == 5u, all.out);
}

BOOST_AUTO_TEST_SUITE_END()
