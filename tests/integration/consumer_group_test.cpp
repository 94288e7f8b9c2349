// Consumer groups with real clients against a cafka-server Kafka listener:
//  * three kafka-python 2.0.2 consumers share a 6-partition topic 2/2/2, and after one is
//    killed (SIGKILL) the other two take over all 6 and consume every record
//    (tests/integration/kafka_python_group.py does the checking);
//  * kcat -G (librdkafka 2.0.2) joins a group, consumes everything and, run again, resumes
//    from the offsets it committed;
//  * in a group whose kafka-python member offers only "roundrobin", a librdkafka consumer
//    (in this process) offering only "range" gets INCONSISTENT_GROUP_PROTOCOL instead of
//    hanging, while one offering "roundrobin" joins and gets a share;
//  * kafka-python's KafkaAdminClient lists a group with a kafka-python member in it and
//    describes it (state, protocol, the member's subscription and assignment), and an
//    unknown group as Dead (ListGroups, DescribeGroups).
// Every wait is bounded by a generous deadline that only stops a hang; nothing asserts on
// timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <unistd.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_endpoint.hpp"

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

const std::string python_bin = "/usr/bin/python3";
const std::string group_script = CAFKA_SOURCE_DIR "/tests/integration/kafka_python_group.py";
const std::string kcat_bin = "/usr/bin/kcat";

using cafka::test::lines;
using cafka::test::run_result;

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

std::unique_ptr<RdKafka::Conf> make_conf(const std::map<std::string, std::string>& settings) {
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  std::string err;
  for (auto& [k, v] : settings)
    if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
      throw std::runtime_error("librdkafka config " + k + "=" + v + ": " + err);
  return conf;
}

std::unique_ptr<RdKafka::KafkaConsumer> group_consumer(const std::string& bootstrap, const std::string& group,
                                                       const std::string& strategy) {
  auto conf = make_conf({{"bootstrap.servers", bootstrap},
                         {"group.id", group},
                         {"partition.assignment.strategy", strategy},
                         {"session.timeout.ms", "6000"},
                         {"heartbeat.interval.ms", "1000"}});
  std::string err;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer{RdKafka::KafkaConsumer::create(conf.get(), err)};
  if (!consumer)
    throw std::runtime_error("KafkaConsumer::create: " + err);
  return consumer;
}

// A fresh path under /tmp that does not exist yet; removed at destruction.
struct scratch_path {
  std::string path;
  scratch_path() {
    char tmpl[] = "/tmp/cafka-it-ready-XXXXXX";
    int fd = ::mkstemp(tmpl);
    ::close(fd);
    path = tmpl;
    ::unlink(path.c_str());
  }
  ~scratch_path() { ::unlink(path.c_str()); }
  bool exists() const { return ::access(path.c_str(), F_OK) == 0; }
};

// librdkafka's mock broker is no reference for these: it refuses kafka-python's JoinGroup v2
// with INVALID_REQUEST and aborts on a group with mixed protocols (rdkafka_mock_cgrp.c).
bool skipped_on_mock(const cafka::test::kafka_endpoint& broker) {
  if (broker.is_mock())
    BOOST_TEST_MESSAGE("skipped against the mock broker");
  return broker.is_mock();
}

} // namespace

BOOST_AUTO_TEST_SUITE(consumer_groups)

BOOST_AUTO_TEST_CASE(three_kafka_python_consumers_share_six_partitions_and_two_take_over_after_a_kill) {
  cafka::test::kafka_endpoint broker;
  if (skipped_on_mock(broker))
    return;
  broker.create_topic("py-group", 6);
  auto res = cafka::test::run({python_bin, group_script, "takeover", "--bootstrap", broker.bootstrap(), "--topic",
                               "py-group", "--group", "py-takeover"},
                              "", 420s);
  BOOST_REQUIRE_MESSAGE(res.code == 0, "kafka_python_group.py takeover: " << show(res));
  BOOST_TEST_MESSAGE(res.out);
  auto out = lines(res.out);
  BOOST_REQUIRE(!out.empty());
  BOOST_TEST(out.back() == "takeover ok: 3 members held 2 partitions each, 2 took over all 6, 1200 records consumed");
}

BOOST_AUTO_TEST_CASE(a_kafka_python_member_that_stops_polling_leaves_after_max_poll_interval) {
  cafka::test::kafka_endpoint broker;
  if (skipped_on_mock(broker))
    return;
  broker.create_topic("py-slowpoll", 6);
  auto res = cafka::test::run({python_bin, group_script, "slowpoll", "--bootstrap", broker.bootstrap(), "--topic",
                               "py-slowpoll", "--group", "py-slowpoll"},
                              "", 300s);
  BOOST_REQUIRE_MESSAGE(res.code == 0, "kafka_python_group.py slowpoll: " << show(res));
  BOOST_TEST_MESSAGE(res.out);
  auto out = lines(res.out);
  BOOST_REQUIRE(!out.empty());
  BOOST_TEST(out.back().rfind("slowpoll ok:", 0) == 0u, out.back());
}

BOOST_AUTO_TEST_CASE(kcat_joins_a_group_consumes_everything_and_resumes_from_its_commits) {
  cafka::test::kafka_endpoint broker;
  const std::string topic = "kcat-group";
  broker.create_topic(topic, 3);
  auto kcat = [&](std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {kcat_bin, "-b", broker.bootstrap()});
    return cafka::test::run(args, input, 120s);
  };
  auto produce = [&](int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "line-" + std::to_string(i) + "\n";
    auto produced = kcat({"-P", "-t", topic}, input);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  };
  // Until every assigned partition reached its end (-e); values only.
  auto consume = [&] {
    auto consumed = kcat({"-G", "kcat-readers", topic, "-e", "-X", "auto.offset.reset=earliest", "-f", "%s\\n"});
    BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kcat -G: " << show(consumed));
    BOOST_TEST(consumed.err.find("assigned: " + topic) != std::string::npos, consumed.err);
    auto got = lines(consumed.out);
    return std::multiset<std::string>(got.begin(), got.end());
  };
  auto expected = [](int from, int to) {
    std::multiset<std::string> out;
    for (int i = from; i < to; ++i)
      out.insert("line-" + std::to_string(i));
    return out;
  };
  produce(0, 300);
  BOOST_TEST((consume() == expected(0, 300)));
  // kcat committed what it consumed when it left the group: the next run reads only new lines.
  produce(300, 330);
  BOOST_TEST((consume() == expected(300, 330)));
}

BOOST_AUTO_TEST_CASE(a_range_consumer_is_refused_by_a_roundrobin_group_and_a_roundrobin_one_joins) {
  cafka::test::kafka_endpoint broker;
  if (skipped_on_mock(broker))
    return;
  const std::string topic = "mixed-group";
  const std::string group = "mixed";
  broker.create_topic(topic, 2);
  scratch_path ready;
  cafka::test::child python{{python_bin, group_script, "member", "--bootstrap", broker.bootstrap(), "--topic", topic,
                             "--group", group, "--strategy", "roundrobin", "--ready", ready.path, "--seconds",
                             "300"}};
  auto deadline = clock_type::now() + 90s;
  while (!ready.exists() && python.running() && clock_type::now() < deadline)
    std::this_thread::sleep_for(100ms);
  if (!ready.exists())
    BOOST_FAIL("the kafka-python member never held a partition: " << show(python.wait(0ms)));

  // Only "range": no protocol in common with the group. The JoinGroup error reaches the
  // application as a consumer error.
  auto refused = RdKafka::ERR_NO_ERROR;
  {
    auto consumer = group_consumer(broker.bootstrap(), group, "range");
    BOOST_REQUIRE(consumer->subscribe({topic}) == RdKafka::ERR_NO_ERROR);
    deadline = clock_type::now() + 60s;
    while (refused != RdKafka::ERR_INCONSISTENT_GROUP_PROTOCOL && clock_type::now() < deadline) {
      std::unique_ptr<RdKafka::Message> m{consumer->consume(500)};
      if (m->err() != RdKafka::ERR_NO_ERROR && m->err() != RdKafka::ERR__TIMED_OUT) {
        BOOST_TEST_MESSAGE("range consumer: " << m->errstr());
        refused = m->err();
      }
    }
    consumer->close();
  }
  BOOST_TEST(refused == RdKafka::ERR_INCONSISTENT_GROUP_PROTOCOL, RdKafka::err2str(refused));

  // "roundrobin" too: it joins, and the kafka-python leader gives it one of the two partitions.
  auto consumer = group_consumer(broker.bootstrap(), group, "roundrobin");
  BOOST_REQUIRE(consumer->subscribe({topic}) == RdKafka::ERR_NO_ERROR);
  std::vector<RdKafka::TopicPartition*> assignment;
  deadline = clock_type::now() + 90s;
  while (assignment.empty() && clock_type::now() < deadline) {
    std::unique_ptr<RdKafka::Message> m{consumer->consume(500)};
    if (m->err() != RdKafka::ERR_NO_ERROR && m->err() != RdKafka::ERR__TIMED_OUT)
      BOOST_TEST_MESSAGE("roundrobin consumer: " << m->errstr());
    BOOST_REQUIRE(consumer->assignment(assignment) == RdKafka::ERR_NO_ERROR);
  }
  BOOST_TEST(assignment.size() == 1u);
  RdKafka::TopicPartition::destroy(assignment);
  consumer->close();
  BOOST_TEST(python.running()); // a member all along
}

BOOST_AUTO_TEST_CASE(kafka_python_admin_lists_and_describes_a_group_with_a_member) {
  cafka::test::kafka_endpoint broker;
  if (skipped_on_mock(broker))
    return;
  broker.create_topic("admin-group", 2);
  auto res = cafka::test::run({python_bin, group_script, "admin", "--bootstrap", broker.bootstrap(), "--topic",
                               "admin-group", "--group", "admin-readers"},
                              "", 240s);
  BOOST_REQUIRE_MESSAGE(res.code == 0, "kafka_python_group.py admin: " << show(res));
  BOOST_TEST_MESSAGE(res.out);
  auto out = lines(res.out);
  BOOST_REQUIRE(!out.empty());
  BOOST_TEST(out.back() == "admin ok: admin-readers listed, described Stable with 1 member holding 2 partitions, "
                           "admin-readers-never-joined Dead");
}

BOOST_AUTO_TEST_CASE(two_librdkafka_high_level_consumers_share_a_topic_and_a_third_resumes_from_their_commits) {
  cafka::test::kafka_endpoint broker;
  if (skipped_on_mock(broker))
    return;
  const std::string topic = "rdk-group";
  const std::string group = "rdk-readers";
  broker.create_topic(topic, 4);
  auto produce = [&](int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "k" + std::to_string(i) + ":rec-" + std::to_string(i) + "\n";
    auto produced = cafka::test::run({kcat_bin, "-b", broker.bootstrap(), "-P", "-t", topic, "-K", ":"}, input, 120s);
    BOOST_REQUIRE_MESSAGE(produced.code == 0, "kcat -P: " << show(produced));
  };
  auto make = [&] {
    auto conf = make_conf({{"bootstrap.servers", broker.bootstrap()},
                           {"group.id", group},
                           {"auto.offset.reset", "earliest"},
                           {"enable.auto.commit", "false"},
                           {"session.timeout.ms", "6000"},
                           {"heartbeat.interval.ms", "500"}});
    std::string err;
    std::unique_ptr<RdKafka::KafkaConsumer> c{RdKafka::KafkaConsumer::create(conf.get(), err)};
    BOOST_REQUIRE_MESSAGE(c, err);
    BOOST_REQUIRE(c->subscribe({topic}) == RdKafka::ERR_NO_ERROR);
    return c;
  };
  auto assigned = [](RdKafka::KafkaConsumer& c) {
    std::vector<RdKafka::TopicPartition*> parts;
    c.assignment(parts);
    auto n = parts.size();
    RdKafka::TopicPartition::destroy(parts);
    return n;
  };
  produce(0, 400);
  std::multiset<std::string> got;
  // Polls every consumer in turn; commits (synchronously) what each one consumed.
  auto poll_all = [&](std::vector<RdKafka::KafkaConsumer*> cs) {
    for (auto* c : cs) {
      std::unique_ptr<RdKafka::Message> m{c->consume(100)};
      if (m->err() == RdKafka::ERR_NO_ERROR) {
        got.insert(std::string(static_cast<const char*>(m->payload()), m->len()));
        BOOST_REQUIRE(c->commitSync(m.get()) == RdKafka::ERR_NO_ERROR);
      } else if (m->err() != RdKafka::ERR__TIMED_OUT && m->err() != RdKafka::ERR__PARTITION_EOF) {
        BOOST_TEST_MESSAGE("consumer: " << m->errstr());
      }
    }
  };
  {
    auto a = make();
    auto b = make();
    auto deadline = clock_type::now() + 120s;
    bool shared = false;
    while ((got.size() < 400 || !shared) && clock_type::now() < deadline) {
      poll_all({a.get(), b.get()});
      shared = shared || (assigned(*a) == 2 && assigned(*b) == 2);
    }
    BOOST_TEST(shared); // both were members at once, 2 partitions each
    a->close();
    b->close();
  }
  std::set<std::string> distinct(got.begin(), got.end());
  BOOST_TEST(distinct.size() == 400u);

  // A newcomer in the same group starts from the committed offsets: only the new records.
  produce(400, 450);
  got.clear();
  auto c = make();
  auto deadline = clock_type::now() + 120s;
  while (got.size() < 50 && clock_type::now() < deadline)
    poll_all({c.get()});
  // A little longer, to catch anything redelivered from before the commits.
  for (int i = 0; i < 10; ++i)
    poll_all({c.get()});
  c->close();
  BOOST_TEST(got.size() == 50u);
  for (auto& v : got)
    BOOST_TEST(std::stoi(v.substr(4)) >= 400, v);
}

BOOST_AUTO_TEST_SUITE_END()
