// Log compaction with real processes and real clients: a compacted topic written by kcat
// (librdkafka) with random keys, values and tombstones over several rounds, with the server
// stopped or killed (-9) between rounds, is cleaned by the broker's log cleaner; after each
// round kcat, kafka-python and cafka's own consumer read it from the beginning and must see,
// below the cleaner's checkpoint, exactly the last record of every key (a tombstone may be
// gone), and every record after it. The seed is printed (CAFKA_COMPACTION_SEED repeats a run).
// Every wait is bounded; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "storage/segment_name.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/native_client.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
using cafka::test::lines;
using cafka::test::run;
using cafka::test::run_result;
namespace fs = std::filesystem;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string topics_bin = CAFKA_BINARY_DIR "/bin/cafka-topics";
const std::string reader_script = CAFKA_SOURCE_DIR "/tests/integration/kafka_python_read_all.py";
const std::string topic = "compacted";

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out.substr(0, 3000) + "stderr:\n" + r.err.substr(0, 3000);
}

struct model_record {
  std::string key;
  std::optional<std::string> value; ///< nothing: a tombstone
};

/// What a reader saw: offset -> value ("NULL" or "" for a tombstone, as the reader shows it).
using reading = std::vector<std::pair<int64_t, std::string>>;

int64_t read_offset_file(const std::string& path) {
  std::ifstream in(path);
  int64_t v = -1;
  in >> v;
  return in ? v : -1;
}

int64_t active_base(const std::string& partition_dir) {
  int64_t base = 0;
  for (auto& e : fs::directory_iterator(partition_dir))
    if (auto b = cafka::storage::parse_segment_file_name(e.path().filename().string(), cafka::storage::segment_file::log))
      base = std::max(base, *b);
  return base;
}

// Checks a reading against the model: `cleaned_before` is the cleaner's checkpoint taken
// before the read (below it, only the last record of each key may be left), `cleaned_after`
// the one after (from it on, every record must be there).
void check(const std::string& reader, const reading& got, const std::vector<model_record>& model,
           int64_t cleaned_before, int64_t cleaned_after, bool null_is_empty) {
  std::map<std::string, int64_t> last_below; // key -> its last offset below cleaned_before
  for (int64_t o = 0; o < std::min<int64_t>(cleaned_before, static_cast<int64_t>(model.size())); ++o)
    last_below[model[static_cast<size_t>(o)].key] = o;
  std::map<int64_t, std::string> seen;
  int64_t previous = -1;
  for (auto& [offset, value] : got) {
    BOOST_REQUIRE_MESSAGE(offset > previous, reader << ": offset " << offset << " after " << previous);
    previous = offset;
    BOOST_REQUIRE_MESSAGE(offset >= 0 && offset < static_cast<int64_t>(model.size()), reader << ": offset " << offset << " was never written");
    auto& m = model[static_cast<size_t>(offset)];
    auto expected = m.value ? *m.value : (null_is_empty ? "" : "NULL");
    BOOST_REQUIRE_MESSAGE(value == expected, reader << ": offset " << offset << " holds '" << value << "', not '" << expected << "'");
    if (offset < cleaned_before)
      BOOST_REQUIRE_MESSAGE(last_below[m.key] == offset,
                            reader << ": offset " << offset << " of key " << m.key << " was superseded at " << last_below[m.key]);
    seen[offset] = value;
  }
  for (auto& [key, offset] : last_below)
    if (model[static_cast<size_t>(offset)].value)
      BOOST_REQUIRE_MESSAGE(seen.count(offset) > 0, reader << ": the last value of " << key << " (offset " << offset << ") is gone");
  for (int64_t o = std::max<int64_t>(cleaned_after, 0); o < static_cast<int64_t>(model.size()); ++o)
    BOOST_REQUIRE_MESSAGE(seen.count(o) > 0, reader << ": offset " << o << " (not yet cleaned) is missing");
}

reading read_with_kcat(const std::string& bootstrap) {
  auto r = run({kcat_bin, "-b", bootstrap, "-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-Z", "-f",
                "%o %s\\n"},
               "", 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  reading out;
  for (auto& l : lines(r.out))
    if (auto space = l.find(' '); space != std::string::npos)
      out.emplace_back(std::stoll(l.substr(0, space)), l.substr(space + 1));
  return out;
}

reading read_with_kafka_python(const std::string& bootstrap) {
  auto r = run({"/usr/bin/python3", reader_script, "--bootstrap", bootstrap, "--topic", topic, "--partitions", "1"}, "",
               240s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  reading out;
  for (auto& l : lines(r.out)) {
    auto a = l.find(' ');
    auto b = l.find(' ', a + 1);
    if (a != std::string::npos && b != std::string::npos)
      out.emplace_back(std::stoll(l.substr(a + 1, b - a - 1)), l.substr(b + 1));
  }
  return out;
}

// cafka's consumer: everything up to the last offset the other readers saw.
reading read_with_cafka(uint16_t caf_port, int64_t last_offset) {
  cafka::test::client_system client;
  auto node = client.connect(caf_port);
  auto into = std::make_shared<cafka::test::collected>();
  auto consumer = cafka::test::collect_topic(client.sys, node, topic, 1, into);
  auto reached = cafka::test::wait_until(
    [&] {
      std::lock_guard<std::mutex> g{into->mutex};
      auto& list = into->by_partition[0];
      return !list.empty() && list.back().offset >= last_offset;
    },
    120s);
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  std::lock_guard<std::mutex> g{into->mutex};
  BOOST_REQUIRE_MESSAGE(reached, "cafka's consumer did not reach offset " << last_offset);
  reading out;
  for (auto& r : into->by_partition[0])
    out.emplace_back(r.offset, r.value);
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(compaction)

BOOST_AUTO_TEST_CASE(readers_see_the_last_value_per_key_through_cleans_and_restarts) {
  auto seed = std::getenv("CAFKA_COMPACTION_SEED") ? std::strtoul(std::getenv("CAFKA_COMPACTION_SEED"), nullptr, 10)
                                                   : std::random_device{}();
  BOOST_TEST_MESSAGE("compaction test seed " << seed << " (CAFKA_COMPACTION_SEED)");
  std::mt19937 rng(static_cast<unsigned>(seed));
  cafka::test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  std::vector<std::string> overrides{"log.cleaner.backoff.ms=100", "log.cleaner.dedupe.buffer.size=1048576"};
  auto server = std::make_unique<cafka::test::server_process>(logs, overrides);
  auto created = run({topics_bin, "--bootstrap-server", server->bootstrap(), "--create", "--topic", topic,
                      "--partitions", "1", "--config", "cleanup.policy=compact", "--config", "segment.bytes=2048",
                      "--config", "min.cleanable.dirty.ratio=0.01", "--config", "delete.retention.ms=0"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto partition_dir = logs + "/" + topic + "-0";
  std::vector<model_record> model;
  for (int round = 0; round < 5; ++round) {
    // Random keys (a few hot, many cold), values, and one record in ten a tombstone.
    std::string input;
    int count = 300 + static_cast<int>(rng() % 300);
    for (int i = 0; i < count; ++i) {
      auto key = "k" + std::to_string(rng() % 2 == 0 ? rng() % 8 : rng() % 200);
      std::optional<std::string> value;
      if (rng() % 10 != 0)
        value = key + "-v" + std::to_string(model.size()) + "-" + std::string(rng() % 60, 'x');
      input += key + ":" + value.value_or("") + "\n";
      model.push_back({key, value});
    }
    auto produced = run({kcat_bin, "-b", server->bootstrap(), "-P", "-t", topic, "-p", "0", "-K", ":", "-Z", "-X",
                         "acks=all", "-X", "linger.ms=5", "-X", "batch.num.messages=20"},
                        input, 120s);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));
    // The cleaner gets through everything below the active segment.
    bool cleaned = cafka::test::wait_until(
      [&] { return read_offset_file(partition_dir + "/cleaner-offset") >= active_base(partition_dir); }, 60s);
    BOOST_REQUIRE_MESSAGE(cleaned, "round " << round << ": the cleaner did not catch up (checkpoint "
                                            << read_offset_file(partition_dir + "/cleaner-offset") << ", active segment "
                                            << active_base(partition_dir) << ")\n"
                                            << server->output().substr(0, 4000));
    auto before = read_offset_file(partition_dir + "/cleaner-offset");
    BOOST_TEST_MESSAGE("round " << round << ": " << model.size() << " records, cleaned below " << before);
    auto by_kcat = read_with_kcat(server->bootstrap());
    auto by_python = read_with_kafka_python(server->bootstrap());
    BOOST_REQUIRE(!by_kcat.empty());
    auto by_cafka = read_with_cafka(server->caf_port(), by_kcat.back().first);
    auto after = read_offset_file(partition_dir + "/cleaner-offset");
    check("kcat", by_kcat, model, before, after, false);
    check("kafka-python", by_python, model, before, after, false);
    check("cafka's consumer", by_cafka, model, before, after, true);
    BOOST_TEST(by_kcat.size() < model.size()); // something was cleaned away
    // Between rounds the server stops, or is killed (possibly in the middle of a clean).
    if (round % 2 == 0)
      server->kill_hard();
    else
      BOOST_REQUIRE(server->stop() == 0);
    server.reset();
    server = std::make_unique<cafka::test::server_process>(logs, overrides);
  }
}

BOOST_AUTO_TEST_SUITE_END()
