// Transactions with librdkafka 2.0.2's transactional producer (C API, in this process)
// against cafka-server: committed, aborted and open transactions over several partitions,
// read back by read_committed and read_uncommitted consumers; a second producer with the
// same transactional.id fences the first and aborts its open transaction. Waits are bounded
// by deadlines that only stop a hang; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafka.h>

#include <signal.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "client/producer.hpp"
#include "cluster/txn_log.hpp"
#include "tests/integration/cluster_fixture.hpp"
#include "tests/integration/kafka_endpoint.hpp"
#include "tests/integration/native_client.hpp"

using namespace std::chrono_literals;

namespace {

constexpr int32_t partitions = 3;

rd_kafka_t* make_client(rd_kafka_type_t type, const std::map<std::string, std::string>& settings) {
  char errstr[512];
  auto* conf = rd_kafka_conf_new();
  for (auto& [k, v] : settings)
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
      throw std::runtime_error("librdkafka config " + k + "=" + v + ": " + errstr);
  auto* rk = rd_kafka_new(type, conf, errstr, sizeof errstr);
  if (rk == nullptr)
    throw std::runtime_error(std::string{"rd_kafka_new: "} + errstr);
  return rk;
}

// Fails the test with the error's text; true if there was none.
bool ok(rd_kafka_error_t* err, const char* what) {
  if (err == nullptr)
    return true;
  BOOST_ERROR(what << ": " << rd_kafka_error_string(err) << (rd_kafka_error_is_fatal(err) ? " (fatal)" : ""));
  rd_kafka_error_destroy(err);
  return false;
}

// A transactional producer of `id`, initialised (the coordinator found, the id fenced).
rd_kafka_t* transactional_producer(const std::string& bootstrap, const std::string& id) {
  auto* rk = make_client(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap},
                                             {"transactional.id", id},
                                             {"transaction.timeout.ms", "60000"},
                                             {"linger.ms", "5"}});
  BOOST_REQUIRE(ok(rd_kafka_init_transactions(rk, 60'000), "init_transactions"));
  return rk;
}

// `count` records "<prefix>-<i>" round-robin over the partitions, then waits until every one
// is acknowledged (flush), all inside the current transaction.
void produce(rd_kafka_t* rk, const std::string& topic, const std::string& prefix, int count) {
  for (int i = 0; i < count; ++i) {
    auto value = prefix + "-" + std::to_string(i);
    auto err = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(i % partitions),
                                 RD_KAFKA_V_VALUE(value.data(), value.size()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                 RD_KAFKA_V_END);
    BOOST_REQUIRE_MESSAGE(err == RD_KAFKA_RESP_ERR_NO_ERROR, "produce: " << rd_kafka_err2str(err));
  }
  BOOST_REQUIRE_MESSAGE(rd_kafka_flush(rk, 60'000) == RD_KAFKA_RESP_ERR_NO_ERROR, "flush: not every record acknowledged");
}

// How many records of each prefix (`whole_values`: of each value) a consumer at `isolation`
// reads from the beginning of every partition up to its end (for read_committed: the last
// stable offset).
std::map<std::string, int> read_all(const std::string& bootstrap, const std::string& topic, const char* isolation,
                                    bool whole_values = false) {
  auto* rk = make_client(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap},
                                             {"group.id", std::string{"txn-reader-"} + isolation},
                                             {"isolation.level", isolation},
                                             {"enable.partition.eof", "true"},
                                             {"enable.auto.commit", "false"}});
  auto* list = rd_kafka_topic_partition_list_new(partitions);
  for (int32_t p = 0; p < partitions; ++p)
    rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  BOOST_REQUIRE(rd_kafka_assign(rk, list) == RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(list);
  std::map<std::string, int> seen;
  std::map<int32_t, bool> at_end;
  auto deadline = std::chrono::steady_clock::now() + 120s;
  while (static_cast<int32_t>(at_end.size()) < partitions && std::chrono::steady_clock::now() < deadline) {
    auto* m = rd_kafka_consumer_poll(rk, 500);
    if (m == nullptr)
      continue;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      at_end[m->partition] = true;
    } else if (m->err) {
      BOOST_ERROR("consume: " << rd_kafka_message_errstr(m));
    } else {
      std::string value{static_cast<const char*>(m->payload), m->len};
      ++seen[whole_values ? value : value.substr(0, value.find('-'))];
    }
    rd_kafka_message_destroy(m);
  }
  BOOST_TEST(static_cast<int32_t>(at_end.size()) == partitions, "not every partition reached its end in 120 s");
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return seen;
}

// The leader of `topic`-`partition` by a Metadata request for that topic by name (internal
// topics are listed only so); -1 if unknown.
int32_t leader_of(const std::string& bootstrap, const std::string& topic, int32_t partition) {
  auto* rk = make_client(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap}});
  auto* handle = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  const rd_kafka_metadata_t* md = nullptr;
  int32_t leader = -1;
  if (rd_kafka_metadata(rk, 0, handle, &md, 15'000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    for (int t = 0; t < md->topic_cnt; ++t)
      for (int p = 0; p < md->topics[t].partition_cnt; ++p)
        if (md->topics[t].partitions[p].id == partition && md->topics[t].partitions[p].err == 0)
          leader = md->topics[t].partitions[p].leader;
    rd_kafka_metadata_destroy(md);
  }
  rd_kafka_topic_destroy(handle);
  rd_kafka_destroy(rk);
  return leader;
}

} // namespace

BOOST_AUTO_TEST_SUITE(transactions)

// Commit, abort, commit, then a transaction left open whose producer a second one with the
// same id fences: read_committed sees the two committed transactions and nothing else, and
// after the fencing (its open transaction aborted by the coordinator) still the same;
// read_uncommitted sees every record written.
BOOST_AUTO_TEST_CASE(read_committed_sees_only_committed_transactions) {
  cafka::test::kafka_endpoint broker;
  const std::string topic = "txn-data";
  broker.create_topic(topic, partitions);

  auto* first = transactional_producer(broker.bootstrap(), "txn-one");
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(first), "begin 1"));
  produce(first, topic, "committed", 300);
  BOOST_REQUIRE(ok(rd_kafka_commit_transaction(first, 60'000), "commit 1"));
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(first), "begin 2"));
  produce(first, topic, "aborted", 200);
  BOOST_REQUIRE(ok(rd_kafka_abort_transaction(first, 60'000), "abort 2"));
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(first), "begin 3"));
  produce(first, topic, "second", 100);
  BOOST_REQUIRE(ok(rd_kafka_commit_transaction(first, 60'000), "commit 3"));
  // Left open: written, acknowledged, neither committed nor aborted.
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(first), "begin 4"));
  produce(first, topic, "open", 50);

  auto committed = read_all(broker.bootstrap(), topic, "read_committed");
  BOOST_TEST(committed["committed"] == 300);
  BOOST_TEST(committed["second"] == 100);
  BOOST_TEST(committed.count("aborted") == 0u, "aborted records read");
  BOOST_TEST(committed.count("open") == 0u, "records of the open transaction read");
  auto everything = read_all(broker.bootstrap(), topic, "read_uncommitted");
  BOOST_TEST(everything["committed"] == 300);
  BOOST_TEST(everything["aborted"] == 200);
  BOOST_TEST(everything["second"] == 100);
  BOOST_TEST(everything["open"] == 50);

  // Another producer with the same id: the open transaction is aborted and the first
  // producer fenced (its commit fails).
  auto* second = transactional_producer(broker.bootstrap(), "txn-one");
  auto* refused = rd_kafka_commit_transaction(first, 30'000);
  BOOST_TEST(refused != nullptr, "the fenced producer's commit succeeded");
  if (refused != nullptr) {
    BOOST_TEST_MESSAGE("fenced producer's commit: " << rd_kafka_error_string(refused));
    rd_kafka_error_destroy(refused);
  }
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(second), "begin 5"));
  produce(second, topic, "third", 30);
  BOOST_REQUIRE(ok(rd_kafka_commit_transaction(second, 60'000), "commit 5"));

  committed = read_all(broker.bootstrap(), topic, "read_committed");
  BOOST_TEST(committed["committed"] == 300);
  BOOST_TEST(committed["second"] == 100);
  BOOST_TEST(committed["third"] == 30);
  BOOST_TEST(committed.count("aborted") == 0u);
  BOOST_TEST(committed.count("open") == 0u, "records of the fenced transaction read");
  rd_kafka_destroy(first);
  rd_kafka_destroy(second);
}

// The offset of `group` committed for `topic`-0 (-1001: none), read by a consumer of that group.
int64_t committed_offset(const std::string& bootstrap, const std::string& group, const std::string& topic) {
  auto* rk = make_client(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap}, {"group.id", group}});
  auto* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), 0);
  auto err = rd_kafka_committed(rk, list, 30'000);
  BOOST_TEST(err == RD_KAFKA_RESP_ERR_NO_ERROR, "committed: " << rd_kafka_err2str(err));
  auto offset = list->elems[0].offset;
  rd_kafka_topic_partition_list_destroy(list);
  rd_kafka_destroy(rk);
  return offset;
}

// send_offsets_to_transaction (AddOffsetsToTxn, TxnOffsetCommit): the group's offset moves
// with the transactions that commit and stays where it was through the one that aborts.
BOOST_AUTO_TEST_CASE(offsets_sent_in_a_transaction_are_committed_with_it_only) {
  cafka::test::kafka_endpoint broker;
  const std::string in = "txn-in", out = "txn-out", group = "txn-pipeline";
  broker.create_topic(in, 1);
  broker.create_topic(out, partitions);
  auto* producer = transactional_producer(broker.bootstrap(), "txn-offsets");
  auto* metadata = rd_kafka_consumer_group_metadata_new(group.c_str());
  auto transaction = [&](int64_t offset, bool commit) {
    BOOST_REQUIRE(ok(rd_kafka_begin_transaction(producer), "begin"));
    produce(producer, out, commit ? "out" : "dropped", 20);
    auto* offsets = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(offsets, in.c_str(), 0)->offset = offset;
    BOOST_REQUIRE(ok(rd_kafka_send_offsets_to_transaction(producer, offsets, metadata, 60'000), "send offsets"));
    rd_kafka_topic_partition_list_destroy(offsets);
    if (commit)
      BOOST_REQUIRE(ok(rd_kafka_commit_transaction(producer, 60'000), "commit"));
    else
      BOOST_REQUIRE(ok(rd_kafka_abort_transaction(producer, 60'000), "abort"));
  };
  transaction(40, true);
  BOOST_TEST(committed_offset(broker.bootstrap(), group, in) == 40);
  transaction(80, false);
  BOOST_TEST(committed_offset(broker.bootstrap(), group, in) == 40);
  transaction(100, true);
  BOOST_TEST(committed_offset(broker.bootstrap(), group, in) == 100);
  rd_kafka_consumer_group_metadata_destroy(metadata);
  rd_kafka_destroy(producer);
  auto seen = read_all(broker.bootstrap(), out, "read_committed");
  BOOST_TEST(seen["out"] == 40);
  BOOST_TEST(seen.count("dropped") == 0u);
}

// A transaction its producer neither commits nor aborts is aborted by the coordinator once it
// is open longer than its transaction.timeout.ms (checked every 500 ms here): its records are
// in the log, a read_committed consumer reads none of them, and the producer, fenced, cannot
// commit it any more.
BOOST_AUTO_TEST_CASE(a_transaction_open_past_its_timeout_is_aborted) {
  cafka::test::cluster_fixture c{1, 6000, {"transaction.abort.timed.out.transaction.cleanup.interval.ms=500",
                                           "transaction.state.log.num.partitions=2", "offsets.topic.num.partitions=2"}};
  const std::string topic = "txn-timeout";
  auto created = c.create_topic(1, topic, partitions, 1, {});
  BOOST_REQUIRE_MESSAGE(created.code == 0, created.out + created.err);
  auto* producer = make_client(RD_KAFKA_PRODUCER, {{"bootstrap.servers", c.bootstrap(1)},
                                                   {"transactional.id", "txn-timeout-id"},
                                                   {"transaction.timeout.ms", "3000"},
                                                   {"message.timeout.ms", "3000"}});
  BOOST_REQUIRE(ok(rd_kafka_init_transactions(producer, 60'000), "init_transactions"));
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(producer), "begin"));
  produce(producer, topic, "committed", 30);
  BOOST_REQUIRE(ok(rd_kafka_commit_transaction(producer, 60'000), "commit"));
  BOOST_REQUIRE(ok(rd_kafka_begin_transaction(producer), "begin abandoned"));
  produce(producer, topic, "abandoned", 30);
  auto aborted = cafka::test::poll_until(
    [&] { return c.history(1).find("aborting the transaction of 'txn-timeout-id'") != std::string::npos; }, 60s);
  BOOST_REQUIRE_MESSAGE(aborted, "the coordinator did not abort the transaction:\n" << c.history(1));
  BOOST_TEST(read_all(c.bootstrap(1), topic, "read_uncommitted")["abandoned"] == 30);
  auto seen = read_all(c.bootstrap(1), topic, "read_committed");
  BOOST_TEST(seen["committed"] == 30);
  BOOST_TEST(seen.count("abandoned") == 0u, "records of the timed-out transaction read");
  auto* refused = rd_kafka_commit_transaction(producer, 30'000);
  BOOST_TEST(refused != nullptr, "the timed-out transaction committed");
  if (refused != nullptr)
    rd_kafka_error_destroy(refused);
  rd_kafka_destroy(producer);
}

// Three brokers, the data and __transaction_state replicated three times. Transactions are
// committed and aborted in turn; twice the broker coordinating the producer's transactional id
// is killed with kill -9 while a transaction is open (its records written), and the commit
// that follows goes to the new coordinator, which loaded the id from its replica. A
// read_committed consumer then sees every committed transaction whole and nothing aborted.
BOOST_AUTO_TEST_CASE(transactions_survive_kill_9_of_their_coordinator) {
  cafka::test::cluster_fixture c{3, 6000, {"transaction.state.log.num.partitions=3", "offsets.topic.num.partitions=3"}};
  const std::string topic = "txn-failover";
  auto created = c.create_topic(1, topic, partitions, 3, {"min.insync.replicas=2"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, created.out + created.err);
  auto bootstrap = c.bootstrap(1) + "," + c.bootstrap(2) + "," + c.bootstrap(3);
  const std::string id = "txn-failover-id";
  auto state_partition = cafka::cluster::txn_partition_for(id, 3);

  auto* producer = transactional_producer(bootstrap, id);
  constexpr int rounds = 6;
  std::vector<int32_t> killed;
  for (int round = 0; round < rounds; ++round) {
    BOOST_REQUIRE(ok(rd_kafka_begin_transaction(producer), "begin"));
    produce(producer, topic, "c" + std::to_string(round), 60);
    if (round == 1 || round == 4) {
      std::string via;
      for (auto b : c.running_ids())
        via = c.bootstrap(b);
      auto coordinator = leader_of(via, std::string{cafka::cluster::transaction_state_topic}, state_partition);
      BOOST_REQUIRE_MESSAGE(coordinator > 0, "no leader of __transaction_state-" << state_partition);
      BOOST_TEST_MESSAGE("round " << round << ": kill -9 of broker " << coordinator << ", the coordinator");
      c.kill(coordinator);
      killed.push_back(coordinator);
    }
    BOOST_REQUIRE_MESSAGE(ok(rd_kafka_commit_transaction(producer, 120'000), "commit"), c.outputs());
    if (!killed.empty() && c.running_ids().size() < 3) // back before the next kill
      c.start(killed.back());
    BOOST_REQUIRE(ok(rd_kafka_begin_transaction(producer), "begin abort"));
    produce(producer, topic, "a" + std::to_string(round), 40);
    BOOST_REQUIRE(ok(rd_kafka_abort_transaction(producer, 120'000), "abort"));
  }
  rd_kafka_destroy(producer);

  auto seen = read_all(bootstrap, topic, "read_committed");
  for (int round = 0; round < rounds; ++round) {
    BOOST_TEST(seen["c" + std::to_string(round)] == 60, "transaction c" << round);
    BOOST_TEST(seen.count("a" + std::to_string(round)) == 0u, "aborted transaction a" << round << " read");
  }
}

// examples/exactly_once_pipeline.cpp (cafka's transactional producer and group member) is
// killed with SIGKILL at random moments over 20 rounds while input keeps arriving, and one
// broker of the three is killed as well; then it runs to the end. A read_committed reader
// (librdkafka) of the output sees each input record's output exactly once. The kill moments
// come from std::mt19937 with the printed seed (CAFKA_PIPELINE_SEED repeats a run).
BOOST_AUTO_TEST_CASE(the_exactly_once_pipeline_survives_kill_9_of_itself_and_of_a_broker) {
  cafka::test::cluster_fixture c{3, 6000,
                                 {"transaction.state.log.num.partitions=3", "offsets.topic.num.partitions=3",
                                  "group.min.session.timeout.ms=1000"}};
  for (auto* topic : {"pipeline-in", "pipeline-out"}) {
    auto created = c.create_topic(1, topic, partitions, 3, {"min.insync.replicas=2"});
    BOOST_REQUIRE_MESSAGE(created.code == 0, created.out + created.err);
  }
  auto caf_bootstrap = [&] {
    std::string out;
    for (auto b : c.running_ids())
      out += (out.empty() ? "" : ",") + c.caf_address(b);
    return out;
  };
  auto seed = std::random_device{}();
  if (auto s = std::getenv("CAFKA_PIPELINE_SEED"))
    seed = static_cast<unsigned>(std::stoul(s));
  BOOST_TEST_MESSAGE("exactly_once_pipeline: kill moments from std::mt19937 seed " << seed << " (CAFKA_PIPELINE_SEED)");
  std::printf("exactly_once_pipeline: seed %u (CAFKA_PIPELINE_SEED)\n", seed);
  std::mt19937 rng{seed};

  // The input: "word-<i>" records, written all along by cafka's (idempotent) producer.
  cafka::test::client_system client;
  std::mutex mtx;
  std::set<std::string> acked, unsure; // unsure: failed, so maybe written, maybe not
  std::atomic<bool> stop_input{false};
  std::atomic<int> sent{0};
  cafka::client::producer_config pc;
  pc.bootstrap_servers = caf_bootstrap();
  pc.linger = 5ms;
  cafka::client::producer input{client.sys, pc};
  std::thread writer{[&] {
    while (!stop_input.load()) {
      for (int k = 0; k < 20; ++k) {
        auto value = "word-" + std::to_string(sent++);
        input.send(cafka::client::producer_record{"pipeline-in", value, value, {}, std::nullopt, std::nullopt},
                   [&, value](caf::expected<cafka::client::record_metadata> md) {
                     std::lock_guard<std::mutex> guard{mtx};
                     (md ? acked : unsure).insert(value);
                   });
      }
      std::this_thread::sleep_for(100ms);
    }
  }};

  const std::string pipeline_bin = CAFKA_BINARY_DIR "/bin/cafka-example-exactly-once-pipeline";
  auto pipeline_args = [&] {
    return std::vector<std::string>{pipeline_bin, "--bootstrap-server=" + caf_bootstrap(), "--input=pipeline-in",
                                    "--output=pipeline-out", "--group=pipeline", "--transactional-id=pipeline-1",
                                    "--session-timeout-ms=2000"};
  };
  std::uniform_int_distribution<int> delay_ms{500, 8000};
  std::uniform_int_distribution<int32_t> broker{1, 3};
  constexpr int rounds = 20;
  const int broker_round = std::uniform_int_distribution<int>{3, rounds - 3}(rng);
  for (int round = 0; round < rounds; ++round) {
    auto delay = std::chrono::milliseconds(delay_ms(rng));
    cafka::test::child pipeline{pipeline_args()};
    std::this_thread::sleep_for(delay);
    if (round == broker_round) {
      auto victim = broker(rng);
      BOOST_TEST_MESSAGE("round " << round << ": kill -9 of broker " << victim);
      c.kill(victim);
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    }
    auto pid = pipeline.pid();
    BOOST_REQUIRE_MESSAGE(pid > 0, "the pipeline did not start");
    ::kill(pid, SIGKILL);
    auto res = pipeline.wait(30s);
    auto committed = 0;
    for (auto& line : cafka::test::lines(res.out))
      committed += line.rfind("committed ", 0) == 0 ? 1 : 0;
    BOOST_TEST_MESSAGE("round " << round << ": killed after " << delay.count() << " ms, " << committed
                                << " transactions committed; exit " << res.code << (res.err.empty() ? "" : "; ")
                                << res.err);
  }
  stop_input = true;
  writer.join();
  BOOST_REQUIRE(!input.flush());
  input.close();
  BOOST_TEST_MESSAGE("input: " << acked.size() << " records acknowledged, " << unsure.size() << " failed");
  BOOST_REQUIRE(!acked.empty());

  // The last run goes on until everything acknowledged has come out.
  cafka::test::child last{pipeline_args()};
  auto bootstrap = [&] {
    std::string out;
    for (auto b : c.running_ids())
      out += (out.empty() ? "" : ",") + c.bootstrap(b);
    return out;
  };
  // What the pipeline makes of an input value (examples/exactly_once_pipeline.cpp: transform).
  auto shout = [](std::string v) {
    for (auto& ch : v)
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return v;
  };
  std::set<std::string> expected;
  for (auto& value : acked)
    expected.insert(shout(value));
  std::set<std::string> maybe; // outputs of the failed inputs: at most once
  for (auto& value : unsure)
    maybe.insert(shout(value));
  std::map<std::string, int> out;
  auto complete = [&] {
    for (auto& value : expected)
      if (out.count(value) == 0)
        return false;
    return true;
  };
  for (auto deadline = std::chrono::steady_clock::now() + 240s; std::chrono::steady_clock::now() < deadline;) {
    out = read_all(bootstrap(), "pipeline-out", "read_committed", true);
    if (complete())
      break;
    std::this_thread::sleep_for(2s);
  }
  ::kill(last.pid(), SIGKILL);
  auto res = last.wait(30s);
  out = read_all(bootstrap(), "pipeline-out", "read_committed", true);
  size_t missing = 0, twice = 0, unknown = 0;
  for (auto& value : expected)
    missing += out.count(value) == 0 ? 1 : 0;
  for (auto& [value, n] : out) {
    twice += n > 1 ? 1 : 0;
    unknown += expected.count(value) == 0 && maybe.count(value) == 0 ? 1 : 0;
  }
  BOOST_TEST(missing == 0u, "outputs missing (last run's output: " << res.out << res.err << ")");
  BOOST_TEST(twice == 0u);
  BOOST_TEST(unknown == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
