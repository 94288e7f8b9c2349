// The latency phase: a producer sends at a fixed rate with linger.ms=0 while a consumer
// that starts at the end of every partition reads them back. Each record's first 8
// bytes are its send time on the steady clock (nanoseconds, native byte order: producer
// and consumer share this process and its clock); the consumer's receive time minus it
// is one sample of produce-to-consume latency.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "apps/perf_phases.hpp"

namespace cafka::perf {

using namespace std::chrono;

namespace {

int64_t steady_now_ns() {
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
}

// Nearest-rank percentile of sorted samples, in microseconds.
int64_t percentile_us(const std::vector<int64_t>& sorted_ns, double p) {
  if (sorted_ns.empty())
    return 0;
  auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted_ns.size())));
  return sorted_ns[std::clamp<size_t>(rank, 1, sorted_ns.size()) - 1] / 1000;
}

// Sets `key` unless the user overrode it.
void set_default(properties& p, const properties& overrides, const std::string& key, const std::string& value) {
  if (overrides.count(key) == 0)
    p[key] = value;
}

} // namespace

latency run_latency(const target& t, const settings& s) {
  auto consumer_props = consumer_properties(t, s);
  // Answer a fetch as soon as one record is there, and do not sit on an empty log long.
  set_default(consumer_props, s.consumer_overrides, "fetch.wait.max.ms", std::to_string(s.fetch_wait_ms));
  set_default(consumer_props, s.consumer_overrides, "fetch.min.bytes", "1");
  auto consumer = make_client(RD_KAFKA_CONSUMER, make_conf(consumer_props));
  auto marks = query_watermarks(consumer.get(), s.topic, partitions_of(consumer.get(), s.topic, s.timeout), s.timeout);
  // Explicit end offsets rather than OFFSET_END: no race with the first records sent.
  partition_reader reader{consumer.get(), s.topic, marks, true};

  auto producer_props = producer_properties(t, s);
  set_default(producer_props, s.producer_overrides, "linger.ms", "0");
  delivery_counts counts;
  counts.expected = -1; // known once sending stops
  auto producer = make_producer(producer_props, counts);
  topic_handle topic{rd_kafka_topic_new(producer.get(), s.topic.c_str(), nullptr)};
  partitions_of(producer.get(), s.topic, s.timeout);

  std::vector<int64_t> samples_ns;
  samples_ns.reserve(static_cast<size_t>(s.rate * s.seconds));
  std::atomic<int64_t> to_receive{-1}; // set when the producer is done
  std::string consume_error;
  std::thread receiver{[&] {
    // Once sending is done, what has not arrived within s.timeout counts as lost.
    std::optional<steady_clock::time_point> give_up;
    for (;;) {
      if (auto goal = to_receive.load(); goal >= 0) {
        if (!give_up)
          give_up = steady_clock::now() + s.timeout;
        if (static_cast<int64_t>(samples_ns.size()) >= goal || steady_clock::now() > *give_up)
          return;
      }
      auto m = reader.poll(100);
      auto received_ns = steady_now_ns();
      if (!m)
        continue;
      if (m->err) {
        if (consume_error.empty())
          consume_error = rd_kafka_message_errstr(m.get());
        continue;
      }
      if (m->len < sizeof(int64_t))
        continue; // not one of ours
      int64_t sent_ns = 0;
      std::memcpy(&sent_ns, m->payload, sizeof sent_ns);
      samples_ns.push_back(received_ns - sent_ns);
    }
  }};

  auto payload = random_payload(s.record_size);
  int64_t sent = 0;
  int64_t refused = 0;
  auto start = steady_clock::now();
  const auto total = s.rate * s.seconds;
  for (auto now = start; sent < total; now = steady_clock::now()) {
    // Record i is due at start + i/rate; send whatever is due, then sleep until the next.
    auto due = std::min(total, duration_cast<nanoseconds>(now - start).count() * s.rate / 1'000'000'000 + 1);
    while (sent < due) {
      auto stamp = steady_now_ns();
      std::memcpy(payload.data(), &stamp, sizeof stamp);
      if (rd_kafka_produce(topic.get(), RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, payload.data(), payload.size(),
                           nullptr, 0, nullptr)
          == 0) {
        ++sent;
      } else if (auto err = rd_kafka_last_error(); err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        rd_kafka_poll(producer.get(), 1);
      } else {
        if (++refused == 1 && counts.first_error.empty())
          counts.first_error = rd_kafka_err2str(err);
        ++sent; // it was due; do not retry it
      }
    }
    rd_kafka_poll(producer.get(), 0);
    std::this_thread::sleep_until(start + nanoseconds{sent * 1'000'000'000 / s.rate});
  }
  auto producing = duration<double>(steady_clock::now() - start).count();
  auto accepted = sent - refused;
  counts.expected = accepted;
  rd_kafka_flush(producer.get(), static_cast<int>((s.timeout + seconds{5}).count()));
  auto unreported = std::max<int64_t>(0, accepted - counts.reports);
  to_receive = counts.reports - counts.failed;
  receiver.join();

  latency out;
  out.sent = accepted;
  out.received = static_cast<int64_t>(samples_ns.size());
  out.errors = refused + counts.failed + unreported;
  out.seconds = producing;
  out.first_error = !counts.first_error.empty() ? counts.first_error : consume_error;
  std::sort(samples_ns.begin(), samples_ns.end());
  out.p50_us = percentile_us(samples_ns, 50);
  out.p99_us = percentile_us(samples_ns, 99);
  out.p999_us = percentile_us(samples_ns, 99.9);
  out.max_us = samples_ns.empty() ? 0 : samples_ns.back() / 1000;
  return out;
}

} // namespace cafka::perf
