// DeleteRecords with real processes: cafka-delete-records (librdkafka's admin API) moves the
// log start of partitions of a single node, kcat reads from the new start (its "beginning" is
// ListOffsets earliest), and the start survives kill -9; on 3 brokers with replication factor
// 3 the leader answers once its followers moved theirs, and a new leader after kill -9 of the
// old one starts at the same offset. Every wait is bounded; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/cluster_fixture.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
using cafka::test::lines;
using cafka::test::run;
using cafka::test::run_result;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string tool_bin = CAFKA_BINARY_DIR "/bin/cafka-delete-records";
const std::string topics_bin = CAFKA_BINARY_DIR "/bin/cafka-topics";

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out.substr(0, 3000) + "stderr:\n" + r.err.substr(0, 3000);
}

std::string numbered(int from, int count) {
  std::string out;
  for (int i = from; i < from + count; ++i)
    out += "r" + std::to_string(i) + "\n";
  return out;
}

void produce(const std::string& bootstrap, const std::string& topic, int partition, int count) {
  auto r = run({kcat_bin, "-b", bootstrap, "-P", "-t", topic, "-p", std::to_string(partition), "-X", "acks=all"},
               numbered(0, count), 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
}

// The offsets kcat reads from "beginning" to the end of a partition.
std::vector<long long> offsets_from_beginning(const std::string& bootstrap, const std::string& topic, int partition) {
  auto r = run({kcat_bin, "-b", bootstrap, "-C", "-t", topic, "-p", std::to_string(partition), "-o", "beginning", "-e",
                "-f", "%o\\n"},
               "", 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  std::vector<long long> out;
  for (auto& l : lines(r.out))
    if (!l.empty())
      out.push_back(std::stoll(l));
  return out;
}

run_result run_delete_records(const std::string& bootstrap, const std::string& dir, const std::string& json) {
  auto path = dir + "/offsets.json";
  std::ofstream{path} << json;
  return run({tool_bin, "--bootstrap-server", bootstrap, "--offset-json-file", path}, "", 120s);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

BOOST_AUTO_TEST_SUITE(delete_records)

BOOST_AUTO_TEST_CASE(cafka_delete_records_moves_the_log_start_and_it_survives_kill_9) {
  cafka::test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  auto server = std::make_unique<cafka::test::server_process>(logs);
  auto created = run({topics_bin, "--bootstrap-server", server->bootstrap(), "--create", "--topic", "dr",
                      "--partitions", "2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  produce(server->bootstrap(), "dr", 0, 100);
  produce(server->bootstrap(), "dr", 1, 10);

  auto done = run_delete_records(server->bootstrap(), dir.path,
                             R"({"partitions":[{"topic":"dr","partition":0,"offset":40},)"
                             R"({"topic":"dr","partition":1,"offset":-1}],"version":1})");
  BOOST_TEST(done.code == 0, show(done));
  BOOST_TEST(has(done.out, "Executing records delete operation\nRecords delete operation completed:\n"), show(done));
  BOOST_TEST(has(done.out, "partition: dr-0\tlow_watermark: 40\n"), show(done));
  BOOST_TEST(has(done.out, "partition: dr-1\tlow_watermark: 10\n"), show(done));

  auto read = offsets_from_beginning(server->bootstrap(), "dr", 0);
  BOOST_REQUIRE_EQUAL(read.size(), 60u);
  BOOST_TEST(read.front() == 40);
  BOOST_TEST(offsets_from_beginning(server->bootstrap(), "dr", 1).empty());

  // Beyond the high watermark: OFFSET_OUT_OF_RANGE, and nothing moves.
  auto beyond = run_delete_records(server->bootstrap(), dir.path,
                               R"({"partitions":[{"topic":"dr","partition":0,"offset":500}],"version":1})");
  BOOST_TEST(beyond.code == 1, show(beyond));
  BOOST_TEST(has(beyond.out, "partition: dr-0\terror: OFFSET_OUT_OF_RANGE"), show(beyond));
  auto bad_file = run_delete_records(server->bootstrap(), dir.path, R"({"partitions":[{"topic":"dr"}]})");
  BOOST_TEST(bad_file.code == 2, show(bad_file));

  server->kill_hard();
  server.reset();
  server = std::make_unique<cafka::test::server_process>(logs);
  read = offsets_from_beginning(server->bootstrap(), "dr", 0);
  BOOST_REQUIRE_EQUAL(read.size(), 60u);
  BOOST_TEST(read.front() == 40);
  // New records go on after the old end.
  produce(server->bootstrap(), "dr", 0, 5);
  read = offsets_from_beginning(server->bootstrap(), "dr", 0);
  BOOST_TEST(read.size() == 65u);
  BOOST_TEST(read.back() == 104);
}

BOOST_AUTO_TEST_CASE(followers_move_their_log_start_with_the_leader) {
  cafka::test::scratch_dir dir;
  cafka::test::cluster_fixture c{3, 4000};
  auto created = c.create_topic(1, "drr", 1, 3, {"min.insync.replicas=2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  produce(c.bootstrap(1), "drr", 0, 100);
  auto done = run_delete_records(c.bootstrap(2), dir.path,
                             R"({"partitions":[{"topic":"drr","partition":0,"offset":60}],"version":1})");
  BOOST_TEST(done.code == 0, show(done));
  BOOST_TEST(has(done.out, "partition: drr-0\tlow_watermark: 60\n"), show(done));

  auto md = cafka::test::read_metadata(c.bootstrap(1));
  BOOST_REQUIRE(md.ok());
  auto leader = md.topics["drr"][0].leader;
  BOOST_REQUIRE(leader > 0);
  c.kill(leader);
  int32_t via = leader == 1 ? 2 : 1;
  int32_t new_leader = -1;
  bool moved = cafka::test::poll_until(
    [&] {
      auto now = cafka::test::read_metadata(c.bootstrap(via));
      new_leader = now.ok() ? now.topics["drr"][0].leader : -1;
      return new_leader > 0 && new_leader != leader;
    },
    60s);
  BOOST_REQUIRE_MESSAGE(moved, "no new leader for drr-0");
  auto read = offsets_from_beginning(c.bootstrap(via), "drr", 0);
  BOOST_REQUIRE_EQUAL(read.size(), 40u);
  BOOST_TEST(read.front() == 60);
}

BOOST_AUTO_TEST_SUITE_END()
