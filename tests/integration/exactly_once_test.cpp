// cafka-example-exactly-once (examples/exactly_once.cpp) against a real cafka-server:
// killed with SIGKILL at random points over many rounds, then run to the end, its output
// holds every produced record exactly once (none missing, none twice). The kill delays
// come from a seeded std::mt19937; the seed is printed (run with --log_level=message)
// and can be set with CAFKA_EO_SEED to repeat a run. Also: a state dir that is damaged
// or belongs to another topic is refused with a clear error. No timing is asserted.
#include <boost/test/unit_test.hpp>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "actors/errors.hpp"
#include "client/producer.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/native_client.hpp"
#include "tests/integration/server_process.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

const std::string exactly_once_bin = CAFKA_BINARY_DIR "/bin/cafka-example-exactly-once";

std::string slurp(const std::string& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out{path, std::ios::trunc};
  out << content;
}

// The "output-records" value of a checkpoint file (0 if there is none yet).
long committed_records(const std::string& state_dir) {
  std::istringstream in{slurp(state_dir + "/checkpoint")};
  for (std::string line; std::getline(in, line);)
    if (line.rfind("output-records ", 0) == 0)
      return std::stol(line.substr(15));
  return 0;
}

// The "dropped N uncommitted bytes" of the example's start line.
long dropped_bytes(const std::string& out) {
  auto at = out.find("dropped ");
  return at == std::string::npos ? -1 : std::stol(out.substr(at + 8));
}

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

} // namespace

BOOST_AUTO_TEST_SUITE(exactly_once_example)

BOOST_FIXTURE_TEST_CASE(kill_9_at_random_points_then_every_record_exactly_once, fixture) {
  create_topic("eo", 3);
  constexpr int n = 3000;
  std::map<std::pair<int32_t, int64_t>, std::string> produced; // (partition, offset) -> value
  {
    client::producer_config pc;
    pc.batch_size = 256; // small batches, so a fetch of --max-bytes holds a few of them
    client::producer p{client.sys, node, pc};
    std::vector<std::pair<std::string, client::producer::result_future>> futures;
    for (int i = 0; i < n; ++i) {
      auto value = "record-" + std::to_string(i);
      futures.emplace_back(value, p.send("eo", "key-" + std::to_string(i), value));
    }
    BOOST_REQUIRE(!p.flush());
    for (auto& [value, f] : futures) {
      BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
      auto md = f.get();
      BOOST_REQUIRE_MESSAGE(md, (md ? std::string{"ok"} : describe(md.error())));
      produced[{md->partition, md->offset}] = value;
    }
  }
  BOOST_REQUIRE(produced.size() == static_cast<size_t>(n));

  auto seed = std::random_device{}();
  if (auto s = std::getenv("CAFKA_EO_SEED"))
    seed = static_cast<unsigned>(std::stoul(s));
  BOOST_TEST_MESSAGE("exactly_once: kill delays from std::mt19937 seed " << seed << " (CAFKA_EO_SEED)");
  std::mt19937 rng{seed};
  std::uniform_int_distribution<int> delay_ms{20, 400};
  auto state = dir.path + "/state";
  const std::vector<std::string> args{exactly_once_bin, bootstrap,       "--topic=eo", "--state-dir=" + state,
                                      "--max-bytes=512", "--pause-ms=30"};
  constexpr int rounds = 20;
  int tails_dropped = 0;
  for (int round = 0; round < rounds; ++round) {
    auto delay = std::chrono::milliseconds(delay_ms(rng));
    test::child example{args};
    std::this_thread::sleep_for(delay);
    auto pid = example.pid();
    BOOST_REQUIRE_MESSAGE(pid > 0, "the example did not start");
    ::kill(pid, SIGKILL); // not reaped yet, so the PID is still the example's
    auto res = example.wait(30s);
    // Without --exit-at-end it never ends by itself: anything but SIGKILL is a failure.
    BOOST_REQUIRE_MESSAGE(res.code == 128 + SIGKILL, "round " << round << ": exit code " << res.code << "\n"
                                                               << res.out << res.err);
    if (dropped_bytes(res.out) > 0)
      ++tails_dropped;
    BOOST_TEST_MESSAGE("round " << round << ": killed after " << delay.count() << " ms, "
                                << committed_records(state) << " records committed");
  }
  BOOST_TEST_MESSAGE("starts that dropped an uncommitted tail: " << tails_dropped);

  auto final_run = test::run({exactly_once_bin, bootstrap, "--topic=eo", "--state-dir=" + state, "--exit-at-end"});
  BOOST_REQUIRE_MESSAGE(final_run.code == 0, final_run.out << final_run.err);
  BOOST_TEST_MESSAGE(final_run.out);
  BOOST_TEST(final_run.out.find("output holds 3000 records") != std::string::npos, final_run.out);

  // Every produced record exactly once: each line names a produced (partition, offset)
  // with its value, no pair twice, and as many lines as records.
  auto output = slurp(state + "/output");
  std::set<std::pair<int32_t, int64_t>> seen;
  size_t lines = 0, duplicates = 0, unknown = 0;
  std::istringstream in{output};
  for (std::string line; std::getline(in, line); ++lines) {
    std::istringstream fields{line};
    int32_t partition = -1;
    int64_t offset = -1;
    std::string value;
    BOOST_REQUIRE_MESSAGE(fields >> partition >> offset >> value, "bad output line '" << line << "'");
    auto it = produced.find({partition, offset});
    if (it == produced.end() || it->second != value)
      ++unknown;
    if (!seen.insert({partition, offset}).second)
      ++duplicates;
  }
  BOOST_TEST(duplicates == 0u);
  BOOST_TEST(unknown == 0u);
  BOOST_TEST(seen.size() == produced.size()); // none missing
  BOOST_TEST(lines == produced.size());

  // Run again at the end: nothing new, the output stays as it is.
  auto again = test::run({exactly_once_bin, bootstrap, "--topic=eo", "--state-dir=" + state, "--exit-at-end"});
  BOOST_REQUIRE_MESSAGE(again.code == 0, again.out << again.err);
  BOOST_TEST(again.out.find("0 records written by this run; output holds 3000 records") != std::string::npos,
             again.out);
  BOOST_TEST(slurp(state + "/output") == output);
}

// These fail before the example connects anywhere, so no server is needed.
BOOST_AUTO_TEST_CASE(bad_arguments_and_bad_state_dirs_are_refused) {
  test::scratch_dir dir;
  auto state = dir.path + "/state";
  auto no_topic = test::run({exactly_once_bin, "--state-dir=" + state});
  BOOST_TEST(no_topic.code == 2);
  BOOST_TEST(no_topic.err.find("--topic and --state-dir are required") != std::string::npos, no_topic.err);

  // A checkpoint of another topic.
  auto start = [&](const std::string& topic) {
    return test::run({exactly_once_bin, "--bootstrap-server=127.0.0.1:1", "--topic=" + topic, "--state-dir=" + state},
                     "", 30s);
  };
  std::filesystem::create_directories(state);
  write_file(state + "/checkpoint", "cafka-exactly-once 1\ntopic other\noutput-bytes 0\noutput-records 0\nend\n");
  auto foreign = start("eo");
  BOOST_TEST(foreign.code == 1);
  BOOST_TEST(foreign.err.find("belongs to topic 'other', not 'eo'") != std::string::npos, foreign.err);

  // An output shorter than the checkpoint says.
  write_file(state + "/checkpoint", "cafka-exactly-once 1\ntopic eo\noutput-bytes 100\noutput-records 3\nend\n");
  write_file(state + "/output", "0 0 x\n");
  auto short_output = start("eo");
  BOOST_TEST(short_output.code == 1);
  BOOST_TEST(short_output.err.find("the state dir is damaged") != std::string::npos, short_output.err);

  // Garbage in the checkpoint.
  write_file(state + "/checkpoint", "cafka-exactly-once 1\ntopic eo\noutput-bytes lots\n");
  auto garbage = start("eo");
  BOOST_TEST(garbage.code == 1);
  BOOST_TEST(garbage.err.find("bad checkpoint line 'output-bytes lots'") != std::string::npos, garbage.err);
}

BOOST_AUTO_TEST_SUITE_END()
