// The programs in examples/ as child processes against a real cafka-server: the
// producer's offsets, the replay's summary and the word counts match what was produced
// (through cafka's client library, here in the test). Every child runs with a bounded
// wait and is killed on timeout; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "actors/errors.hpp"
#include "client/partitioner.hpp"
#include "client/producer.hpp"
#include "tests/integration/native_client.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

const std::string producer_bin = CAFKA_BINARY_DIR "/bin/cafka-example-producer";
const std::string word_count_bin = CAFKA_BINARY_DIR "/bin/cafka-example-word-count";
const std::string replay_bin = CAFKA_BINARY_DIR "/bin/cafka-example-replay";
const std::string at_least_once_bin = CAFKA_BINARY_DIR "/bin/cafka-example-at-least-once";
const std::string at_most_once_bin = CAFKA_BINARY_DIR "/bin/cafka-example-at-most-once";
const std::string simulated_cluster_bin = CAFKA_BINARY_DIR "/bin/cafka-example-simulated-cluster";

using test::child;
using test::lines;
using test::run_result;

// Examples take no input.
run_result run(const std::vector<std::string>& args, std::chrono::milliseconds limit = 60s) {
  return test::run(args, "", limit);
}

// A server, and a client in this process to create topics and produce.
struct fixture {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs"};
  std::string bootstrap = "--bootstrap-server=127.0.0.1:" + std::to_string(server.caf_port());
  test::client_system client;
  node_actor node = client.connect(server.caf_port());

  void create_topic(const std::string& name, int32_t partitions) {
    caf::scoped_actor self{client.sys};
    self->request(node, 30s, create_topic_atom_v, topic_spec{name, partitions, 1, {}})
      .receive([](topic_description&) {}, [](caf::error& e) { BOOST_FAIL("create_topic: " << describe(e)); });
  }
};

// The same with a server whose empty groups rebalance at once (no initial delay).
struct group_fixture : fixture {
  test::server_process group_server{dir.path + "/group-logs", {"group.initial.rebalance.delay.ms=0"}};
  std::string group_bootstrap = "--bootstrap-server=127.0.0.1:" + std::to_string(group_server.caf_port());
  node_actor group_node = client.connect(group_server.caf_port());

  std::set<std::string> produce(const std::string& topic, const std::string& prefix, int n) {
    caf::scoped_actor self{client.sys};
    self->request(group_node, 30s, create_topic_atom_v, topic_spec{topic, 3, 1, {}})
      .receive([](topic_description&) {}, [](caf::error&) {}); // may exist already
    std::set<std::string> values;
    client::producer p{client.sys, group_node, client::producer_config{}};
    for (int i = 0; i < n; ++i) {
      auto value = prefix + "-" + std::to_string(i);
      BOOST_REQUIRE(p.send_sync(topic, "k" + std::to_string(i), value));
      values.insert(value);
    }
    return values;
  }
};

// The values of the "partition P offset O: value" lines, as a multiset (repeats show).
std::multiset<std::string> printed_values(const std::string& out) {
  static const std::regex line{R"(partition \d+ offset \d+: (.*))"};
  std::multiset<std::string> values;
  std::smatch m;
  for (auto& l : lines(out))
    if (std::regex_match(l, m, line))
      values.insert(m[1]);
  return values;
}

std::multiset<std::string> once_each(const std::set<std::string>& values) {
  return {values.begin(), values.end()};
}

// The "word count" lines after "final counts after N records:".
std::map<std::string, size_t> final_counts(const std::string& out, size_t records) {
  std::map<std::string, size_t> counts;
  auto all = lines(out);
  auto header = "final counts after " + std::to_string(records) + " records:";
  auto it = std::find(all.begin(), all.end(), header);
  BOOST_REQUIRE_MESSAGE(it != all.end(), "no '" << header << "' in: " << out);
  for (++it; it != all.end(); ++it) {
    std::istringstream in{*it};
    std::string word;
    size_t count = 0;
    BOOST_REQUIRE_MESSAGE(in >> word >> count, "unexpected line: " << *it);
    counts[word] = count;
  }
  return counts;
}

} // namespace

BOOST_AUTO_TEST_SUITE(examples)

BOOST_FIXTURE_TEST_CASE(producer_prints_an_offset_per_record, fixture) {
  create_topic("example", 3);
  auto res = run({producer_bin, bootstrap, "--topic=example", "--count=25"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  std::map<int32_t, std::vector<int64_t>> offsets; // per partition, in send order
  std::smatch m;
  static const std::regex sync{R"(send_sync: record 0 \(user-0\) at offset (\d+))"};
  BOOST_REQUIRE_MESSAGE(std::regex_search(res.out, m, sync), res.out);
  offsets[client::partition_for_key("user-0", 3)].push_back(std::stoll(m[1]));
  static const std::regex async{R"(record (\d+) \((user-\d)\) -> partition (\d+), offset (\d+))"};
  int next = 1;
  for (auto& line : lines(res.out)) {
    if (!std::regex_match(line, m, async))
      continue;
    BOOST_TEST(std::stoi(m[1]) == next++);
    auto partition = std::stoi(m[3]);
    BOOST_TEST(partition == client::partition_for_key(m[2].str(), 3)); // same key, same partition
    offsets[partition].push_back(std::stoll(m[4]));
  }
  BOOST_TEST(next == 25);
  for (auto& [partition, list] : offsets) // dense from 0, in send order
    for (size_t i = 0; i < list.size(); ++i)
      BOOST_TEST(list[i] == static_cast<int64_t>(i), "partition " << partition << " #" << i);
  BOOST_TEST(res.out.find("sent 25 records to 'example': 25 acknowledged, 0 failed") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(replay_summarizes_what_was_produced, fixture) {
  create_topic("history", 4);
  constexpr int n = 500;
  std::map<int32_t, std::pair<int64_t, int64_t>> expected; // partition -> records, bytes
  {
    client::producer p{client.sys, node, client::producer_config{}};
    std::vector<std::pair<size_t, client::producer::result_future>> futures;
    for (int i = 0; i < n; ++i) {
      auto key = "k-" + std::to_string(i % 23);
      auto value = "record number " + std::to_string(i);
      futures.emplace_back(key.size() + value.size(), p.send("history", key, value));
    }
    BOOST_REQUIRE(!p.flush());
    for (auto& [bytes, f] : futures) {
      BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
      auto md = f.get();
      BOOST_REQUIRE_MESSAGE(md, (md ? std::string{"ok"} : describe(md.error()))); // evaluated either way
      expected[md->partition].first += 1;
      expected[md->partition].second += static_cast<int64_t>(bytes);
    }
  }
  auto res = run({replay_bin, bootstrap, "--topic=history"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  int64_t total_bytes = 0;
  for (int32_t p = 0; p < 4; ++p) {
    auto [records, bytes] = expected[p];
    total_bytes += bytes;
    auto line = "partition " + std::to_string(p) + ": " + std::to_string(records) + " records, "
                + std::to_string(bytes) + " bytes";
    BOOST_TEST(res.out.find(line) != std::string::npos, "no '" << line << "' in: " << res.out);
  }
  auto total = "total: 500 records, " + std::to_string(total_bytes) + " bytes, 23 distinct keys";
  BOOST_TEST(res.out.find(total) != std::string::npos, "no '" << total << "' in: " << res.out);

  // An empty topic is done at once; an unknown one is an error.
  create_topic("empty", 2);
  auto empty = run({replay_bin, bootstrap, "--topic=empty"});
  BOOST_TEST(empty.code == 0);
  BOOST_TEST(empty.out.find("total: 0 records, 0 bytes, 0 distinct keys") != std::string::npos);
  auto unknown = run({replay_bin, bootstrap, "--topic=nope"});
  BOOST_TEST(unknown.code == 1);
  BOOST_TEST(unknown.err.find("UNKNOWN_TOPIC_OR_PARTITION") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(word_count_counts_known_input_from_the_beginning, fixture) {
  create_topic("lines", 2);
  const std::vector<std::string> text{"the quick brown fox", "jumps over the lazy dog", "the dog  sleeps"};
  constexpr size_t n = 30;
  std::map<std::string, size_t> expected;
  {
    client::producer p{client.sys, node, client::producer_config{}};
    for (size_t i = 0; i < n; ++i) {
      auto& line = text[i % text.size()];
      BOOST_REQUIRE(p.send_sync("lines", "line-" + std::to_string(i), line));
      std::istringstream words{line};
      for (std::string w; words >> w;)
        ++expected[w];
    }
  }
  auto res = run({word_count_bin, bootstrap, "--topic=lines", "--from-beginning", "--max-records=30",
                  "--idle-ms=30000"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((final_counts(res.out, n) == expected));
  BOOST_TEST(expected.at("the") == 30u); // the input is what we think it is
}

BOOST_FIXTURE_TEST_CASE(word_count_counts_in_real_time, fixture) {
  create_topic("live", 1);
  // From the latest offset: only records produced while it runs count. Keep producing
  // until it has seen five (every record is "ping pong", so the counts are exact).
  child counter{{word_count_bin, bootstrap, "--topic=live", "--max-records=5", "--idle-ms=60000"}};
  client::producer p{client.sys, node, client::producer_config{}};
  for (int i = 0; i < 600 && counter.running(); ++i) {
    BOOST_REQUIRE(p.send_sync("live", std::nullopt, std::string{"ping pong"}));
    std::this_thread::sleep_for(100ms);
  }
  auto res = counter.wait(30s);
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((final_counts(res.out, 5) == std::map<std::string, size_t>{{"ping", 5}, {"pong", 5}}));
}

// Each run prints what the group has not consumed yet, once; the second run of the same
// group starts at the first one's commit (nothing printed twice, nothing skipped).
BOOST_FIXTURE_TEST_CASE(at_least_once_resumes_after_its_commit, group_fixture) {
  auto first = produce("alo", "first", 30);
  auto res = run({at_least_once_bin, group_bootstrap, "--topic=alo", "--group=printers", "--from-beginning",
                  "--exit-after=30"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((printed_values(res.out) == once_each(first)), res.out);
  BOOST_TEST(res.out.find("assigned (generation 1): alo-0 alo-1 alo-2") != std::string::npos, res.out);
  BOOST_TEST(res.out.find("committed after 30 records") != std::string::npos, res.out);
  auto second = produce("alo", "second", 10);
  res = run({at_least_once_bin, group_bootstrap, "--topic=alo", "--group=printers", "--from-beginning",
             "--exit-after=10"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((printed_values(res.out) == once_each(second)), res.out);
  BOOST_TEST(res.out.find("committed after 10 records") != std::string::npos, res.out);
}

BOOST_FIXTURE_TEST_CASE(at_most_once_resumes_after_its_commits, group_fixture) {
  auto first = produce("amo", "first", 30);
  auto res = run({at_most_once_bin, group_bootstrap, "--topic=amo", "--from-beginning", "--exit-after=30"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((printed_values(res.out) == once_each(first)), res.out);
  BOOST_TEST(res.out.find("done after 30 records") != std::string::npos, res.out);
  auto second = produce("amo", "second", 10);
  // No --group: both runs are members of cafka-default-group.
  res = run({at_most_once_bin, group_bootstrap, "--topic=amo", "--from-beginning", "--exit-after=10"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
  BOOST_TEST((printed_values(res.out) == once_each(second)), res.out);
}

// The simulated-cluster example needs no server: it runs a whole 3-node cluster inside its
// own process (cafka::sim) and checks its consumer itself; exit code 0 means every record
// was counted exactly once through the crash and the cut.
BOOST_AUTO_TEST_CASE(the_simulated_cluster_example_checks_a_consumer_through_a_crash_and_a_cut) {
  for (std::string seed : {"1", "2"}) {
    auto res = run({simulated_cluster_bin, "--seed=" + seed}, 120s);
    BOOST_REQUIRE_MESSAGE(res.code == 0, res.out << res.err);
    BOOST_TEST(res.out.find("ok (seed " + seed + ")") != std::string::npos, res.out);
    BOOST_TEST(res.out.find("broker 2 crashed (process)") != std::string::npos, res.out);
    BOOST_TEST(res.out.find("link client -> broker 3 cut") != std::string::npos, res.out);
    BOOST_TEST(res.out.find("k0: 12") != std::string::npos, res.out); // 60 records over 5 keys
  }
  auto bad = run({simulated_cluster_bin, "--seed=x"});
  BOOST_TEST(bad.code == 2);
  BOOST_TEST(bad.err.find("bad argument '--seed=x'") != std::string::npos, bad.err);
}

BOOST_AUTO_TEST_SUITE_END()
