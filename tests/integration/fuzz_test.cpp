// Issue 15 point 6: cafka-fuzz-client (tests/fuzz/fuzz_client.cpp) against a real server:
// CAFKA_FUZZ_REQUESTS mutated requests of every served API (default 20,000 here; scripts/
// fuzz.sh N runs N against the sanitizer build), with a librdkafka producer's records
// checked beside them. The server must stay up, answer kcat afterwards, and stop cleanly.
#include <boost/test/unit_test.hpp>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(fuzz_requests)

BOOST_AUTO_TEST_CASE(mutated_requests_of_every_api_leave_the_broker_serving) {
  auto requests = std::getenv("CAFKA_FUZZ_REQUESTS") ? std::getenv("CAFKA_FUZZ_REQUESTS") : "20000";
  auto seed = std::getenv("CAFKA_FUZZ_SEED") ? std::getenv("CAFKA_FUZZ_SEED") : "1";
  cafka::test::scratch_dir dir;
  // No auto-creation: mutated names would create thousands of topics (the fuzz client
  // creates its checked topic and deletes what mutated CreateTopics requests made).
  cafka::test::server_process server{dir.path, {"auto.create.topics.enable=false"}};
  auto fuzzed = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-fuzz-client", "--bootstrap-server", server.bootstrap(),
                                  "--requests", requests, "--seed", seed, "--connections", "32"},
                                 "", std::chrono::hours(6));
  BOOST_TEST_MESSAGE(fuzzed.out);
  BOOST_TEST(fuzzed.code == 0, "exit " << fuzzed.code << "\n" << fuzzed.out << fuzzed.err);
  BOOST_REQUIRE_MESSAGE(::kill(server.pid(), 0) == 0, "the broker died: " << server.output());
  auto listed = cafka::test::run({"/usr/bin/kcat", "-b", server.bootstrap(), "-L"}, "", 60s);
  BOOST_TEST(listed.code == 0, listed.err);
  BOOST_TEST(server.stop() == 0, server.output().substr(0, 4000));
}

BOOST_AUTO_TEST_SUITE_END()
