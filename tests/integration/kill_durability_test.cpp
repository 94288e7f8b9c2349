// Nothing acknowledged is lost at a kill -9: a single cafka-server is killed (SIGKILL) a
// seeded random 0-2 ms after each acknowledged step, then started again on the same log
// dir, and everything acknowledged so far is checked with real clients. Steps, each round:
// cafka-topics --create; auto-creation by a librdkafka producer's first produce (killed as
// soon as its delivery report is in, in this process); a kcat -G run that
// commits its offsets as it leaves; cafka-topics --delete; a config change (a client quota
// set with cafka-configs: topic configs cannot be changed at run time yet, so a quota is
// the one config an acknowledged answer can change). After each restart: every created
// topic is there with every acknowledged record, a group committed in an earlier step
// reads nothing it already read, no deleted topic comes back, and every quota set is set.
// CAFKA_KILL_ROUNDS (default 3) and CAFKA_KILL_SEED (default 15) choose more or other rounds.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

int env_or(const char* name, int fallback) {
  auto* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

// Auto-creation on (the default), one partition per topic so that reads are in order.
const std::vector<std::string> server_overrides{"num.partitions=1", "auto.create.topics.enable=true",
                                                "delete.topic.enable=true"};

struct killed_server {
  cafka::test::scratch_dir dir;
  std::unique_ptr<cafka::test::server_process> server;
  std::mt19937 rng;

  explicit killed_server(unsigned seed) : rng(seed) { start(); }

  void start() { server = std::make_unique<cafka::test::server_process>(dir.path, server_overrides); }

  // A random 0-2 ms after the acknowledgement, then a restart.
  void kill_and_restart() {
    std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<int>(0, 2000)(rng)));
    server->kill_hard();
    server.reset();
    start();
  }

  cafka::test::run_result kcat(std::vector<std::string> args, const std::string& input = "") const {
    args.insert(args.begin(), {kcat_bin, "-b", server->bootstrap()});
    return cafka::test::run(args, input, 120s);
  }

  cafka::test::run_result topics(std::vector<std::string> args) const {
    args.insert(args.begin(), {CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                               "127.0.0.1:" + std::to_string(server->kafka_port())});
    return cafka::test::run(args, "", 60s);
  }

  cafka::test::run_result configs(std::vector<std::string> args) const {
    args.insert(args.begin(), {CAFKA_BINARY_DIR "/bin/cafka-configs", "--bootstrap-server", server->bootstrap()});
    return cafka::test::run(args, "", 60s);
  }

  std::set<std::string> listed_topics() const {
    auto listed = topics({"--list"});
    BOOST_REQUIRE_MESSAGE(listed.code == 0, "cafka-topics --list: " << show(listed));
    auto names = cafka::test::lines(listed.out);
    return {names.begin(), names.end()};
  }

  // One record produced by librdkafka (acks=all); returns once its delivery report is in,
  // with the producer, to be destroyed after the kill (its shutdown would delay the kill).
  std::unique_ptr<RdKafka::Producer> produce_one(const std::string& topic, const std::string& value) const {
    struct report : RdKafka::DeliveryReportCb {
      RdKafka::ErrorCode err = RdKafka::ERR__TIMED_OUT;
      bool done = false;
      void dr_cb(RdKafka::Message& m) override {
        err = m.err();
        done = true;
      }
    } delivered;
    std::string err;
    std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
    BOOST_REQUIRE(conf->set("bootstrap.servers", server->bootstrap(), err) == RdKafka::Conf::CONF_OK);
    BOOST_REQUIRE(conf->set("acks", "all", err) == RdKafka::Conf::CONF_OK);
    BOOST_REQUIRE(conf->set("linger.ms", "0", err) == RdKafka::Conf::CONF_OK);
    BOOST_REQUIRE(conf->set("message.timeout.ms", "60000", err) == RdKafka::Conf::CONF_OK);
    BOOST_REQUIRE(conf->set("dr_cb", &delivered, err) == RdKafka::Conf::CONF_OK);
    std::unique_ptr<RdKafka::Producer> producer{RdKafka::Producer::create(conf.get(), err)};
    BOOST_REQUIRE_MESSAGE(producer, "Producer::create: " << err);
    auto e = producer->produce(topic, 0, RdKafka::Producer::RK_MSG_COPY, const_cast<char*>(value.data()),
                               value.size(), nullptr, 0, 0, nullptr);
    BOOST_REQUIRE_MESSAGE(e == RdKafka::ERR_NO_ERROR, "produce: " << RdKafka::err2str(e));
    for (int i = 0; i < 6000 && !delivered.done; ++i) // at most a minute
      producer->poll(10);
    BOOST_REQUIRE_MESSAGE(delivered.done && delivered.err == RdKafka::ERR_NO_ERROR,
                          "delivery to " << topic << ": " << RdKafka::err2str(delivered.err));
    return producer;
  }

  // Every record of `topic` from the beginning, as a reader without a group sees them.
  std::vector<std::string> read_all(const std::string& topic) const {
    auto read = kcat({"-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(read.code == 0, "kcat -C -t " << topic << ": " << show(read));
    return cafka::test::lines(read.out);
  }

  // A group member that reads to the end and commits as it leaves.
  std::vector<std::string> read_as_group(const std::string& group, const std::string& topic) const {
    auto read = kcat({"-G", group, topic, "-e", "-q", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(read.code == 0, "kcat -G " << group << ": " << show(read));
    return cafka::test::lines(read.out);
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(kill_durability)

BOOST_AUTO_TEST_CASE(acknowledged_topics_records_offsets_and_deletions_survive_kill_9) {
  auto seed = static_cast<unsigned>(env_or("CAFKA_KILL_SEED", 15));
  auto rounds = env_or("CAFKA_KILL_ROUNDS", 3);
  BOOST_TEST_MESSAGE("seed " << seed << ", " << rounds << " round(s)");
  killed_server node{seed};
  std::map<std::string, std::vector<std::string>> records; // topic -> acknowledged values
  std::set<std::string> deleted;
  std::map<std::string, std::string> committed_group; // topic -> a group that read all of it
  std::vector<std::string> quota_lines;               // what cafka-configs --describe prints

  auto check_everything = [&](const std::string& after) {
    auto listed = node.listed_topics();
    for (auto& [topic, values] : records) {
      BOOST_REQUIRE_MESSAGE(listed.count(topic) == 1, "after " << after << ": topic " << topic << " is gone");
      BOOST_REQUIRE_MESSAGE(node.read_all(topic) == values, "after " << after << ": records of " << topic);
    }
    for (auto& topic : deleted)
      BOOST_REQUIRE_MESSAGE(listed.count(topic) == 0, "after " << after << ": deleted topic " << topic << " is back");
    for (auto& [topic, group] : committed_group) {
      auto again = node.read_as_group(group, topic);
      BOOST_REQUIRE_MESSAGE(again.empty(), "after " << after << ": group " << group << " read " << again.size()
                                                    << " record(s) of " << topic << " again");
    }
    auto described = node.configs({"--describe", "--entity-type", "clients"});
    BOOST_REQUIRE_MESSAGE(described.code == 0, "cafka-configs --describe: " << show(described));
    auto shown = cafka::test::lines(described.out);
    std::sort(shown.begin(), shown.end());
    BOOST_REQUIRE_MESSAGE(shown == quota_lines, "after " << after << ": quotas are\n" << described.out);
  };

  for (int round = 0; round < rounds; ++round) {
    auto tag = std::to_string(round);
    // 1. CreateTopics, then a produce into it.
    auto created_topic = "created-" + tag;
    auto created = node.topics({"--create", "--topic", created_topic, "--partitions", "1"});
    BOOST_REQUIRE_MESSAGE(created.code == 0, "cafka-topics --create: " << show(created));
    records[created_topic] = {};
    node.kill_and_restart();
    check_everything("the creation of " + created_topic);

    // 2. The first produce to a topic that does not exist yet (auto-creation).
    auto auto_topic = "auto-" + tag;
    auto producer = node.produce_one(auto_topic, "first-" + tag);
    records[auto_topic] = {"first-" + tag};
    node.kill_and_restart();
    producer.reset();
    check_everything("the first produce to " + auto_topic);

    // 3. Offsets committed by a group member as it leaves.
    auto more = node.kcat({"-P", "-t", created_topic}, "a-" + tag + "\nb-" + tag + "\n");
    BOOST_REQUIRE_MESSAGE(more.code == 0, "kcat -P: " << show(more));
    records[created_topic] = {"a-" + tag, "b-" + tag};
    auto group = "readers-" + tag;
    BOOST_REQUIRE(node.read_as_group(group, created_topic) == records[created_topic]);
    committed_group[created_topic] = group;
    node.kill_and_restart();
    check_everything("the commit of " + group);

    // 4. A deletion.
    auto doomed = "doomed-" + tag;
    BOOST_REQUIRE(node.topics({"--create", "--topic", doomed, "--partitions", "1"}).code == 0);
    auto removed = node.topics({"--delete", "--topic", doomed});
    BOOST_REQUIRE_MESSAGE(removed.code == 0, "cafka-topics --delete: " << show(removed));
    deleted.insert(doomed);
    node.kill_and_restart();
    check_everything("the deletion of " + doomed);

    // 5. A config change.
    auto client = "app-" + tag;
    auto rate = std::to_string(1048576 + round);
    auto set = node.configs({"--alter", "--entity-type", "clients", "--entity-name", client, "--add-config",
                             "producer_byte_rate=" + rate});
    BOOST_REQUIRE_MESSAGE(set.code == 0, "cafka-configs --alter: " << show(set));
    quota_lines.push_back("Quota configs for client-id '" + client + "' are producer_byte_rate=" + rate + ".0");
    std::sort(quota_lines.begin(), quota_lines.end());
    node.kill_and_restart();
    check_everything("the quota of " + client);
  }
}

BOOST_AUTO_TEST_SUITE_END()
