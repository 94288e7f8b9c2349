// Groups survive a broker (issue 14, point 7), with real processes: ZooKeeper and three
// cafka-server brokers; __consumer_offsets and the data topic have three replicas. A kcat -G
// group and a kafka-python group (same coordinator) consume and commit; the coordinator is
// killed with kill -9; once another broker leads the groups' offsets partition (it loaded the
// committed offsets from its replica), both groups resume from their committed positions:
// they get exactly the records produced after the kill, nothing from the start again.
//
// Every wait is bounded; every process is stopped by its PID.
#include <boost/test/unit_test.hpp>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/cluster_fixture.hpp"
#include "tests/integration/kafka_socket.hpp"

using namespace std::chrono_literals;
using cafka::test::run_result;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string python_bin = "/usr/bin/python3";
const std::string commit_script = CAFKA_SOURCE_DIR "/tests/integration/kafka_python_commit.py";

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// The coordinator broker `via` names for `group` (-1 while it names none).
int32_t coordinator_of(cafka::test::cluster_fixture& c, int32_t via, const std::string& group) {
  auto found = cafka::test::find_coordinator(c.broker(via).kafka_port(), group);
  return found && found->first == 0 ? found->second : -1;
}

std::multiset<std::string> values(int from, int to) {
  std::multiset<std::string> out;
  for (int i = from; i < to; ++i)
    out.insert("line-" + std::to_string(i));
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(offsets_failover)

BOOST_AUTO_TEST_CASE(kcat_and_kafka_python_groups_resume_from_their_commits_after_kill_9_of_the_coordinator) {
  // Three replicas for __consumer_offsets (the default factor) and few partitions of it.
  cafka::test::cluster_fixture c{3, 6000, {"offsets.topic.num.partitions=6"}};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  const std::string topic = "survive";
  auto created = c.create_topic(1, topic, 3, 3, {});
  BOOST_REQUIRE_MESSAGE(created.code == 0, "cafka-topics --create: " << show(created));
  auto bootstrap = [&] {
    std::string out;
    for (auto id : c.running_ids())
      out += (out.empty() ? "" : ",") + c.bootstrap(id);
    return out;
  };
  auto produce = [&](int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "line-" + std::to_string(i) + "\n";
    auto produced = cafka::test::run({kcat_bin, "-b", bootstrap(), "-P", "-t", topic, "-X", "acks=all"}, input, 120s);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  };
  auto kcat_group = [&](const std::string& group) {
    auto consumed = cafka::test::run({kcat_bin, "-b", bootstrap(), "-G", group, topic, "-e", "-X",
                                      "auto.offset.reset=earliest", "-f", "%s\\n"},
                                     "", 180s);
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -G: " << show(consumed));
    auto got = cafka::test::lines(consumed.out);
    return std::multiset<std::string>(got.begin(), got.end());
  };
  auto python_group = [&](const std::string& group, int count) {
    auto consumed = cafka::test::run({python_bin, commit_script, "consume", "--bootstrap", bootstrap(), "--topic",
                                      topic, "--group", group, "--count", std::to_string(count)},
                                     "", 240s);
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kafka_python_commit.py: " << show(consumed));
    std::multiset<std::string> out;
    for (auto& line : cafka::test::lines(consumed.out))
      if (line.rfind("value ", 0) == 0)
        out.insert(line.substr(6));
    return out;
  };

  produce(0, 100);
  const std::string kcat_name = "kcat-survivors";
  // The first lookup creates __consumer_offsets; every broker then names one coordinator.
  int32_t coordinator = -1;
  BOOST_REQUIRE(cafka::test::poll_until([&] { return (coordinator = coordinator_of(c, 1, kcat_name)) > 0; }, 90s));
  // A kafka-python group with the same coordinator (another partition or the same).
  std::string python_name;
  for (int i = 0; i < 100 && python_name.empty(); ++i) {
    auto candidate = "python-survivors-" + std::to_string(i);
    if (coordinator_of(c, 1, candidate) == coordinator)
      python_name = candidate;
  }
  BOOST_REQUIRE_MESSAGE(!python_name.empty(), "no kafka-python group name maps to broker " << coordinator);

  BOOST_TEST((kcat_group(kcat_name) == values(0, 100)));
  BOOST_TEST((python_group(python_name, 100) == values(0, 100)));

  // kill -9 of the coordinator: another broker comes to lead the partitions (once the
  // killed broker's session expired) and names itself.
  c.kill(coordinator);
  auto other = coordinator == 1 ? 2 : 1;
  int32_t next = -1;
  BOOST_REQUIRE_MESSAGE(cafka::test::poll_until(
                          [&] {
                            next = coordinator_of(c, other, kcat_name);
                            return next > 0 && next != coordinator && coordinator_of(c, other, python_name) == next;
                          },
                          90s),
                        "no new coordinator: " << c.outputs());
  produce(100, 120);
  // Both resume from their commits: only the new records.
  BOOST_TEST((kcat_group(kcat_name) == values(100, 120)));
  BOOST_TEST((python_group(python_name, 20) == values(100, 120)));
  BOOST_TEST(c.history(next).find("coordinating the groups of __consumer_offsets-") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
