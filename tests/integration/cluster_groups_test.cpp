// Groups across nodes with real processes: a ZooKeeper server (tests/support/) and three
// cafka-server brokers. kcat -G consumes a topic (committing as it leaves the group); the
// group's coordinator (FindCoordinator: the leader of the group's __consumer_offsets
// partition) is killed with SIGKILL, its session expires (FindCoordinator then answers
// COORDINATOR_NOT_AVAILABLE), it is restarted with the same broker.id and log dir, and
// kcat -G resumes from the committed offsets: only the new lines come.
//
// Every wait is bounded (polls with a fixed number of rounds); every process is stopped by
// its PID.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/integration/server_process.hpp"
#include "tests/support/zookeeper_server.hpp"

using namespace std::chrono_literals;
using cafka::test::run_result;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
constexpr int16_t coordinator_not_available = 15;

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// FindCoordinator v0 for `group` at the broker on `port`: (error code, node id), or nullopt
// when the broker did not answer.
std::optional<std::pair<int16_t, int32_t>> find_coordinator(uint16_t port, const std::string& group) {
  std::vector<char> body;
  cafka::protocol::byte_writer w{body};
  w.write_string(group);
  cafka::test::kafka_socket socket{port};
  socket.send_frame(cafka::test::request_frame(10, 0, 1, body));
  auto frame = socket.receive_frame();
  if (!frame)
    return std::nullopt;
  cafka::protocol::byte_reader r{{frame->data(), frame->size()}};
  r.read_i32(); // correlation id
  auto error = r.read_i16();
  auto id = r.read_i32();
  if (!r.ok())
    return std::nullopt;
  return std::make_pair(error, id);
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
                                             "offsets.topic.num.partitions=6"});
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
    auto found = find_coordinator(c.broker(1).kafka_port(), group);
    if (!found || found->first != 0)
      return false;
    coordinator = found->second;
    return true;
  }));
  for (int id = 1; id <= 3; ++id) {
    auto found = find_coordinator(c.broker(id).kafka_port(), group);
    BOOST_REQUIRE(found);
    BOOST_TEST(found->first == 0);
    BOOST_TEST(found->second == coordinator);
  }

  // Killed: once its session expires, nobody coordinates the group (replication factor 1).
  auto other = coordinator == 1 ? 2 : 1;
  c.broker(coordinator).kill_hard();
  BOOST_REQUIRE(eventually([&] {
    auto found = find_coordinator(c.broker(other).kafka_port(), group);
    return found && found->first == coordinator_not_available;
  }));
  // Restarted with its log dir: it coordinates the group again, from the same offsets.
  c.start(coordinator - 1);
  BOOST_REQUIRE(eventually([&] {
    auto found = find_coordinator(c.broker(other).kafka_port(), group);
    return found && found->first == 0 && found->second == coordinator;
  }));
  produce(100, 120);
  BOOST_TEST((consume() == expected(100, 120)));
}

BOOST_AUTO_TEST_SUITE_END()
