// Client quotas in a real server: set with cafka-configs over the Kafka protocol, enforced
// on real librdkafka producers (cafka-perf) by throttling, kept across a kill -9.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

cafka::test::run_result configs(const cafka::test::server_process& server, std::vector<std::string> args) {
  std::vector<std::string> argv{CAFKA_BINARY_DIR "/bin/cafka-configs", "--bootstrap-server", server.bootstrap()};
  argv.insert(argv.end(), args.begin(), args.end());
  return cafka::test::run(argv, "", 60s);
}

cafka::test::run_result produce(const cafka::test::server_process& server, const std::string& client_id,
                                const std::string& topic, int records) {
  return cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-perf", "--bootstrap-server", server.bootstrap(), "--phases",
                           "produce", "--topic", topic, "--records", std::to_string(records), "--record-size", "1000",
                           "--producer-property", "client.id=" + client_id, "--timeout-ms", "120000"},
                          "", 300s);
}

// The "N MB/s" cafka-perf printed.
double mb_per_s(const std::string& out) {
  auto at = out.find(" MB/s");
  BOOST_REQUIRE(at != std::string::npos);
  auto start = out.rfind(' ', at - 1);
  return std::atof(out.substr(start + 1, at - start - 1).c_str());
}

} // namespace

BOOST_AUTO_TEST_SUITE(client_quotas)

// 20 MB under a 1 MB/s produce quota: Kafka's window lets the first ~10 MB through, the
// rest at the quota, so the client cannot average more than about 2 MB/s however fast the
// machine (an upper bound only: a slow machine only lowers it). A client without a quota,
// producing at the same time, is not held to it.
BOOST_AUTO_TEST_CASE(a_client_over_its_produce_quota_is_held_to_it_and_others_are_not) {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path};
  auto set = configs(server, {"--alter", "--entity-type", "clients", "--entity-name", "slow", "--add-config",
                              "producer_byte_rate=1048576"});
  BOOST_REQUIRE_MESSAGE(set.code == 0, show(set));
  BOOST_TEST(set.out.find("Completed updating config for client-id 'slow'.") != std::string::npos, set.out);
  auto slow = std::async(std::launch::async, [&] { return produce(server, "slow", "quota-slow", 20000); });
  auto fast = produce(server, "fast", "quota-fast", 100000);
  auto held = slow.get();
  BOOST_REQUIRE_MESSAGE(held.code == 0, show(held));
  BOOST_REQUIRE_MESSAGE(fast.code == 0, show(fast));
  BOOST_TEST(held.out.find(" 0 delivery errors") != std::string::npos, held.out);
  BOOST_TEST(fast.out.find(" 0 delivery errors") != std::string::npos, fast.out);
  BOOST_TEST_MESSAGE("throttled " << mb_per_s(held.out) << " MB/s, unthrottled " << mb_per_s(fast.out) << " MB/s");
  BOOST_TEST(mb_per_s(held.out) < 2.5, held.out);
  BOOST_TEST(mb_per_s(fast.out) > 2 * mb_per_s(held.out), fast.out);

  // Acknowledged, so kept: after a kill -9 the quota is still there.
  server.kill_hard();
  cafka::test::server_process again{dir.path};
  auto described = configs(again, {"--describe", "--entity-type", "clients"});
  BOOST_REQUIRE_MESSAGE(described.code == 0, show(described));
  BOOST_TEST(described.out == "Quota configs for client-id 'slow' are producer_byte_rate=1048576.0\n");
  auto bad = configs(again, {"--alter", "--client", "x", "--add-config", "producer_byte_rate=-5"});
  BOOST_TEST(bad.code == 1);
  BOOST_TEST(bad.err.find("must be greater than 0") != std::string::npos, bad.err);
}

BOOST_AUTO_TEST_SUITE_END()
