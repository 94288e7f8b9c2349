// Committed offsets survive a restart: kcat -G (librdkafka 2.0.2) consumes a topic and
// commits as it leaves, the cafka-server process is stopped and started again on the same
// log dir, and a second kcat -G run of the same group reads only the records produced after
// the first run's commits (the offsets came back from __consumer_offsets). The log dir is
// marked cleanly shut down, and the internal topic is neither listed by Metadata nor
// creatable as a normal topic. Every wait is bounded by a generous deadline that only
// stops a hang; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cluster/offsets_partition.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string topic = "restart-group";

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

struct kcat_against {
  const cafka::test::server_process& server;

  cafka::test::run_result operator()(std::vector<std::string> args, const std::string& input = "") const {
    args.insert(args.begin(), {kcat_bin, "-b", server.bootstrap()});
    return cafka::test::run(args, input, 120s);
  }

  void produce(int from, int to) const {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "line-" + std::to_string(i) + "\n";
    auto produced = (*this)({"-P", "-t", topic}, input);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  }

  // Until every assigned partition reached its end (-e); values only.
  std::multiset<std::string> consume() const {
    auto consumed = (*this)({"-G", "restart-readers", topic, "-e", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -G: " << show(consumed));
    auto got = cafka::test::lines(consumed.out);
    return std::multiset<std::string>(got.begin(), got.end());
  }
};

std::multiset<std::string> expected(int from, int to) {
  std::multiset<std::string> out;
  for (int i = from; i < to; ++i)
    out.insert("line-" + std::to_string(i));
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(offsets_restart)

BOOST_AUTO_TEST_CASE(kcat_resumes_from_offsets_committed_before_a_restart) {
  cafka::test::scratch_dir dir;
  {
    cafka::test::server_process server{dir.path};
    auto created = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                     "127.0.0.1:" + std::to_string(server.kafka_port()), "--create", "--topic",
                                     topic, "--partitions", "3"},
                                    "", 60s);
    BOOST_REQUIRE_MESSAGE(created.code == 0, "cafka-topics --create: " << show(created));
    kcat_against kcat{server};
    kcat.produce(0, 200);
    BOOST_TEST((kcat.consume() == expected(0, 200)));
    kcat.produce(200, 230); // after the commits: the second run must read exactly these
    BOOST_CHECK_EQUAL(server.stop(), 0);
  }
  // The shutdown checkpoint covers __consumer_offsets too, else the dir is not marked clean.
  BOOST_TEST(std::filesystem::exists(dir.path + "/.cafka-clean-shutdown"));
  // The group's offsets are in its partition of the 50 (offsets.topic.num.partitions), Kafka's
  // partitionFor, and no other partition's folder was created.
  auto home = "__consumer_offsets-" + std::to_string(cafka::cluster::offsets_partition_for("restart-readers", 50));
  BOOST_TEST(std::filesystem::exists(dir.path + "/" + home), home);
  for (int32_t p = 0; p < 50; ++p) {
    auto folder = "__consumer_offsets-" + std::to_string(p);
    if (folder != home)
      BOOST_TEST(!std::filesystem::exists(dir.path + "/" + folder), folder);
  }
  cafka::test::server_process server{dir.path};
  kcat_against kcat{server};
  BOOST_TEST((kcat.consume() == expected(200, 230)));
  auto listed = kcat({"-L"});
  BOOST_REQUIRE_MESSAGE(listed.code == 0, "kcat -L: " << show(listed));
  BOOST_TEST(listed.out.find(topic) != std::string::npos, listed.out);
  BOOST_TEST(listed.out.find("__consumer_offsets") == std::string::npos, listed.out);
  // Nor can a client create it as a normal topic over the log the offsets live in.
  auto internal = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                    "127.0.0.1:" + std::to_string(server.kafka_port()), "--create", "--topic",
                                    "__consumer_offsets", "--partitions", "1"},
                                   "", 60s);
  BOOST_TEST(internal.code != 0, show(internal));
  BOOST_TEST((kcat.consume().empty())); // the offsets are still there
  BOOST_CHECK_EQUAL(server.stop(), 0);
}

BOOST_AUTO_TEST_SUITE_END()
