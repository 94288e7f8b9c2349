// A cluster of real cafka-server processes on a real ZooKeeper server
// (tests/integration/cluster_fixture): Metadata through any broker, a 6-partition topic spread
// 2/2/2, kcat and librdkafka producing through one broker's address and kcat consuming
// everything back; kill -9 of a broker (its partitions LEADER_NOT_AVAILABLE, the others keep
// serving, all records back after its restart); ZooKeeper down for a few seconds; the
// controller killed; a fourth broker joining. Every wait is bounded by a generous deadline that
// only stops a hang; nothing asserts on timing. Records are "k<i % 17>" -> "<source>-<i>".
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <future>
#include <map>
#include <random>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cluster/zookeeper_coordinator.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/cluster_fixture.hpp"

using namespace std::chrono_literals;
using cafka::test::cluster_fixture;
using cafka::test::lines;
using cafka::test::poll_until;
using cafka::test::read_metadata;
using cafka::test::run_result;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
constexpr int key_count = 17;
constexpr int leader_not_available = 5;

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

std::string key_of(int i) {
  return "k" + std::to_string(i % key_count);
}

std::string value_of(const std::string& source, int i) {
  return source + "-" + std::to_string(i);
}

// kcat -P of records [from, to) of `source` through `bootstrap` only, keyed, or all into
// `partition` when it is >= 0.
void kcat_produce(const std::string& bootstrap, const std::string& topic, const std::string& source, int from,
                  int to, int32_t partition = -1) {
  std::string input;
  for (int i = from; i < to; ++i)
    input += key_of(i) + ":" + value_of(source, i) + "\n";
  std::vector<std::string> args{kcat_bin, "-b", bootstrap, "-P", "-t", topic, "-K:", "-X", "message.timeout.ms=60000"};
  if (partition >= 0)
    args.insert(args.end(), {"-p", std::to_string(partition)});
  auto r = cafka::test::run(args, input, 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, "kcat -P: " << show(r));
}

struct delivery_count : RdKafka::DeliveryReportCb {
  int ok = 0;
  std::vector<std::string> errors;
  void dr_cb(RdKafka::Message& m) override {
    if (m.err() == RdKafka::ERR_NO_ERROR)
      ++ok;
    else
      errors.push_back(m.errstr());
  }
};

// The librdkafka C++ producer, keyed records [from, to) of `source`, bootstrap = one broker.
void rdkafka_produce(const std::string& bootstrap, const std::string& topic, const std::string& source, int from,
                     int to) {
  std::string err;
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  delivery_count reports;
  BOOST_REQUIRE(conf->set("bootstrap.servers", bootstrap, err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("acks", "all", err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("message.timeout.ms", "60000", err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("dr_cb", &reports, err) == RdKafka::Conf::CONF_OK);
  std::unique_ptr<RdKafka::Producer> producer{RdKafka::Producer::create(conf.get(), err)};
  BOOST_REQUIRE_MESSAGE(producer, "Producer::create: " << err);
  for (int i = from; i < to; ++i) {
    auto key = key_of(i);
    auto value = value_of(source, i);
    auto e = producer->produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY, value.data(),
                               value.size(), key.data(), key.size(), 0, nullptr);
    BOOST_REQUIRE_MESSAGE(e == RdKafka::ERR_NO_ERROR, "produce #" << i << ": " << RdKafka::err2str(e));
    producer->poll(0);
  }
  producer->flush(90'000);
  auto left = producer->outq_len();
  if (left != 0)
    producer->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
  producer.reset();
  BOOST_REQUIRE_MESSAGE(left == 0, left << " records unacknowledged");
  BOOST_REQUIRE_MESSAGE(reports.errors.empty(), "delivery failed: " << reports.errors.front());
  BOOST_REQUIRE_EQUAL(reports.ok, to - from);
}

// The sum of the EndOffset columns of a cafka-topics --describe output ("-" counts 0).
int64_t end_offsets_total(const std::string& described) {
  int64_t total = 0;
  for (auto& line : lines(described))
    if (auto at = line.find("\tEndOffset: "); at != std::string::npos && line[at + 12] != '-')
      total += std::stoll(line.substr(at + 12));
  return total;
}

// The partition folders of `topic` in a log dir.
std::vector<std::string> folders_of(const std::string& log_dir, const std::string& topic) {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::directory_iterator(log_dir))
    if (e.is_directory() && e.path().filename().string().rfind(topic + "-", 0) == 0)
      out.push_back(e.path().filename().string());
  return out;
}

// A librdkafka producer that re-reads metadata every second. produce() into a partition its
// metadata does not have fails at once with _UNKNOWN_PARTITION, so a partition it accepts is
// one it learned of while running.
struct refreshing_producer {
  delivery_count reports;
  std::unique_ptr<RdKafka::Producer> producer;

  explicit refreshing_producer(const std::string& bootstrap) {
    std::string err;
    std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
    for (auto [k, v] : {std::pair{"bootstrap.servers", bootstrap}, std::pair{"acks", std::string{"all"}},
                        std::pair{"message.timeout.ms", std::string{"60000"}},
                        std::pair{"topic.metadata.refresh.interval.ms", std::string{"1000"}}})
      BOOST_REQUIRE_MESSAGE(conf->set(k, v, err) == RdKafka::Conf::CONF_OK, k << ": " << err);
    BOOST_REQUIRE(conf->set("dr_cb", &reports, err) == RdKafka::Conf::CONF_OK);
    producer.reset(RdKafka::Producer::create(conf.get(), err));
    BOOST_REQUIRE_MESSAGE(producer, "Producer::create: " << err);
  }

  RdKafka::ErrorCode send(const std::string& topic, int32_t partition) {
    std::string value = "probe-" + std::to_string(partition);
    auto e = producer->produce(topic, partition, RdKafka::Producer::RK_MSG_COPY, value.data(), value.size(), nullptr,
                               0, 0, nullptr);
    producer->poll(0);
    return e;
  }

  /// Waits for every report; true if all records sent so far were delivered.
  bool flushed() {
    producer->flush(60'000);
    return producer->outq_len() == 0 && reports.errors.empty();
  }
};

struct record {
  int32_t partition;
  int64_t offset;
  std::string key, value;
};

// kcat -C from the beginning to the end of every partition (or of `partition`), through
// `bootstrap` only.
std::vector<record> kcat_consume(const std::string& bootstrap, const std::string& topic, int32_t partition = -1) {
  std::vector<std::string> args{kcat_bin, "-b", bootstrap, "-C", "-t", topic, "-e", "-o", "beginning",
                                "-f", "%p %o %k %s\\n"};
  if (partition >= 0)
    args.insert(args.end(), {"-p", std::to_string(partition)});
  auto r = cafka::test::run(args, "", 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, "kcat -C: " << show(r));
  std::vector<record> out;
  for (auto& line : lines(r.out)) {
    auto s1 = line.find(' ');
    auto s2 = line.find(' ', s1 + 1);
    auto s3 = line.find(' ', s2 + 1);
    BOOST_REQUIRE_MESSAGE(s3 != std::string::npos, "malformed kcat line: " << line);
    out.push_back(record{std::stoi(line.substr(0, s1)), std::stoll(line.substr(s1 + 1, s2 - s1 - 1)),
                         line.substr(s2 + 1, s3 - s2 - 1), line.substr(s3 + 1)});
  }
  return out;
}

// `got` is exactly `expected` (source -> [from, to) ranges): every record once, offsets dense
// from 0 per partition, each source's records in production order within a partition; and with
// `keyed`, every key of a source in one partition.
void check_all(const std::vector<record>& got, const std::map<std::string, std::pair<int, int>>& expected,
               bool keyed = true) {
  size_t total = 0;
  for (auto& [source, range] : expected)
    total += static_cast<size_t>(range.second - range.first);
  BOOST_REQUIRE_EQUAL(got.size(), total);
  std::map<int32_t, int64_t> next_offset;
  std::map<std::pair<int32_t, std::string>, int> last_of_source; // (partition, source) -> last i
  std::map<std::pair<std::string, std::string>, std::set<int32_t>> partitions_of_key;
  std::set<std::string> seen;
  for (auto& r : got) {
    BOOST_REQUIRE_MESSAGE(r.offset == next_offset[r.partition],
                          "partition " << r.partition << ": offset " << r.offset << " where "
                                       << next_offset[r.partition] << " was next");
    ++next_offset[r.partition];
    auto dash = r.value.rfind('-');
    BOOST_REQUIRE_MESSAGE(dash != std::string::npos, "unexpected value " << r.value);
    auto source = r.value.substr(0, dash);
    auto i = std::stoi(r.value.substr(dash + 1));
    auto range = expected.find(source);
    BOOST_REQUIRE_MESSAGE(range != expected.end() && i >= range->second.first && i < range->second.second
                            && r.key == key_of(i),
                          "not produced: " << r.key << ":" << r.value);
    BOOST_REQUIRE_MESSAGE(seen.insert(r.value).second, "twice: " << r.value);
    auto last = last_of_source.find({r.partition, source});
    BOOST_REQUIRE_MESSAGE(last == last_of_source.end() || last->second < i,
                          "partition " << r.partition << " out of order: " << r.value);
    last_of_source[{r.partition, source}] = i;
    partitions_of_key[{source, r.key}].insert(r.partition);
  }
  if (keyed)
    for (auto& [key, partitions] : partitions_of_key)
      BOOST_TEST(partitions.size() == 1u, key.second << " of " << key.first << " is in several partitions");
}

// Metadata through `via` once every partition of `topic` has a leader.
cafka::test::cluster_metadata_view wait_until_led(cluster_fixture& c, int32_t via, const std::string& topic,
                                                  size_t partitions) {
  cafka::test::cluster_metadata_view md;
  auto address = c.bootstrap(via);
  bool led = poll_until(
    [&] {
      md = read_metadata(address);
      return md.ok() && md.all_led(topic, partitions);
    },
    60s);
  BOOST_REQUIRE_MESSAGE(led, topic << " not led everywhere through broker " << via << ": " << md.error << "\n"
                                   << c.outputs());
  return md;
}

void create(cluster_fixture& c, int32_t via, const std::string& topic, int partitions) {
  auto created = c.create_topic(via, topic, partitions);
  BOOST_REQUIRE_MESSAGE(created.code == 0, "cafka-topics --create: " << show(created) << c.outputs());
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// The registered broker ids, read from ZooKeeper itself by a session of the test's own.
std::vector<std::string> registered_ids(const std::string& connect) {
  auto session = cafka::cluster::zookeeper_coordinator::connect(connect, 10s, 30s);
  BOOST_REQUIRE_MESSAGE(session, "no session: " << session.error().message());
  auto answer = std::make_shared<std::promise<cafka::result<std::vector<std::string>>>>();
  auto done = answer->get_future();
  (*session)->children("/brokers/ids", {}, [answer](cafka::result<std::vector<std::string>> r) {
    answer->set_value(std::move(r));
  });
  BOOST_REQUIRE_MESSAGE(done.wait_for(30s) == std::future_status::ready, "no answer for /brokers/ids");
  auto ids = done.get();
  (*session)->close();
  BOOST_REQUIRE_MESSAGE(ids, "/brokers/ids: " << ids.error().message());
  return *ids;
}

// The session that owns /brokers/ids/<id> (ZooKeeper's ephemeralOwner), read by a session of
// the test's own; 0 while the node is absent.
int64_t registration_owner(const std::string& connect, int32_t id) {
  auto session = cafka::cluster::zookeeper_coordinator::connect(connect, 10s, 30s);
  BOOST_REQUIRE_MESSAGE(session, "no session: " << session.error().message());
  auto answer = std::make_shared<std::promise<int64_t>>();
  auto done = answer->get_future();
  (*session)->get("/brokers/ids/" + std::to_string(id), {}, [answer](cafka::result<cafka::cluster::node_data> r) {
    answer->set_value(r ? r->stat.ephemeral_owner : 0);
  });
  BOOST_REQUIRE_MESSAGE(done.wait_for(30s) == std::future_status::ready, "no answer for /brokers/ids/" << id);
  auto owner = done.get();
  (*session)->close();
  return owner;
}

// Keeps a broker process stopped (SIGSTOP), as a long GC pause would, and lets it run again
// (SIGCONT) at the latest when it goes out of scope.
struct paused_process {
  pid_t pid;
  bool paused = false;
  explicit paused_process(pid_t p) : pid(p) { paused = ::kill(pid, SIGSTOP) == 0; }
  void resume() {
    if (paused)
      ::kill(pid, SIGCONT);
    paused = false;
  }
  ~paused_process() { resume(); }
};

bool port_free(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// A base B with B+1..B+3 (Kafka), B+11..B+13 (caf.port) and B+20 (ZooKeeper) free now, for
// scripts/cluster.sh's fixed port scheme; 0 if none was found.
int free_port_base() {
  std::mt19937 random{std::random_device{}()};
  for (int attempt = 0; attempt < 100; ++attempt) {
    int base = 20000 + static_cast<int>(random() % 3000) * 10;
    bool all = true;
    for (int offset : {1, 2, 3, 11, 12, 13, 20})
      all = all && port_free(base + offset);
    if (all)
      return base;
  }
  return 0;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cluster)

BOOST_AUTO_TEST_CASE(three_brokers_spread_a_topic_and_serve_it_through_any_address) {
  cluster_fixture c{3};
  for (int32_t via : {1, 2, 3}) {
    BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(via, {1, 2, 3}, 60s), "broker " << via << " does not list all three\n"
                                                                              << c.outputs());
    auto md = read_metadata(c.bootstrap(via));
    BOOST_TEST(md.controller >= 1);
    BOOST_TEST(md.controller <= 3);
  }
  create(c, 2, "spread", 6);
  auto md = wait_until_led(c, 3, "spread", 6);
  BOOST_TEST(md.topics["spread"].size() == 6u);
  auto counts = md.leader_counts("spread");
  BOOST_TEST((counts == std::map<int32_t, int>{{1, 2}, {2, 2}, {3, 2}}));
  for (auto& [p, info] : md.topics["spread"])
    BOOST_TEST((info.replicas == std::vector<int32_t>{info.leader}), "partition " << p);

  kcat_produce(c.bootstrap(1), "spread", "kcat", 0, 600);
  rdkafka_produce(c.bootstrap(3), "spread", "rdkafka", 0, 600);
  auto got = kcat_consume(c.bootstrap(2), "spread");
  check_all(got, {{"kcat", {0, 600}}, {"rdkafka", {0, 600}}});
  std::set<int32_t> partitions;
  for (auto& r : got)
    partitions.insert(r.partition);
  BOOST_TEST(partitions.size() == 6u); // 17 keys over 6 partitions
}

BOOST_AUTO_TEST_CASE(a_killed_broker_leaves_its_partitions_unavailable_until_it_returns_with_its_data) {
  cluster_fixture c{3};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  create(c, 1, "crash", 6);
  auto before = wait_until_led(c, 1, "crash", 6);
  kcat_produce(c.bootstrap(1), "crash", "before", 0, 300);
  // A broker that is not the controller (the controller's death is another case).
  int32_t victim = before.controller == 3 ? 2 : 3;
  auto victims = before.led_by("crash", victim);
  BOOST_REQUIRE_EQUAL(victims.size(), 2u);
  std::vector<int32_t> survivors;
  for (int32_t id : {1, 2, 3})
    if (id != victim)
      survivors.push_back(id);

  c.kill(victim);
  auto limit = std::chrono::milliseconds(c.session_timeout_ms()) + 30s;
  std::set<int32_t> alive{survivors.begin(), survivors.end()};
  BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(survivors[0], alive, limit),
                        "broker " << victim << " still listed\n" << c.outputs());
  cafka::test::cluster_metadata_view md;
  bool unavailable = poll_until(
    [&] {
      md = read_metadata(c.bootstrap(survivors[1]));
      if (!md.ok() || md.brokers != alive)
        return false;
      for (auto p : victims)
        if (md.topics["crash"][p].leader != -1 || md.topics["crash"][p].error != leader_not_available)
          return false;
      return true;
    },
    30s);
  BOOST_REQUIRE_MESSAGE(unavailable, "partitions of broker " << victim << " not LEADER_NOT_AVAILABLE\n"
                                                             << c.outputs());
  // The others keep serving: writes and reads of every partition they lead.
  int during = 0;
  for (auto& [p, info] : md.topics["crash"]) {
    if (info.leader == -1)
      continue;
    BOOST_TEST(info.error == 0);
    kcat_produce(c.bootstrap(survivors[0]), "crash", "during", during, during + 10, p);
    auto got = kcat_consume(c.bootstrap(survivors[1]), "crash", p);
    BOOST_REQUIRE(!got.empty());
    BOOST_TEST(got.back().value == value_of("during", during + 9));
    during += 10;
  }
  BOOST_TEST(during == 40);

  // The old session is gone (its node vanished above): the same id registers again.
  c.start(victim);
  auto after = wait_until_led(c, survivors[0], "crash", 6);
  BOOST_TEST(after.brokers == (std::set<int32_t>{1, 2, 3}));
  for (auto p : victims)
    BOOST_TEST(after.topics["crash"][p].leader == victim);
  // The restarted broker answers Metadata before its first view is loaded (the topic is then
  // unknown to it, and kcat -C gives up at once): read through it once it knows the topic.
  wait_until_led(c, victim, "crash", 6);
  check_all(kcat_consume(c.bootstrap(victim), "crash"), {{"before", {0, 300}}, {"during", {0, during}}}, false);
}

BOOST_AUTO_TEST_CASE(brokers_serve_while_zookeeper_is_down_and_are_still_registered_after) {
  // A session timeout well above the outage (a JVM restart on a busy machine included).
  cluster_fixture c{3, 20000};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  create(c, 2, "outage", 6);
  wait_until_led(c, 1, "outage", 6);
  kcat_produce(c.bootstrap(1), "outage", "before", 0, 200);

  c.zookeeper().stop();
  auto stopped_at = std::chrono::steady_clock::now();
  kcat_produce(c.bootstrap(2), "outage", "during", 0, 200);
  check_all(kcat_consume(c.bootstrap(3), "outage"), {{"before", {0, 200}}, {"during", {0, 200}}});
  // Down for a few seconds at least (far below the session timeout), not just a blink.
  std::this_thread::sleep_until(stopped_at + 3s);
  c.zookeeper().start();

  // Each broker's session reconnects (its second "connected" since it started) ...
  for (int32_t id : {1, 2, 3})
    BOOST_REQUIRE_MESSAGE(
      poll_until([&] { return count_of(c.broker(id).output(), "zookeeper session connected") >= 2; }, 60s),
      "broker " << id << " did not reconnect\n" << c.outputs());
  // ... its registration survived the outage, and Metadata lists all three.
  BOOST_TEST((registered_ids(c.connect()) == std::vector<std::string>{"1", "2", "3"}));
  auto ids = std::set<int32_t>{1, 2, 3};
  for (int32_t via : {1, 2, 3})
    BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(via, ids, 60s), "broker " << via << "\n" << c.outputs());
  // Still registered in ZooKeeper itself, not just in the brokers' last views: a new topic is
  // placed over all three.
  create(c, 3, "after-outage", 3);
  auto md = wait_until_led(c, 1, "after-outage", 3);
  BOOST_TEST((md.leader_counts("after-outage") == std::map<int32_t, int>{{1, 1}, {2, 1}, {3, 1}}));
  kcat_produce(c.bootstrap(3), "outage", "after", 0, 100);
  check_all(kcat_consume(c.bootstrap(1), "outage"), {{"before", {0, 200}}, {"during", {0, 200}}, {"after", {0, 100}}});
}

// Session expiry of a broker PROCESS: its session cannot be taken over from the test (that
// needs its password, which only the process knows), so the broker is paused (SIGSTOP) until
// ZooKeeper expires its session (its ephemeral /brokers/ids/<id> goes), then resumed. Its
// ZooKeeper client then learns of the expiry, and the node renews its session
// (cluster/renewing_session.hpp): it registers again, with a new session, and serves.
BOOST_AUTO_TEST_CASE(a_broker_whose_session_expired_registers_again_and_serves) {
  cluster_fixture c{3};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  auto first = read_metadata(c.bootstrap(1));
  BOOST_REQUIRE(first.ok());
  auto victim = first.controller; // the controller: its role must move and never be doubled
  BOOST_REQUIRE(victim >= 1 && victim <= 3);
  int32_t other = victim == 1 ? 2 : 1;
  create(c, other, "renewal", 6);
  wait_until_led(c, victim, "renewal", 6);
  kcat_produce(c.bootstrap(victim), "renewal", "before", 0, 200);
  auto old_session = registration_owner(c.connect(), victim);
  BOOST_REQUIRE(old_session != 0);

  {
    paused_process pause{c.broker(victim).pid()};
    BOOST_REQUIRE(pause.paused);
    auto limit = std::chrono::milliseconds(c.session_timeout_ms()) + 60s;
    BOOST_REQUIRE_MESSAGE(poll_until([&] { return registration_owner(c.connect(), victim) == 0; }, limit),
                          "broker " << victim << "'s session never expired\n" << c.outputs());
    // Meanwhile another broker took over as controller.
    cafka::test::cluster_metadata_view md;
    BOOST_REQUIRE_MESSAGE(poll_until(
                            [&] {
                              md = read_metadata(c.bootstrap(other));
                              return md.ok() && md.controller != -1 && md.controller != victim;
                            },
                            60s),
                          "no new controller: " << md.controller << "\n" << c.outputs());
    pause.resume();
  }

  // Registered again, owned by a new session; every broker lists all three again.
  int64_t owner = 0;
  BOOST_REQUIRE_MESSAGE(poll_until(
                          [&] {
                            owner = registration_owner(c.connect(), victim);
                            return owner != 0;
                          },
                          60s),
                        "broker " << victim << " did not register again\n" << c.outputs());
  BOOST_TEST(owner != old_session);
  BOOST_TEST(c.broker(victim).output().find("registered again") != std::string::npos);
  for (int32_t via : {1, 2, 3})
    BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(via, {1, 2, 3}, 60s), "broker " << via << "\n" << c.outputs());
  // One controller, the same through every broker.
  auto md = read_metadata(c.bootstrap(1));
  BOOST_REQUIRE(md.ok());
  for (int32_t via : {2, 3})
    BOOST_TEST(read_metadata(c.bootstrap(via)).controller == md.controller);
  // It leads its partitions again and serves produce and fetch through its own address.
  wait_until_led(c, victim, "renewal", 6);
  kcat_produce(c.bootstrap(victim), "renewal", "after", 0, 200);
  check_all(kcat_consume(c.bootstrap(victim), "renewal"), {{"before", {0, 200}}, {"after", {0, 200}}});
}

BOOST_AUTO_TEST_CASE(a_new_controller_is_elected_when_the_controller_dies) {
  cluster_fixture c{3};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  auto first = read_metadata(c.bootstrap(1));
  BOOST_REQUIRE(first.ok());
  auto old = first.controller;
  BOOST_REQUIRE(old >= 1 && old <= 3);
  std::vector<int32_t> survivors;
  for (int32_t id : {1, 2, 3})
    if (id != old)
      survivors.push_back(id);

  c.kill(old);
  cafka::test::cluster_metadata_view md;
  auto limit = std::chrono::milliseconds(c.session_timeout_ms()) + 30s;
  bool elected = poll_until(
    [&] {
      md = read_metadata(c.bootstrap(survivors[0]));
      return md.ok() && md.controller != old && md.controller != -1
             && md.brokers == std::set<int32_t>{survivors.begin(), survivors.end()};
    },
    limit);
  BOOST_REQUIRE_MESSAGE(elected, "controller still " << md.controller << "\n" << c.outputs());
  BOOST_TEST((md.controller == survivors[0] || md.controller == survivors[1]));
  BOOST_TEST(read_metadata(c.bootstrap(survivors[1])).controller == md.controller);

  create(c, survivors[1], "after-election", 4);
  auto led = wait_until_led(c, survivors[0], "after-election", 4);
  BOOST_TEST((led.leader_counts("after-election") == std::map<int32_t, int>{{survivors[0], 2}, {survivors[1], 2}}));
  kcat_produce(c.bootstrap(survivors[0]), "after-election", "new", 0, 100);
  check_all(kcat_consume(c.bootstrap(survivors[1]), "after-election"), {{"new", {0, 100}}});
}

// Then the old topic grows onto the new broker (CreatePartitions from kafka-python's admin
// client, through a broker that may not be the controller) while clients run: a librdkafka
// producer made before, kafka-python's producer and group consumer all pick the new
// partitions up (tests/integration/kafka_python_group.py grow), and cafka-topics --describe
// shows them spread over the four brokers.
BOOST_AUTO_TEST_CASE(a_fourth_broker_joins_new_topics_use_it_and_an_old_topic_grows_onto_it) {
  cluster_fixture c{3};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  create(c, 1, "old", 3);
  wait_until_led(c, 1, "old", 3);

  c.start(4);
  BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(2, {1, 2, 3, 4}, 60s), c.outputs());
  create(c, 4, "grown", 8);
  auto md = wait_until_led(c, 3, "grown", 8);
  BOOST_TEST((md.leader_counts("grown") == std::map<int32_t, int>{{1, 2}, {2, 2}, {3, 2}, {4, 2}}));
  kcat_produce(c.bootstrap(4), "grown", "grown", 0, 400);
  check_all(kcat_consume(c.bootstrap(1), "grown"), {{"grown", {0, 400}}});

  // cafka-topics --describe through one broker shows every partition's leader and replicas.
  auto described = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", c.bootstrap(2),
                                     "--describe", "--topic", "grown"},
                                    "", 60s);
  BOOST_REQUIRE_MESSAGE(described.code == 0, "cafka-topics --describe: " << show(described));
  BOOST_TEST_MESSAGE(described.out);
  BOOST_TEST(described.out.find("Topic: grown\tPartitionCount: 8") != std::string::npos, described.out);
  for (auto& [p, info] : md.topics["grown"]) {
    auto row = "\tTopic: grown\tPartition: " + std::to_string(p) + "\tLeader: " + std::to_string(info.leader)
               + "\tReplicas: " + std::to_string(info.leader) + "\t";
    BOOST_TEST(described.out.find(row) != std::string::npos, "no row '" << row << "' in\n" << described.out);
  }
  // The offsets come from each partition's leader: together they hold the 400 records.
  BOOST_TEST(end_offsets_total(described.out) == 400);

  refreshing_producer before{c.bootstrap(1)};
  BOOST_REQUIRE(before.send("old", 0) == RdKafka::ERR_NO_ERROR);
  BOOST_REQUIRE_MESSAGE(before.flushed(), "librdkafka: " << (before.reports.errors.empty() ? "" : before.reports.errors[0]));
  BOOST_TEST(before.send("old", 7) == RdKafka::ERR__UNKNOWN_PARTITION);
  auto grown = cafka::test::run({"/usr/bin/python3", CAFKA_SOURCE_DIR "/tests/integration/kafka_python_group.py",
                                 "grow", "--bootstrap", c.bootstrap(2), "--topic", "old", "--group", "growers", "--to",
                                 "8"},
                                "", 300s);
  BOOST_TEST_MESSAGE(grown.out);
  BOOST_REQUIRE_MESSAGE(grown.code == 0, "kafka_python_group.py grow: " << show(grown) << c.outputs());
  BOOST_TEST(poll_until([&] { return before.send("old", 7) == RdKafka::ERR_NO_ERROR; }, 60s),
             "the librdkafka producer never learned of partition 7");
  BOOST_TEST(before.flushed(), "librdkafka: " << (before.reports.errors.empty() ? "" : before.reports.errors[0]));
  auto old = wait_until_led(c, 4, "old", 8);
  BOOST_TEST((old.leader_counts("old") == std::map<int32_t, int>{{1, 2}, {2, 2}, {3, 2}, {4, 2}}));
  auto old_described = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", c.bootstrap(3),
                                         "--describe", "--topic", "old"},
                                        "", 60s);
  BOOST_TEST(old_described.out.find("Topic: old\tPartitionCount: 8") != std::string::npos, show(old_described));
  // Fewer partitions are refused, as Kafka does, with its message.
  auto fewer = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", c.bootstrap(4),
                                 "--alter", "--topic", "old", "--partitions", "4"},
                                "", 60s);
  BOOST_TEST(fewer.code == 1, show(fewer));
  BOOST_TEST(fewer.err.find("Topic currently has 8 partitions, which is higher than the requested 4.")
               != std::string::npos,
             show(fewer));
}

// Horizontal scaling with data already there: a fourth broker joins three that hold a
// replication-factor-2 topic with records; cafka-reassign-partitions --generate proposes the
// topic over all four, --execute moves it (new replicas catch up before old ones go),
// --verify reports it complete, a preferred election spreads the leaders 2/2/2/2, every
// record is still readable through the new broker, and the old replicas' folders are gone.
BOOST_AUTO_TEST_CASE(a_reassignment_moves_data_onto_a_new_broker_and_removes_the_old_replicas) {
  cluster_fixture c{3};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2, 3}, 60s));
  auto created = c.create_topic(1, "moved", 8, 2, {});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created) << c.outputs());
  wait_until_led(c, 1, "moved", 8);
  kcat_produce(c.bootstrap(1), "moved", "before", 0, 800);
  c.start(4);
  BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(2, {1, 2, 3, 4}, 60s), c.outputs());
  wait_until_led(c, 4, "moved", 8); // the new broker's view has the topic too

  cafka::test::scratch_dir files;
  auto write = [&](const std::string& name, const std::string& text) {
    auto path = files.path + "/" + name;
    std::ofstream{path} << text;
    return path;
  };
  const std::string tool = CAFKA_BINARY_DIR "/bin/cafka-reassign-partitions";
  auto topics_file = write("topics.json", R"({"topics":[{"topic":"moved"}],"version":1})");
  // --generate over `brokers`, --execute of its proposal through another broker, --verify
  // (through a third) until every partition is complete.
  auto reassign_over = [&](const std::string& brokers, int32_t via) {
    auto generated = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(via), "--generate",
                                       "--topics-to-move-json-file", topics_file, "--broker-list", brokers},
                                      "", 60s);
    BOOST_REQUIRE_MESSAGE(generated.code == 0, show(generated));
    BOOST_TEST_MESSAGE(generated.out);
    auto proposal_at = generated.out.find("Proposed partition reassignment configuration\n");
    BOOST_REQUIRE(proposal_at != std::string::npos);
    auto plan = write("plan-" + brokers + ".json", lines(generated.out.substr(proposal_at)).at(1));
    auto executed = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(via % 4 + 1), "--execute",
                                      "--reassignment-json-file", plan},
                                     "", 90s);
    BOOST_REQUIRE_MESSAGE(executed.code == 0, show(executed) << c.outputs());
    BOOST_TEST(executed.out.find("Successfully started partition reassignments for moved-") != std::string::npos,
               executed.out);
    run_result verified;
    bool complete = poll_until(
      [&] {
        verified = cafka::test::run({tool, "--bootstrap-server", c.bootstrap((via + 1) % 4 + 1), "--verify",
                                     "--reassignment-json-file", plan},
                                    "", 60s);
        return verified.code == 0 && count_of(verified.out, " is complete.") == 8;
      },
      120s);
    BOOST_REQUIRE_MESSAGE(complete, show(verified) << c.outputs());
    // Nothing is left to cancel.
    auto cancelled = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(via), "--cancel",
                                       "--reassignment-json-file", plan},
                                      "", 60s);
    BOOST_TEST(cancelled.code == 0, show(cancelled));
    BOOST_TEST(cancelled.out == "None of the specified partition reassignments are active.\n", show(cancelled));
  };
  reassign_over("1,2,3,4", 4);

  // Replicas 4 per broker, as proposed; then the preferred leaders lead, 2 each.
  auto elected = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-leader-election", "--bootstrap-server", c.bootstrap(1),
                                   "--election-type", "preferred", "--all-topic-partitions"},
                                  "", 60s);
  BOOST_TEST_MESSAGE(elected.out);
  cafka::test::cluster_metadata_view md;
  bool spread = poll_until(
    [&] {
      md = read_metadata(c.bootstrap(4));
      return md.ok() && md.all_led("moved", 8)
             && md.leader_counts("moved") == std::map<int32_t, int>{{1, 2}, {2, 2}, {3, 2}, {4, 2}};
    },
    60s);
  BOOST_REQUIRE_MESSAGE(spread, "leaders not 2/2/2/2\n" << c.outputs());
  std::map<int32_t, int> replicas_per_broker;
  for (auto& [p, info] : md.topics["moved"])
    for (auto id : info.replicas)
      ++replicas_per_broker[id];
  BOOST_TEST((replicas_per_broker == std::map<int32_t, int>{{1, 4}, {2, 4}, {3, 4}, {4, 4}}));

  // A new leader's high watermark catches up with its followers' next fetches (as in Kafka):
  // the records are readable once the end offsets add up again.
  run_result described;
  BOOST_TEST(poll_until(
               [&] {
                 described = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                               c.bootstrap(4), "--describe", "--topic", "moved"},
                                              "", 60s);
                 return end_offsets_total(described.out) == 800;
               },
               60s),
             show(described));
  check_all(kcat_consume(c.bootstrap(4), "moved"), {{"before", {0, 800}}});
  // Each broker keeps exactly the folders of the partitions it holds a replica of.
  bool cleaned = poll_until(
    [&] {
      for (int32_t b = 1; b <= 4; ++b)
        for (auto& [p, info] : md.topics["moved"]) {
          bool holds = std::find(info.replicas.begin(), info.replicas.end(), b) != info.replicas.end();
          if (std::filesystem::exists(c.log_dir(b) + "/moved-" + std::to_string(p)) != holds)
            return false;
        }
      return true;
    },
    60s);
  BOOST_TEST(cleaned, "old replicas' folders are still there\n" << c.outputs());

  // A move that cannot catch up (its new replica's broker is stopped with SIGSTOP, not the
  // controller) shows in --describe and --verify as in progress, and --cancel brings the
  // original replicas back.
  auto& zero = md.topics["moved"].at(0);
  int32_t stalled = -1;
  for (int32_t b = 4; b >= 1 && stalled < 0; --b)
    if (b != md.controller && std::find(zero.replicas.begin(), zero.replicas.end(), b) == zero.replicas.end())
      stalled = b;
  BOOST_REQUIRE(stalled > 0);
  auto stuck_plan = write("stuck.json", R"({"version":1,"partitions":[{"topic":"moved","partition":0,"replicas":[)"
                                          + std::to_string(zero.replicas[0]) + "," + std::to_string(stalled) + "]}]}");
  paused_process pause{c.broker(stalled).pid()};
  BOOST_REQUIRE(pause.paused);
  auto stuck = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(zero.replicas[0]), "--execute",
                                 "--reassignment-json-file", stuck_plan},
                                "", 60s);
  // (Only the under-replicated partitions: their leaders answer, the stopped broker is not asked.)
  auto moving = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                  c.bootstrap(zero.replicas[0]), "--describe", "--topic", "moved",
                                  "--under-replicated-partitions"},
                                 "", 60s);
  auto in_progress = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(zero.replicas[0]), "--verify",
                                       "--reassignment-json-file", stuck_plan},
                                      "", 60s);
  auto undone = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(zero.replicas[0]), "--cancel",
                                  "--reassignment-json-file", stuck_plan},
                                 "", 60s);
  pause.resume();
  BOOST_TEST(stuck.code == 0, show(stuck));
  BOOST_TEST(moving.out.find("\tPartition: 0\tLeader: ") != std::string::npos, show(moving));
  BOOST_TEST(moving.out.find("\tAdding Replicas: " + std::to_string(stalled) + "\tRemoving Replicas: "
                             + std::to_string(zero.replicas[1]))
               != std::string::npos,
             show(moving));
  BOOST_TEST(in_progress.out.find("Reassignment of partition moved-0 is still in progress.") != std::string::npos,
             show(in_progress));
  BOOST_TEST(undone.out == "Successfully cancelled partition reassignment for: moved-0\n", show(undone));
  BOOST_TEST(poll_until(
               [&] {
                 auto now = read_metadata(c.bootstrap(4));
                 return now.ok() && now.topics["moved"].count(0) && now.topics["moved"].at(0).replicas == zero.replicas;
               },
               60s),
             "moved-0 is not back on its replicas");
  BOOST_REQUIRE_MESSAGE(c.wait_for_brokers(zero.replicas[0], {1, 2, 3, 4}, 60s), c.outputs());

  // Decommissioning broker 1: a plan over the others moves everything off it; it then stops
  // with no partition under-replicated.
  reassign_over("2,3,4", 2);
  BOOST_TEST(poll_until([&] { return folders_of(c.log_dir(1), "moved").empty(); }, 60s),
             "broker 1 still holds replicas of moved");
  BOOST_TEST(c.stop(1) == 0);
  auto under = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", c.bootstrap(2),
                                 "--describe", "--topic", "moved", "--under-replicated-partitions"},
                                "", 60s);
  BOOST_TEST(under.code == 0, show(under));
  BOOST_TEST(under.out.empty(), under.out);
  BOOST_TEST(poll_until(
    [&] {
      return end_offsets_total(cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                                 c.bootstrap(3), "--describe", "--topic", "moved"},
                                                "", 60s)
                                 .out)
             == 800;
    },
    60s));
  check_all(kcat_consume(c.bootstrap(3), "moved"), {{"before", {0, 800}}});
}

// --throttle (Kafka's replication quota): the copy of a 4 MB partition to a new replica stops
// after the first fetch's megabyte while the rate is over 100 kB/s (the windows are 11 x 1 s:
// the rest would take over 20 s), the topic and brokers show the throttle, and once it is
// lifted at run time (a broker rate and a topic list changed with cafka-configs) the move ends
// and --verify removes what --execute set.
BOOST_AUTO_TEST_CASE(a_throttled_reassignment_waits_for_its_quota_and_verify_removes_the_throttle) {
  cluster_fixture c{2};
  BOOST_REQUIRE(c.wait_for_brokers(1, {1, 2}, 60s));
  auto created = c.create_topic(1, "slow", 1, 1, {});
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created) << c.outputs());
  auto md = wait_until_led(c, 1, "slow", 1);
  auto holder = md.topics["slow"].at(0).replicas.at(0);
  auto gainer = holder == 1 ? 2 : 1;
  std::string input;
  for (int i = 0; i < 400; ++i)
    input += "k" + std::to_string(i) + ":" + std::string(10000, 'v') + "\n";
  auto produced = cafka::test::run({kcat_bin, "-b", c.bootstrap(holder), "-P", "-t", "slow", "-K:", "-X",
                                    "message.timeout.ms=60000"},
                                   input, 120s);
  BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));

  cafka::test::scratch_dir files;
  auto plan = files.path + "/plan.json";
  std::ofstream{plan} << R"({"version":1,"partitions":[{"topic":"slow","partition":0,"replicas":[)"
                      << holder << "," << gainer << "]}]}";
  const std::string tool = CAFKA_BINARY_DIR "/bin/cafka-reassign-partitions";
  const std::string configs = CAFKA_BINARY_DIR "/bin/cafka-configs";
  auto executed = cafka::test::run({tool, "--bootstrap-server", c.bootstrap(1), "--execute", "--reassignment-json-file",
                                    plan, "--throttle", "100000"},
                                   "", 60s);
  BOOST_REQUIRE_MESSAGE(executed.code == 0, show(executed) << c.outputs());
  BOOST_TEST(executed.out.find("The inter-broker throttle limit was set to 100000 B/s") != std::string::npos,
             show(executed));
  auto verify = [&] {
    return cafka::test::run({tool, "--bootstrap-server", c.bootstrap(2), "--verify", "--reassignment-json-file", plan},
                            "", 60s);
  };
  // (The broker asked may not have the move in its view yet: it then says the replicas differ.)
  run_result waiting;
  BOOST_TEST(poll_until(
               [&] {
                 waiting = verify();
                 return waiting.out.find("Reassignment of partition slow-0 is still in progress.") != std::string::npos;
               },
               15s),
             show(waiting));
  BOOST_TEST(waiting.out.find("Clearing") == std::string::npos, show(waiting));
  run_result topic_configs;
  BOOST_TEST(poll_until(
               [&] {
                 topic_configs = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(gainer), "--entity-type",
                                                   "topics", "--entity-name", "slow", "--describe"},
                                                  "", 60s);
                 return topic_configs.out.find("follower.replication.throttled.replicas=0:" + std::to_string(gainer))
                        != std::string::npos;
               },
               30s),
             show(topic_configs));
  BOOST_TEST(topic_configs.out.find("leader.replication.throttled.replicas=0:" + std::to_string(holder))
               != std::string::npos,
             show(topic_configs));
  auto broker_configs = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(gainer), "--entity-type",
                                          "brokers", "--entity-name", std::to_string(gainer), "--describe"},
                                         "", 60s);
  BOOST_TEST(broker_configs.out.find("follower.replication.throttled.rate=100000 ") != std::string::npos,
             show(broker_configs));

  // Lifted at run time: the leader's rate raised, the follower's partition list emptied.
  auto raised = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(holder), "--entity-type", "brokers",
                                  "--entity-name", std::to_string(holder), "--alter", "--add-config",
                                  "leader.replication.throttled.rate=1000000000"},
                                 "", 60s);
  BOOST_TEST(raised.code == 0, show(raised));
  auto unlisted = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(1), "--entity-type", "topics",
                                    "--entity-name", "slow", "--alter", "--delete-config",
                                    "follower.replication.throttled.replicas"},
                                   "", 60s);
  BOOST_TEST(unlisted.code == 0, show(unlisted));
  run_result done;
  BOOST_REQUIRE_MESSAGE(poll_until(
                          [&] {
                            done = verify();
                            return done.out.find("Reassignment of partition slow-0 is complete.") != std::string::npos;
                          },
                          120s),
                        show(done) << c.outputs());
  BOOST_TEST(done.out.find("Clearing broker-level throttles on brokers 1,2\n") != std::string::npos, show(done));
  BOOST_TEST(done.out.find("Clearing topic-level throttles on topic slow\n") != std::string::npos, show(done));
  for (int32_t b : {1, 2}) {
    auto left = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(b), "--entity-type", "brokers",
                                  "--entity-name", std::to_string(b), "--describe"},
                                 "", 60s);
    BOOST_TEST(left.out == "Dynamic configs for broker " + std::to_string(b) + " are:\n", show(left));
  }
  auto topic_left = cafka::test::run({configs, "--bootstrap-server", c.bootstrap(1), "--entity-type", "topics",
                                      "--entity-name", "slow", "--describe"},
                                     "", 60s);
  BOOST_TEST(topic_left.out == "Dynamic configs for topic slow are:\n", show(topic_left));
  auto read = kcat_consume(c.bootstrap(gainer), "slow");
  BOOST_TEST(read.size() == 400u);
}

BOOST_AUTO_TEST_CASE(the_cluster_demo_script_runs_to_its_end) {
  cafka::test::scratch_dir dir;
  int base = free_port_base();
  BOOST_REQUIRE(base != 0);
  std::map<std::string, std::string> env{{"CAFKA_CLUSTER_DIR", dir.path + "/cluster"},
                                         {"CAFKA_KAFKA_BASE", std::to_string(base)},
                                         {"CAFKA_CAF_BASE", std::to_string(base + 10)},
                                         {"CAFKA_ZK_PORT", std::to_string(base + 20)},
                                         {"CAFKA_SERVER_BIN", CAFKA_BINARY_DIR "/bin/cafka-server"},
                                         {"CAFKA_TOPICS_BIN", CAFKA_BINARY_DIR "/bin/cafka-topics"}};
  for (auto& [k, v] : env) // children inherit the environment
    ::setenv(k.c_str(), v.c_str(), 1);
  auto demo = cafka::test::run({CAFKA_SOURCE_DIR "/examples/cluster_demo.sh"}, "", 300s);
  // Should the script have been killed, its trap did not run: stop what it started, by PID.
  auto stopped = cafka::test::run({CAFKA_SOURCE_DIR "/scripts/cluster.sh", "stop"}, "", 120s);
  for (auto& [k, v] : env)
    ::unsetenv(k.c_str());
  BOOST_TEST(stopped.code == 0, show(stopped));
  BOOST_REQUIRE_MESSAGE(demo.code == 0, "cluster_demo.sh: " << show(demo));
  BOOST_TEST(demo.out.find("Broker: Leader not available") != std::string::npos, demo.out);
  BOOST_TEST(demo.out.find("consumed 600 of 600 records") != std::string::npos, demo.out);
  BOOST_TEST(demo.out.find("cluster demo ok") != std::string::npos, demo.out);
}

BOOST_AUTO_TEST_SUITE_END()
