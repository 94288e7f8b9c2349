// librdkafka 2.0.2 (Debian's librdkafka-dev, C++ API) in this process against a
// cafka-server Kafka listener: 100,000 keyed records with binary payloads produced with
// acks=all and LZ4, every delivery report checked, then read back by a consumer with
// assigned partitions (no group membership) from the beginning; per-partition order
// and every key and payload checked; the admin client's ListConsumerGroupOffsets of every
// partition a group committed (OffsetFetch v6+ with a null topic list: librdkafka asks for
// "all partitions" only that way). Waits are bounded by deadlines that only stop a hang;
// nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/integration/kafka_endpoint.hpp"
#include "tests/integration/rdkafka_features.hpp"

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr int record_count = 100'000;
constexpr int32_t partition_count = 4;
constexpr auto produce_limit = 300s;
constexpr auto consume_limit = 300s;

std::string key_of(int i) {
  return "key-" + std::to_string(i % 1000);
}

// "value-<i>:" then 0..150 pseudo-random bytes (every byte value, NUL included), so a
// broker that treats payloads as text or cuts them short is caught.
std::string payload_of(int i) {
  auto out = "value-" + std::to_string(i) + ":";
  uint64_t x = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull + 1;
  auto n = static_cast<size_t>((static_cast<uint64_t>(i) * 7919u) % 151u);
  for (size_t j = 0; j < n; ++j) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 29;
    out.push_back(static_cast<char>(x & 0xFF));
  }
  return out;
}

std::unique_ptr<RdKafka::Conf> make_conf(const std::map<std::string, std::string>& settings) {
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  std::string err;
  for (auto& [k, v] : settings)
    if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
      throw std::runtime_error("librdkafka config " + k + "=" + v + ": " + err);
  return conf;
}

// Where each record was acknowledged; called from poll()/flush() on the producing thread.
struct delivery_reports : RdKafka::DeliveryReportCb {
  struct report {
    bool done = false;
    RdKafka::ErrorCode err = RdKafka::ERR_NO_ERROR;
    int32_t partition = -1;
    int64_t offset = -1;
  };
  std::vector<report> by_record = std::vector<report>(record_count);
  size_t received = 0;

  void dr_cb(RdKafka::Message& m) override {
    auto i = reinterpret_cast<uintptr_t>(m.msg_opaque());
    if (i >= by_record.size() || by_record[i].done) {
      ++received; // counted, so a stray or repeated report breaks the total
      return;
    }
    by_record[i] = {true, m.err(), m.partition(), m.offset()};
    ++received;
  }
};

// librdkafka's log, kept and still printed to stderr: with debug=feature it tells
// whether LZ4 was enabled for the broker (see rdkafka_features.hpp). Called from
// librdkafka's threads.
struct log_watch : RdKafka::EventCb {
  std::mutex mutex;
  std::string lines;

  void event_cb(RdKafka::Event& e) override {
    std::lock_guard<std::mutex> g{mutex};
    lines += e.str() + "\n";
    auto level = e.type() == RdKafka::Event::EVENT_LOG ? static_cast<int>(e.severity()) : -1;
    std::fprintf(stderr, "librdkafka %d %s: %s\n", level, e.fac().c_str(), e.str().c_str());
  }
};

// Sends every record; returns when all are acknowledged or the deadline passed.
void produce_all(const std::string& bootstrap, const std::string& topic, delivery_reports& reports) {
  log_watch log;
  auto conf = make_conf({{"bootstrap.servers", bootstrap},
                         {"acks", "all"},
                         {"compression.codec", "lz4"},
                         {"debug", "feature"},
                         {"message.timeout.ms", "120000"}});
  std::string err;
  if (conf->set("dr_cb", &reports, err) != RdKafka::Conf::CONF_OK
      || conf->set("event_cb", static_cast<RdKafka::EventCb*>(&log), err) != RdKafka::Conf::CONF_OK)
    throw std::runtime_error("callbacks: " + err);
  std::unique_ptr<RdKafka::Producer> producer{RdKafka::Producer::create(conf.get(), err)};
  BOOST_REQUIRE_MESSAGE(producer, "Producer::create: " << err);

  auto deadline = clock_type::now() + produce_limit;
  for (int i = 0; i < record_count; ++i) {
    auto key = key_of(i);
    auto payload = payload_of(i);
    for (;;) {
      auto e = producer->produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY,
                                 payload.data(), payload.size(), key.data(), key.size(), 0,
                                 reinterpret_cast<void*>(static_cast<uintptr_t>(i)));
      if (e == RdKafka::ERR_NO_ERROR)
        break;
      BOOST_REQUIRE_MESSAGE(e == RdKafka::ERR__QUEUE_FULL, "produce #" << i << ": " << RdKafka::err2str(e));
      BOOST_REQUIRE_MESSAGE(clock_type::now() < deadline, "local queue still full after the deadline at #" << i);
      producer->poll(100); // serves delivery reports, which frees queue space
    }
    producer->poll(0);
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
  producer->flush(static_cast<int>(std::max<int64_t>(left.count(), 1)));
  auto unacknowledged = producer->outq_len();
  if (unacknowledged != 0) // so destroying the producer does not wait for them
    producer->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
  BOOST_REQUIRE_MESSAGE(unacknowledged == 0, unacknowledged << " records still unacknowledged after the deadline");
  producer.reset(); // no more log callbacks into `log` after this
  BOOST_TEST(cafka::test::rdkafka_enabled_lz4(log.lines),
             "librdkafka did not enable LZ4 for the broker, so it sent uncompressed batches (log above)");
}

// Per partition, the record numbers in offset order, from the delivery reports; fails
// on a failed or missing report, on offsets that are not dense from 0, or on a
// partition whose offsets do not follow the send order.
std::map<int32_t, std::vector<int>> check_reports(const delivery_reports& reports) {
  BOOST_REQUIRE_EQUAL(reports.received, static_cast<size_t>(record_count));
  std::map<int32_t, std::vector<int>> by_partition;
  for (int i = 0; i < record_count; ++i) {
    auto& r = reports.by_record[static_cast<size_t>(i)];
    BOOST_REQUIRE_MESSAGE(r.done, "no delivery report for #" << i);
    BOOST_REQUIRE_MESSAGE(r.err == RdKafka::ERR_NO_ERROR, "#" << i << " failed: " << RdKafka::err2str(r.err));
    BOOST_REQUIRE_MESSAGE(r.partition >= 0 && r.partition < partition_count,
                          "#" << i << " went to partition " << r.partition);
    auto& list = by_partition[r.partition];
    // Sent in order, so acknowledged at consecutive offsets in that order.
    BOOST_REQUIRE_MESSAGE(r.offset == static_cast<int64_t>(list.size()),
                          "#" << i << " acknowledged at " << r.partition << "/" << r.offset << ", expected offset "
                              << list.size());
    list.push_back(i);
  }
  return by_partition;
}

// Reads every assigned partition from the beginning to its end and checks each record
// against `expected` (per partition, record numbers in offset order); `extra`: more
// consumer settings.
void consume_and_check(const std::string& bootstrap, const std::string& topic,
                       const std::map<int32_t, std::vector<int>>& expected,
                       const std::map<std::string, std::string>& extra = {}) {
  // assign() needs a group.id in librdkafka, but nothing joins a group: no subscribe(),
  // no commits, explicit start offsets.
  std::map<std::string, std::string> settings{{"bootstrap.servers", bootstrap},
                                              {"group.id", "cafka-it-librdkafka-assign"},
                                              {"enable.auto.commit", "false"},
                                              {"enable.auto.offset.store", "false"},
                                              {"enable.partition.eof", "true"}};
  for (auto& [k, v] : extra)
    settings[k] = v;
  auto conf = make_conf(settings);
  std::string err;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer{RdKafka::KafkaConsumer::create(conf.get(), err)};
  BOOST_REQUIRE_MESSAGE(consumer, "KafkaConsumer::create: " << err);
  std::vector<RdKafka::TopicPartition*> assignment;
  for (int32_t p = 0; p < partition_count; ++p)
    assignment.push_back(RdKafka::TopicPartition::create(topic, p, RdKafka::Topic::OFFSET_BEGINNING));
  auto assigned = consumer->assign(assignment);
  RdKafka::TopicPartition::destroy(assignment);
  BOOST_REQUIRE_MESSAGE(assigned == RdKafka::ERR_NO_ERROR, "assign: " << RdKafka::err2str(assigned));

  std::map<int32_t, size_t> next; // partition -> index into expected[partition]
  std::map<int32_t, bool> at_end;
  size_t total = 0;
  int errors_shown = 0;
  auto deadline = clock_type::now() + consume_limit;
  while (static_cast<int32_t>(at_end.size()) < partition_count && clock_type::now() < deadline) {
    std::unique_ptr<RdKafka::Message> m{consumer->consume(500)};
    if (m->err() == RdKafka::ERR__TIMED_OUT)
      continue;
    if (m->err() == RdKafka::ERR__PARTITION_EOF) {
      // Everything was produced before consuming, so the first end is the real end.
      auto p = m->partition();
      auto want = expected.count(p) ? expected.at(p).size() : 0u;
      BOOST_REQUIRE_MESSAGE(next[p] == want,
                            "partition " << p << " ended after " << next[p] << " records, expected " << want);
      at_end[p] = true;
      continue;
    }
    if (m->err() != RdKafka::ERR_NO_ERROR) {
      // Consumer errors are informational (e.g. a lost connection librdkafka retries);
      // missing data is what fails the test.
      if (errors_shown++ < 20)
        BOOST_TEST_MESSAGE("consumer error: " << m->errstr());
      continue;
    }
    auto p = m->partition();
    BOOST_REQUIRE_MESSAGE(m->topic_name() == topic && expected.count(p),
                          "record from " << m->topic_name() << "/" << p);
    auto& list = expected.at(p);
    auto& n = next[p];
    BOOST_REQUIRE_MESSAGE(m->offset() == static_cast<int64_t>(n),
                          "partition " << p << ": offset " << m->offset() << " where " << n << " was next");
    BOOST_REQUIRE_MESSAGE(n < list.size(), "partition " << p << ": more records than produced");
    auto i = list[n];
    auto key = m->key() ? *m->key() : std::string{"<null>"};
    BOOST_REQUIRE_MESSAGE(key == key_of(i), p << "/" << n << ": key " << key << ", expected " << key_of(i));
    std::string payload{static_cast<const char*>(m->payload()), m->len()};
    BOOST_REQUIRE_MESSAGE(payload == payload_of(i), p << "/" << n << ": payload of #" << i << " differs");
    ++n;
    ++total;
  }
  consumer->close();
  BOOST_REQUIRE_MESSAGE(static_cast<int32_t>(at_end.size()) == partition_count,
                        "only " << at_end.size() << " partitions reached their end before the deadline");
  BOOST_TEST(total == static_cast<size_t>(record_count));
}

} // namespace

BOOST_AUTO_TEST_SUITE(librdkafka)

BOOST_AUTO_TEST_CASE(hundred_thousand_keyed_lz4_records_round_trip) {
  cafka::test::kafka_endpoint broker;
  const std::string topic = "rdkafka-round-trip";
  broker.create_topic(topic, partition_count);

  delivery_reports reports;
  produce_all(broker.bootstrap(), topic, reports);
  auto by_partition = check_reports(reports);
  // 1000 keys over 4 partitions: each gets some.
  BOOST_TEST(by_partition.size() == static_cast<size_t>(partition_count));
  consume_and_check(broker.bootstrap(), topic, by_partition);
  // A response limit below the partition limit (each partition holds over 2 MB): the broker
  // cuts the first partition's data to whole batches within fetch.max.bytes (only a first
  // batch may be larger), so the response fits the client's receive.message.max.bytes;
  // answering the partition whole made librdkafka refuse the response and retry forever.
  consume_and_check(broker.bootstrap(), topic, by_partition,
                    {{"fetch.max.bytes", "2000000"},
                     {"max.partition.fetch.bytes", "20000000"},
                     {"receive.message.max.bytes", "2000512"}});
}

BOOST_AUTO_TEST_CASE(the_admin_client_lists_every_offset_a_group_committed) {
  cafka::test::kafka_endpoint broker;
  const std::string topic = "rdkafka-committed";
  broker.create_topic(topic, 3);
  // Commits outside any membership (as a tool resetting offsets does): 10, 20, 30.
  {
    auto conf = make_conf({{"bootstrap.servers", broker.bootstrap()}, {"group.id", "listed"},
                           {"enable.auto.commit", "false"}});
    std::string err;
    std::unique_ptr<RdKafka::KafkaConsumer> consumer{RdKafka::KafkaConsumer::create(conf.get(), err)};
    BOOST_REQUIRE_MESSAGE(consumer, err);
    std::vector<RdKafka::TopicPartition*> offsets;
    for (int32_t p = 0; p < 3; ++p)
      offsets.push_back(RdKafka::TopicPartition::create(topic, p, 10 * (p + 1)));
    auto committed = consumer->commitSync(offsets);
    RdKafka::TopicPartition::destroy(offsets);
    BOOST_REQUIRE_MESSAGE(committed == RdKafka::ERR_NO_ERROR, RdKafka::err2str(committed));
    consumer->close();
  }
  char errstr[512];
  auto* conf = rd_kafka_conf_new();
  BOOST_REQUIRE(rd_kafka_conf_set(conf, "bootstrap.servers", broker.bootstrap().c_str(), errstr, sizeof errstr)
                == RD_KAFKA_CONF_OK);
  auto* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  BOOST_REQUIRE_MESSAGE(rk, errstr);
  auto* queue = rd_kafka_queue_new(rk);
  auto* request = rd_kafka_ListConsumerGroupOffsets_new("listed", nullptr); // every partition
  rd_kafka_ListConsumerGroupOffsets(rk, &request, 1, nullptr, queue);
  rd_kafka_ListConsumerGroupOffsets_destroy(request);
  auto* event = rd_kafka_queue_poll(queue, 60'000);
  BOOST_REQUIRE_MESSAGE(event, "no ListConsumerGroupOffsets result in 60 s");
  std::map<int32_t, int64_t> listed;
  BOOST_TEST(rd_kafka_event_error(event) == RD_KAFKA_RESP_ERR_NO_ERROR, rd_kafka_event_error_string(event));
  if (auto* result = rd_kafka_event_ListConsumerGroupOffsets_result(event)) {
    size_t n = 0;
    auto** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(result, &n);
    BOOST_REQUIRE_EQUAL(n, 1u);
    if (auto* e = rd_kafka_group_result_error(groups[0]))
      BOOST_ERROR("group error: " << rd_kafka_error_string(e));
    if (auto* parts = rd_kafka_group_result_partitions(groups[0]))
      for (int i = 0; i < parts->cnt; ++i)
        if (parts->elems[i].topic == topic)
          listed[parts->elems[i].partition] = parts->elems[i].offset;
  }
  rd_kafka_event_destroy(event);
  rd_kafka_queue_destroy(queue);
  rd_kafka_destroy(rk);
  BOOST_TEST((listed == std::map<int32_t, int64_t>{{0, 10}, {1, 20}, {2, 30}}));
}

BOOST_AUTO_TEST_SUITE_END()
