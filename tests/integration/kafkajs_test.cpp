// kafkajs 2.2.4 (npm; scripts/setup.sh installs it into .node/) against a real cafka-server:
// tests/integration/kafkajs_scenarios.js run with node as a child process. The admin
// client creates a topic with a config, reads the config back, adds partitions and deletes
// the topic; the producer sends gzip batches with keys and headers, which kcat (librdkafka)
// reads back; two members of one group share the records and commit, and a new member
// resumes from the commits with exactly the records produced after them. The script checks
// what it can itself and prints what it saw; this side checks the rest.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_endpoint.hpp"

using namespace std::chrono_literals;

namespace {

const std::string node_bin = "/usr/bin/node";
const std::string script = CAFKA_SOURCE_DIR "/tests/integration/kafkajs_scenarios.js";
const std::string node_modules = CAFKA_SOURCE_DIR "/.node/node_modules";

// The script gives up after 120 s itself; this only stops a hung interpreter.
constexpr auto script_limit = 180s;

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

cafka::test::run_result scenario(const std::string& bootstrap, const std::string& name, const std::string& topic,
                                 int count = 0, int from = 0) {
  struct stat st {};
  BOOST_REQUIRE_MESSAGE(::stat((node_modules + "/kafkajs/package.json").c_str(), &st) == 0,
                        "kafkajs is not installed in " << node_modules << ": run scripts/setup.sh");
  auto r = cafka::test::run({"/usr/bin/env", "NODE_PATH=" + node_modules, node_bin, script, bootstrap, name, topic,
                             std::to_string(count), std::to_string(from)},
                            "", script_limit);
  BOOST_REQUIRE_MESSAGE(r.code == 0, "kafkajs " << name << ": " << show(r));
  return r;
}

// The script's "key=value" lines.
std::map<std::string, std::string> fields(const std::string& out) {
  std::map<std::string, std::string> result;
  for (auto& line : cafka::test::lines(out))
    if (auto eq = line.find('='); eq != std::string::npos)
      result[line.substr(0, eq)] = line.substr(eq + 1);
  return result;
}

} // namespace

BOOST_AUTO_TEST_SUITE(kafkajs)

BOOST_AUTO_TEST_CASE(the_admin_client_creates_configures_grows_and_deletes_a_topic) {
  cafka::test::kafka_endpoint broker;
  auto seen = fields(scenario(broker.bootstrap(), "admin", "kjs-admin").out);
  BOOST_TEST(seen["retention.ms"] == "3600000");
  BOOST_TEST(std::stoi(seen["configs"]) > 20); // the full list of topic configs
  BOOST_TEST(seen["partitions"] == "4");
  BOOST_TEST(seen["deleted"] == "kjs-admin");
}

BOOST_AUTO_TEST_CASE(gzip_records_with_keys_and_headers_and_a_group_that_resumes_from_its_commits) {
  cafka::test::kafka_endpoint broker;
  broker.create_topic("kjs-data", 4);
  scenario(broker.bootstrap(), "produce", "kjs-data", 100);

  // kcat (librdkafka) reads kafkajs' gzip batches: every key, value and header.
  auto read = cafka::test::run({"/usr/bin/kcat", "-b", broker.bootstrap(), "-C", "-t", "kjs-data", "-o", "beginning",
                                "-e", "-q", "-f", "%k %s %h\\n"},
                               "", 120s);
  BOOST_REQUIRE_MESSAGE(read.code == 0, show(read));
  std::set<std::string> lines;
  for (auto& line : cafka::test::lines(read.out))
    lines.insert(line);
  BOOST_TEST(lines.size() == 100u);
  for (int i : {0, 7, 99})
    BOOST_TEST(lines.count("k" + std::to_string(i % 5) + " value-" + std::to_string(i) + " h=v" + std::to_string(i))
                 == 1u,
               "record " << i << " in:\n" << read.out);

  // Two members share the 100 records (each holds partitions), committing as they go.
  auto shared = fields(scenario(broker.bootstrap(), "group", "kjs-data", 100).out);
  BOOST_TEST(shared["members"] == "2");
  BOOST_TEST(shared["records"] == "100");
  auto assigned = shared["assigned"];
  BOOST_TEST((assigned == "2,2" || assigned == "1,3" || assigned == "3,1"), "assignments " << assigned);

  // 10 more; a new member of the group starts from the commits: exactly those 10.
  scenario(broker.bootstrap(), "produce", "kjs-data", 10, 100);
  auto resumed = fields(scenario(broker.bootstrap(), "resume", "kjs-data", 10, 100).out);
  BOOST_TEST(resumed["records"] == "10");
}

// kafkajs' idempotent producer, and its transactional one with sendOffsets (AddOffsetsToTxn,
// TxnOffsetCommit): a read_committed consumer sees the committed transactions and the
// idempotent records once each and nothing of the aborted one; the offset committed in the
// first transaction is the group's.
BOOST_AUTO_TEST_CASE(an_idempotent_and_a_transactional_producer) {
  cafka::test::kafka_endpoint broker;
  broker.create_topic("kjs-txn", 2);
  auto seen = fields(scenario(broker.bootstrap(), "txn", "kjs-txn", 40).out);
  BOOST_TEST(seen["idem"] == "40");
  BOOST_TEST(seen["c"] == "40");
  BOOST_TEST(seen["d"] == "40");
  BOOST_TEST(seen["a"] == "0");
  BOOST_TEST(seen["committed"] == "5");
}

BOOST_AUTO_TEST_SUITE_END()
