// kafka-python 2.0.2 (Debian's python3-kafka) against a cafka-server Kafka listener:
// tests/integration/kafka_python_roundtrip.py run as a child process with /usr/bin/python3
// (Debian's interpreter, which has the module; not whatever python3 is first on PATH).
// The script does the checking and exits non-zero with its reason; the test bounds it
// and shows its output on failure.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_endpoint.hpp"

using namespace std::chrono_literals;

namespace {

const std::string python_bin = "/usr/bin/python3";
const std::string script = CAFKA_SOURCE_DIR "/tests/integration/kafka_python_roundtrip.py";

// The script's own deadlines are shorter; this only stops a hung interpreter.
constexpr auto script_limit = 420s;

cafka::test::run_result run_script(std::vector<std::string> args) {
  args.insert(args.begin(), {python_bin, script});
  return cafka::test::run(args, "", script_limit);
}

} // namespace

BOOST_AUTO_TEST_SUITE(kafka_python)

BOOST_AUTO_TEST_CASE(ten_thousand_keyed_records_round_trip_with_assigned_partitions) {
  cafka::test::kafka_endpoint broker;
  broker.create_topic("py-round-trip", 3);
  auto res = run_script({"round-trip", "--bootstrap", broker.bootstrap(), "--topic", "py-round-trip", "--partitions",
                         "3", "--records", "10000"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, "kafka_python_roundtrip.py round-trip exited " << res.code << "\nstdout:\n"
                                                                                      << res.out << "stderr:\n"
                                                                                      << res.err);
  BOOST_TEST(res.out == "round trip ok: 10000 records over 3 partitions\n");
}

BOOST_AUTO_TEST_CASE(admin_client_creates_lists_and_deletes_a_topic) {
  cafka::test::kafka_endpoint broker;
  if (broker.is_mock()) { // librdkafka's mock broker has no CreateTopics/DeleteTopics
    BOOST_TEST_MESSAGE("skipped against the mock broker");
    return;
  }
  auto res = run_script({"admin", "--bootstrap", broker.bootstrap(), "--topic", "py-admin"});
  BOOST_REQUIRE_MESSAGE(res.code == 0, "kafka_python_roundtrip.py admin exited " << res.code << "\nstdout:\n"
                                                                                 << res.out << "stderr:\n"
                                                                                 << res.err);
  BOOST_TEST(res.out == "admin ok: created, listed, described and deleted py-admin\n");
}

BOOST_AUTO_TEST_SUITE_END()
