// Groups across nodes with real processes: a ZooKeeper server (tests/support/) and three
// cafka-server brokers. kcat -G consumes a topic (committing as it leaves the group); the
// group's coordinator (FindCoordinator: the leader of the group's __consumer_offsets
// partition, of which there is one replica here: offsets.topic.replication.factor=1) is
// killed with SIGKILL, its session expires (FindCoordinator then answers
// COORDINATOR_NOT_AVAILABLE), it is restarted with the same broker.id and log dir, and
// kcat -G resumes from the committed offsets: only the new lines come.
//
// cafka-consumer-groups (librdkafka's admin API) through a broker that does NOT coordinate
// the group: --list merges the groups of every broker, --describe finds the coordinator and
// shows the committed offsets and lag, and the members of a live kcat -G member.
//
// Every wait is bounded (polls with a fixed number of rounds); every process is stopped by
// its PID.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/integration/server_process.hpp"
#include "tests/support/zookeeper_server.hpp"

using namespace std::chrono_literals;
using cafka::test::run_result;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string groups_bin = CAFKA_BINARY_DIR "/bin/cafka-consumer-groups";
constexpr int16_t coordinator_not_available = 15;

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// Polls `ready` up to ~90 s; true once it holds.
template <class F>
bool eventually(F ready) {
  for (int i = 0; i < 180; ++i) {
    if (ready())
      return true;
    std::this_thread::sleep_for(500ms);
  }
  return ready();
}

struct three_brokers {
  cafka::test::zookeeper_server zk;
  cafka::test::scratch_dir dirs[3];
  std::unique_ptr<cafka::test::server_process> servers[3];

  three_brokers() {
    for (int i = 0; i < 3; ++i)
      start(i);
  }

  void start(int i) {
    servers[i].reset();
    servers[i] = std::make_unique<cafka::test::server_process>(
      dirs[i].path, std::vector<std::string>{"zookeeper.connect=" + zk.hosts() + "/cafka",
                                             "broker.id=" + std::to_string(i + 1),
                                             "zookeeper.session.timeout.ms=6000", "num.partitions=3",
                                             "offsets.topic.num.partitions=6",
                                             // one replica: the group waits for its broker
                                             // (offsets_failover_test has three)
                                             "offsets.topic.replication.factor=1"});
  }

  cafka::test::server_process& broker(int32_t id) { return *servers[id - 1]; }

  std::string bootstrap() {
    std::string out;
    for (auto& s : servers)
      if (s && s->running())
        out += (out.empty() ? "" : ",") + s->bootstrap();
    return out;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(cluster_groups)

BOOST_AUTO_TEST_CASE(kcat_resumes_from_its_commits_after_the_coordinator_broker_is_killed_and_restarted) {
  three_brokers c;
  const std::string topic = "spread";
  const std::string group = "spread-readers";
  auto kcat = [&](std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {kcat_bin, "-b", c.bootstrap()});
    return cafka::test::run(args, input, 120s);
  };
  auto produce = [&](int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "line-" + std::to_string(i) + "\n";
    auto produced = kcat({"-P", "-t", topic}, input); // the topic is auto-created
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  };
  auto consume = [&] {
    auto consumed = kcat({"-G", group, topic, "-e", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -G: " << show(consumed));
    auto got = cafka::test::lines(consumed.out);
    return std::multiset<std::string>(got.begin(), got.end());
  };
  auto expected = [](int from, int to) {
    std::multiset<std::string> out;
    for (int i = from; i < to; ++i)
      out.insert("line-" + std::to_string(i));
    return out;
  };
  produce(0, 100);
  BOOST_TEST((consume() == expected(0, 100)));

  // Every broker names the same coordinator.
  int32_t coordinator = -1;
  BOOST_REQUIRE(eventually([&] {
    auto found = cafka::test::find_coordinator(c.broker(1).kafka_port(), group);
    if (!found || found->first != 0)
      return false;
    coordinator = found->second;
    return true;
  }));
  for (int id = 1; id <= 3; ++id) {
    auto found = cafka::test::find_coordinator(c.broker(id).kafka_port(), group);
    BOOST_REQUIRE(found);
    BOOST_TEST(found->first == 0);
    BOOST_TEST(found->second == coordinator);
  }

  // Killed: once its session expires, nobody coordinates the group (replication factor 1).
  auto other = coordinator == 1 ? 2 : 1;
  c.broker(coordinator).kill_hard();
  BOOST_REQUIRE(eventually([&] {
    auto found = cafka::test::find_coordinator(c.broker(other).kafka_port(), group);
    return found && found->first == coordinator_not_available;
  }));
  // Restarted with its log dir: it coordinates the group again, from the same offsets.
  c.start(coordinator - 1);
  BOOST_REQUIRE(eventually([&] {
    auto found = cafka::test::find_coordinator(c.broker(other).kafka_port(), group);
    return found && found->first == 0 && found->second == coordinator;
  }));
  produce(100, 120);
  BOOST_TEST((consume() == expected(100, 120)));
}

BOOST_AUTO_TEST_CASE(the_groups_tool_describes_a_group_through_a_broker_that_does_not_coordinate_it) {
  three_brokers c;
  const std::string topic = "described";
  const std::string group = "described-readers";
  auto kcat = [&](std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {kcat_bin, "-b", c.bootstrap()});
    return cafka::test::run(args, input, 120s);
  };
  std::string input;
  for (int i = 0; i < 60; ++i) // keyed, so that every partition gets records
    input += "k" + std::to_string(i) + ":line-" + std::to_string(i) + "\n";
  auto produced = kcat({"-P", "-t", topic, "-K", ":"}, input); // auto-created, 3 partitions
  BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  auto consumed = kcat({"-G", group, topic, "-e", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
  BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -G: " << show(consumed));
  BOOST_REQUIRE_EQUAL(cafka::test::lines(consumed.out).size(), 60u);

  int32_t coordinator = -1;
  BOOST_REQUIRE(eventually([&] {
    auto found = cafka::test::find_coordinator(c.broker(1).kafka_port(), group);
    if (!found || found->first != 0)
      return false;
    coordinator = found->second;
    return true;
  }));
  auto other = coordinator == 1 ? 2 : 1;
  auto groups = [&](std::vector<std::string> args) {
    args.insert(args.begin(),
                {groups_bin, "--bootstrap-server", c.broker(other).bootstrap()});
    return cafka::test::run(args);
  };

  // --list through the other broker: the union of every broker's groups.
  auto listed = groups({"--list"});
  BOOST_REQUIRE_MESSAGE(listed.code == 0, show(listed));
  auto names = cafka::test::lines(listed.out);
  BOOST_TEST((std::count(names.begin(), names.end(), group) == 1), listed.out);

  // --describe through it: the committed offsets (kcat committed everything as it left).
  std::regex row{"^" + group + " +" + topic + " +([0-9]+) +(\\S+) +(\\S+) +(\\S+) +(\\S+).*"};
  auto describe = [&](run_result& d) {
    d = groups({"--describe", "--group", group});
    std::map<int, std::vector<std::string>> rows;
    for (auto& line : cafka::test::lines(d.out)) {
      std::smatch m;
      if (std::regex_match(line, m, row))
        rows[std::stoi(m[1])] = {m[2], m[3], m[4], m[5]};
    }
    return rows;
  };
  run_result d;
  auto rows = describe(d);
  BOOST_REQUIRE_MESSAGE(d.code == 0, show(d));
  BOOST_REQUIRE_EQUAL(rows.size(), 3u);
  long current = 0;
  for (auto& [p, r] : rows) {
    BOOST_TEST(r[0] == r[1], "partition " << p << ": committed " << r[0] << ", log end " << r[1]);
    BOOST_TEST(r[2] == "0");
    current += std::stol(r[0]);
  }
  BOOST_TEST(current == 60);
  BOOST_TEST(d.out.find("Empty") != std::string::npos, d.out);

  // A member that stays (no -e) until the test kills it: described with its id, through the
  // other broker.
  cafka::test::child member{{kcat_bin, "-b", c.bootstrap(), "-G", group, topic, "-X", "client.id=described-member"}};
  bool seen = false;
  for (int i = 0; i < 120 && !seen; ++i) {
    std::this_thread::sleep_for(500ms);
    rows = describe(d);
    seen = d.code == 0 && rows.size() == 3u
           && std::all_of(rows.begin(), rows.end(),
                          [](auto& r) { return r.second[3].rfind("described-member", 0) == 0; });
  }
  BOOST_TEST(seen, show(d));
  BOOST_TEST(d.out.find("Stable") != std::string::npos, d.out);
  member.wait(0ms); // stops it (by its PID)
}

BOOST_AUTO_TEST_SUITE_END()
