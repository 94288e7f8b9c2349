// The produce phase: N records of one size, as fast as librdkafka takes them, timed from
// the first send to the last delivery report.

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/perf_phases.hpp"

namespace cafka::perf {

using namespace std::chrono;

std::vector<char> random_payload(int64_t size) {
  std::vector<char> out(static_cast<size_t>(size));
  std::mt19937 gen{42};
  std::uniform_int_distribution<int> letter{'A', 'Z'};
  for (auto& c : out)
    c = static_cast<char>(letter(gen));
  return out;
}

properties producer_properties(const target& t, const settings& s) {
  properties p{
    {"bootstrap.servers", t.bootstrap},
    {"client.id", "cafka-perf"},
    {"acks", s.acks},
    {"compression.type", s.compression},
    {"linger.ms", std::to_string(s.linger_ms)},
    // Batches bounded by bytes (1 MB, under a broker's default message.max.bytes), not
    // by librdkafka's default of 10,000 records; a queue of some 20 such batches of
    // small records, so the sending thread rarely waits (deeper only costs memory).
    {"batch.size", "1000000"},
    {"batch.num.messages", "1000000"},
    {"queue.buffering.max.messages", "200000"},
    {"message.timeout.ms", std::to_string(s.timeout.count())},
  };
  for (auto& [k, v] : s.producer_overrides)
    p[k] = v;
  return p;
}

namespace {

// A transactional producer's call; its error is the phase's first error (true: none).
bool txn_call(rd_kafka_error_t* err, delivery_counts& counts) {
  if (err == nullptr)
    return true;
  if (counts.first_error.empty())
    counts.first_error = rd_kafka_error_string(err);
  rd_kafka_error_destroy(err);
  return false;
}

} // namespace

throughput run_produce(const target& t, const settings& s) {
  delivery_counts counts;
  counts.expected = s.records;
  auto props = producer_properties(t, s);
  auto in_txns = s.transaction_records > 0;
  if (in_txns)
    props["transactional.id"] = "cafka-perf-" + std::to_string(steady_clock::now().time_since_epoch().count());
  auto rk = make_producer(props, counts);
  topic_handle topic{rd_kafka_topic_new(rk.get(), s.topic.c_str(), nullptr)};
  // Connect and learn the leaders before the clock starts.
  partitions_of(rk.get(), s.topic, s.timeout);
  auto payload = random_payload(s.record_size);
  auto txn_ms = static_cast<int>((s.timeout + seconds{5}).count());
  if (in_txns && !txn_call(rd_kafka_init_transactions(rk.get(), txn_ms), counts))
    throw std::runtime_error("init_transactions: " + counts.first_error);

  auto start = steady_clock::now();
  for (int64_t i = 0; i < s.records;) {
    if (in_txns && i % s.transaction_records == 0) {
      if (i > 0 && !txn_call(rd_kafka_commit_transaction(rk.get(), txn_ms), counts))
        break;
      if (!txn_call(rd_kafka_begin_transaction(rk.get()), counts))
        break;
    }
    // No copy flag: librdkafka references the payload, which outlives the flush below.
    if (rd_kafka_produce(topic.get(), RD_KAFKA_PARTITION_UA, 0, payload.data(), payload.size(), nullptr, 0, nullptr)
        == 0) {
      if ((++i & 1023) == 0)
        rd_kafka_poll(rk.get(), 0); // serve delivery reports now and then
      continue;
    }
    auto err = rd_kafka_last_error();
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(rk.get(), 1);
      continue;
    }
    counts.refused(err);
    ++i;
  }
  if (in_txns) // the last transaction (its commit flushes)
    txn_call(rd_kafka_commit_transaction(rk.get(), txn_ms), counts);
  rd_kafka_flush(rk.get(), static_cast<int>((s.timeout + seconds{5}).count()));
  if (counts.reports < counts.expected) {
    // message.timeout.ms should have failed them; count them as lost rather than wait.
    if (counts.failed == 0)
      counts.first_error = "no delivery report in time";
    counts.failed += counts.expected - counts.reports;
    counts.last_report = steady_clock::now();
    rd_kafka_purge(rk.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  }

  throughput out;
  out.records = s.records - counts.failed;
  out.bytes = counts.delivered_bytes;
  out.seconds = duration<double>(counts.last_report - start).count();
  out.errors = counts.failed;
  out.first_error = counts.first_error;
  return out;
}

} // namespace cafka::perf
