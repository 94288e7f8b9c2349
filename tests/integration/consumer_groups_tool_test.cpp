// cafka-consumer-groups against a real cafka-server, with kcat (librdkafka) as the group's
// consumer: --list, --describe (committed offsets, log ends, lag, members), and
// --reset-offsets (dry run, --execute to the earliest / a given offset, refused while a
// member is in the group), --delete-offsets and --delete (refused while a member consumes;
// an Empty group loses a partition's offset, then itself). Every wait is bounded; nothing
// asserts on timing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

const std::string groups_bin = CAFKA_BINARY_DIR "/bin/cafka-consumer-groups";
const std::string topics_bin = CAFKA_BINARY_DIR "/bin/cafka-topics";
const std::string kcat_bin = "/usr/bin/kcat";

using cafka::test::lines;
using cafka::test::run;
using cafka::test::run_result;

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

// One --describe row: partition -> (current offset, log end offset, lag, consumer id), as text.
struct row {
  std::string current, end, lag, consumer;
};

struct fixture {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path + "/logs"};
  std::string kafka_bootstrap = server.bootstrap();
  const std::string topic = "cg";
  const std::string group = "cg-readers";

  run_result groups(std::vector<std::string> args) {
    args.insert(args.begin(), {groups_bin, "--bootstrap-server", kafka_bootstrap});
    return run(args);
  }
  run_result kcat(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {kcat_bin, "-b", server.bootstrap()});
    return run(args, input, 120s);
  }
  void produce(int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "k" + std::to_string(i) + ":line-" + std::to_string(i) + "\n";
    // Keyed, so that every partition gets records (and a commit) whatever the partitioner's luck.
    auto produced = kcat({"-P", "-t", topic, "-K", ":"}, input);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));
  }
  // Consumes in the group until the end of every partition; kcat commits when it leaves.
  size_t consume() {
    auto consumed = kcat({"-G", group, topic, "-e", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, show(consumed));
    return lines(consumed.out).size();
  }
  std::map<int, row> describe() {
    auto d = groups({"--describe", "--group", group});
    BOOST_REQUIRE_MESSAGE(d.code == 0, show(d));
    std::map<int, row> out;
    std::regex pattern{"^" + group + " +" + topic + " +([0-9]+) +(\\S+) +(\\S+) +(\\S+) +(\\S+).*"};
    for (auto& line : lines(d.out)) {
      std::smatch m;
      if (std::regex_match(line, m, pattern))
        out[std::stoi(m[1])] = row{m[2], m[3], m[4], m[5]};
    }
    return out;
  }
  long total(const std::map<int, row>& rows, std::string row::*field) {
    long sum = 0;
    for (auto& [_, r] : rows)
      sum += std::stol(r.*field);
    return sum;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(consumer_groups_tool, fixture)

BOOST_AUTO_TEST_CASE(lists_describes_and_resets_a_kcat_group) {
  auto created = run({topics_bin, "--bootstrap-server", kafka_bootstrap, "--create", "--topic", topic, "--partitions", "3"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  produce(0, 30);
  BOOST_TEST(consume() == 30u);

  auto listed = groups({"--list"});
  BOOST_REQUIRE_MESSAGE(listed.code == 0, show(listed));
  BOOST_TEST(listed.out.find(group + "\n") != std::string::npos, listed.out);

  // Everything consumed and committed: no lag; the group is empty now.
  auto rows = describe();
  BOOST_REQUIRE_EQUAL(rows.size(), 3u);
  BOOST_TEST(total(rows, &row::current) == 30);
  BOOST_TEST(total(rows, &row::end) == 30);
  BOOST_TEST(total(rows, &row::lag) == 0);
  for (auto& [_, r] : rows)
    BOOST_TEST(r.consumer == "-");

  produce(30, 36);
  BOOST_TEST(total(describe(), &row::lag) == 6);

  // A dry run prints the plan and stores nothing.
  auto dry = groups({"--reset-offsets", "--group", group, "--topic", topic, "--to-earliest"});
  BOOST_REQUIRE_MESSAGE(dry.code == 0, show(dry));
  BOOST_TEST(dry.out.find("dry run") != std::string::npos, dry.out);
  BOOST_TEST(total(describe(), &row::current) == 30);

  auto reset = groups({"--reset-offsets", "--group", group, "--all-topics", "--to-earliest", "--execute"});
  BOOST_REQUIRE_MESSAGE(reset.code == 0, show(reset));
  rows = describe();
  BOOST_TEST(total(rows, &row::current) == 0);
  BOOST_TEST(total(rows, &row::lag) == 36);
  // kcat now reads everything again from the reset offsets.
  BOOST_TEST(consume() == 36u);
  BOOST_TEST(total(describe(), &row::lag) == 0);

  reset = groups({"--reset-offsets", "--group", group, "--topic", topic, "--to-offset", "2", "--execute"});
  BOOST_REQUIRE_MESSAGE(reset.code == 0, show(reset));
  for (auto& [_, r] : describe())
    BOOST_TEST(r.current == "2");
  reset = groups({"--reset-offsets", "--group", group, "--topic", topic, "--to-latest", "--execute"});
  BOOST_REQUIRE_MESSAGE(reset.code == 0, show(reset));
  BOOST_TEST(total(describe(), &row::lag) == 0);
}

BOOST_AUTO_TEST_CASE(a_group_with_a_member_is_described_with_it_and_not_reset) {
  auto created = run({topics_bin, "--bootstrap-server", kafka_bootstrap, "--create", "--topic", topic, "--partitions", "2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  produce(0, 10);
  // A member that stays (no -e) until the test kills it.
  cafka::test::child member{{kcat_bin, "-b", server.bootstrap(), "-G", group, topic, "-X", "auto.offset.reset=earliest",
                             "-X", "client.id=cg-member"}};
  std::map<int, row> rows;
  for (int i = 0; i < 120 && (rows.size() < 2 || rows.begin()->second.consumer == "-"); ++i) {
    std::this_thread::sleep_for(500ms);
    auto listed = groups({"--list"});
    if (listed.out.find(group) != std::string::npos)
      rows = describe();
  }
  BOOST_REQUIRE_EQUAL(rows.size(), 2u);
  for (auto& [_, r] : rows)
    BOOST_TEST(r.consumer.rfind("cg-member", 0) == 0, r.consumer); // member ids start with the client id
  auto d = groups({"--describe", "--group", group});
  BOOST_TEST(d.out.find("Stable") != std::string::npos, d.out);

  auto refused = groups({"--reset-offsets", "--group", group, "--all-topics", "--to-earliest", "--execute"});
  BOOST_TEST(refused.code == 1, show(refused));
  BOOST_TEST(refused.err.find("inactive") != std::string::npos, refused.err);

  auto unknown = groups({"--describe", "--group", "nobody"});
  BOOST_TEST(unknown.code == 1);
  BOOST_TEST(unknown.err.find("does not exist") != std::string::npos, unknown.err);
  auto bad = groups({"--reset-offsets", "--group", group, "--to-earliest", "--execute"});
  BOOST_TEST(bad.code == 2, show(bad)); // neither --topic nor --all-topics

  // While the member reads the topic, neither its offsets nor the group can be deleted.
  auto subscribed = groups({"--delete-offsets", "--group", group, "--topic", topic + ":0,1"});
  BOOST_TEST(subscribed.code == 1, show(subscribed));
  BOOST_TEST(subscribed.out.find("Error: GROUP_SUBSCRIBED_TO_TOPIC") != std::string::npos, show(subscribed));
  auto busy = groups({"--delete", "--group", group});
  BOOST_TEST(busy.code == 1, show(busy));
  BOOST_TEST(busy.err.find("NON_EMPTY_GROUP") != std::string::npos, busy.err);
}

BOOST_AUTO_TEST_CASE(an_empty_group_loses_offsets_then_itself) {
  auto created = run({topics_bin, "--bootstrap-server", kafka_bootstrap, "--create", "--topic", topic, "--partitions", "2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  produce(0, 10);
  BOOST_TEST(consume() == 10u); // commits both partitions as it leaves: the group is Empty
  BOOST_REQUIRE_EQUAL(describe().size(), 2u);

  auto one = groups({"--delete-offsets", "--group", group, "--topic", topic + ":0"});
  BOOST_REQUIRE_MESSAGE(one.code == 0, show(one));
  BOOST_TEST(one.out.find("Successful") != std::string::npos, one.out);
  auto rows = describe();
  BOOST_TEST(rows.size() == 1u);
  BOOST_TEST(rows.count(1) == 1u); // partition 0's commit is gone

  auto deleted = groups({"--delete", "--group", group});
  BOOST_REQUIRE_MESSAGE(deleted.code == 0, show(deleted));
  BOOST_TEST(deleted.out.find("Deletion of requested consumer groups ('" + group + "') was successful.")
               != std::string::npos,
             deleted.out);
  auto listed = groups({"--list"});
  BOOST_TEST(listed.out.find(group) == std::string::npos, listed.out);
  BOOST_TEST(groups({"--describe", "--group", group}).err.find("does not exist") != std::string::npos);
  auto again = groups({"--delete", "--group", group});
  BOOST_TEST(again.code == 1, show(again));
  BOOST_TEST(again.err.find("GROUP_ID_NOT_FOUND") != std::string::npos, again.err);
  // A new consumer of the same group id starts over: nothing committed survives.
  BOOST_TEST(consume() == 10u);
}

BOOST_AUTO_TEST_SUITE_END()
