// kcat (Debian's, librdkafka 2.0.2) as a child process against a cafka-server Kafka
// listener: metadata listing, and 10,000 keyed lines produced and consumed back,
// without compression and with LZ4. Every kcat run is bounded and killed on timeout;
// nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_endpoint.hpp"
#include "tests/integration/rdkafka_features.hpp"

using namespace std::chrono_literals;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";

using cafka::test::lines;
using cafka::test::run_result;

constexpr int keyed_line_count = 10'000;
constexpr int key_count = 37;

// Line i of the producer's input: "key-<i % 37>:value-<i>-<i % 23 x's>" (values of
// varying length, so batches are not uniform).
std::string keyed_line(int i) {
  return "key-" + std::to_string(i % key_count) + ":value-" + std::to_string(i) + "-"
         + std::string(static_cast<size_t>(i % 23), 'x');
}

struct fixture {
  cafka::test::kafka_endpoint broker;

  run_result kcat(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {kcat_bin, "-b", broker.bootstrap()});
    return cafka::test::run(args, input, 120s);
  }

  // Produces keyed_line(0..n), LZ4-compressed or not, consumes the topic from the
  // beginning and checks what came back.
  void round_trip(const std::string& topic, int32_t partitions, bool lz4) {
    broker.create_topic(topic, partitions);
    std::string input;
    for (int i = 0; i < keyed_line_count; ++i)
      input += keyed_line(i) + "\n";
    std::vector<std::string> produce_args{"-P", "-t", topic, "-K:"};
    if (lz4)
      produce_args.insert(produce_args.end(), {"-z", "lz4", "-X", "debug=feature"});
    auto produced = kcat(produce_args, input);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P exited " << produced.code << ": " << produced.err);
    if (lz4) // else uncompressed batches would pass unnoticed
      BOOST_TEST(cafka::test::rdkafka_enabled_lz4(produced.err), "kcat did not enable LZ4: " << produced.err);

    auto consumed = kcat({"-C", "-t", topic, "-e", "-o", "beginning", "-f", "%p %o %k %s\\n"});
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -C exited " << consumed.code << ": " << consumed.err);
    check_consumed(lines(consumed.out), partitions);
  }

  // `got` holds "partition offset key value" lines. Per partition: offsets dense from 0
  // and the lines in production order; per key: exactly its values, in order, all in
  // one partition.
  static void check_consumed(const std::vector<std::string>& got, int32_t partitions) {
    BOOST_REQUIRE_EQUAL(got.size(), static_cast<size_t>(keyed_line_count));
    std::map<int32_t, std::vector<int>> by_partition; // partition -> line numbers, in offset order
    std::map<std::string, std::vector<int>> by_key;   // key -> line numbers
    std::map<std::string, std::set<int32_t>> partitions_of_key;
    for (auto& line : got) {
      // "<p> <o> <key> <value>": key and value contain no blanks.
      auto s1 = line.find(' ');
      auto s2 = line.find(' ', s1 + 1);
      auto s3 = line.find(' ', s2 + 1);
      BOOST_REQUIRE_MESSAGE(s1 != std::string::npos && s2 != std::string::npos && s3 != std::string::npos,
                            "malformed kcat line: " << line);
      auto partition = std::stoi(line.substr(0, s1));
      auto offset = std::stoll(line.substr(s1 + 1, s2 - s1 - 1));
      auto key = line.substr(s2 + 1, s3 - s2 - 1);
      auto value = line.substr(s3 + 1);
      BOOST_REQUIRE_MESSAGE(partition >= 0 && partition < partitions, "partition out of range: " << line);
      auto& seen = by_partition[partition];
      BOOST_REQUIRE_MESSAGE(offset == static_cast<int64_t>(seen.size()),
                            "partition " << partition << ": offset " << offset << " where " << seen.size()
                                         << " was next");
      // The line number is in the value: "value-<i>-xxx".
      BOOST_REQUIRE_MESSAGE(value.rfind("value-", 0) == 0, "unexpected value: " << line);
      auto i = std::stoi(value.substr(6));
      BOOST_REQUIRE_MESSAGE(i >= 0 && i < keyed_line_count && key + ":" + value == keyed_line(i),
                            "record not produced: " << line);
      BOOST_REQUIRE_MESSAGE(seen.empty() || seen.back() < i,
                            "partition " << partition << " out of order: line " << i << " after " << seen.back());
      seen.push_back(i);
      by_key[key].push_back(i);
      partitions_of_key[key].insert(partition);
    }
    for (int k = 0; k < key_count; ++k) {
      auto key = "key-" + std::to_string(k);
      std::vector<int> expected;
      for (int i = k; i < keyed_line_count; i += key_count)
        expected.push_back(i);
      BOOST_TEST((by_key[key] == expected), key << ": wrong records");
      BOOST_TEST(partitions_of_key[key].size() == 1u, key << " is in several partitions");
    }
    // With 37 keys over the partitions, every partition has records.
    BOOST_TEST(by_partition.size() == static_cast<size_t>(partitions));
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(kcat)

BOOST_FIXTURE_TEST_CASE(metadata_lists_the_broker_and_the_topics, fixture) {
  broker.create_topic("orders", 4);
  broker.create_topic("metrics", 1);
  auto listed = kcat({"-L"});
  BOOST_REQUIRE_MESSAGE(listed.code == 0, "kcat -L exited " << listed.code << ": " << listed.err);
  auto& out = listed.out;
  BOOST_TEST_MESSAGE(out);
  BOOST_TEST(out.find(" 1 brokers:\n") != std::string::npos, out);
  BOOST_TEST(out.find("  broker " + std::to_string(broker.broker_id()) + " at " + broker.bootstrap())
               != std::string::npos,
             out);
  BOOST_TEST(out.find("  topic \"orders\" with 4 partitions:\n") != std::string::npos, out);
  BOOST_TEST(out.find("  topic \"metrics\" with 1 partitions:\n") != std::string::npos, out);
  auto leader = "leader " + std::to_string(broker.broker_id());
  for (int p = 0; p < 4; ++p)
    BOOST_TEST(out.find("    partition " + std::to_string(p) + ", " + leader) != std::string::npos, out);

  // One topic only.
  auto one = kcat({"-L", "-t", "orders"});
  BOOST_REQUIRE_MESSAGE(one.code == 0, one.err);
  BOOST_TEST(one.out.find("topic \"orders\" with 4 partitions:") != std::string::npos, one.out);
  BOOST_TEST(one.out.find("metrics") == std::string::npos, one.out);
}

BOOST_FIXTURE_TEST_CASE(keyed_lines_round_trip_uncompressed, fixture) {
  round_trip("plain", 4, false);
}

BOOST_FIXTURE_TEST_CASE(keyed_lines_round_trip_lz4, fixture) {
  round_trip("squeezed", 4, true);
}

BOOST_AUTO_TEST_SUITE_END()
