#pragma once
// The measurements of cafka-perf, each against one target broker:
//   produce  N records of a fixed size as fast as the client goes (throughput);
//   consume  every record of the topic back, from the beginning, no consumer group
//            (the mock broker keeps only the last 5 MiB of a partition: what it kept is
//            read again until it has delivered as many records as were produced);
//   latency  records at a fixed rate, each stamped with its send time, read back by a
//            consumer sitting at the end of the log: produce-to-consume latency.
// MB means 1,048,576 bytes, as in Kafka's own perf tools.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "apps/perf_kafka.hpp"

namespace cafka::perf {

/// What to measure and how; the command line fills it.
struct settings {
  std::string topic = "cafka-perf";
  int partitions = 1;
  int replication_factor = 1;
  properties topic_configs; ///< --topic-config, when the topic is created
  int64_t records = 2'000'000;
  int64_t record_size = 100;
  std::string acks = "1";
  std::string compression = "none";
  int64_t linger_ms = 5;
  /// produce: records per transaction of a transactional producer (0: not transactional).
  int64_t transaction_records = 0;
  int64_t rate = 20'000;        ///< latency: records per second
  int64_t seconds = 10;         ///< latency: how long to produce
  int64_t fetch_wait_ms = 100;  ///< latency: the consumer's fetch.wait.max.ms
  std::chrono::milliseconds timeout{30'000}; ///< for the broker to answer or make progress
  properties producer_overrides; ///< applied last, so they win
  properties consumer_overrides;
};

/// A throughput measurement (produce or consume).
struct throughput {
  int64_t records = 0; ///< delivered or consumed
  int64_t bytes = 0;   ///< payload bytes of those records
  double seconds = 0;
  int64_t errors = 0;      ///< produce: failed deliveries; consume: records missing at the end
  std::string first_error; ///< what went wrong first, if anything
  int64_t passes = 1;      ///< consume: reads of the topic (several only on the mock broker)

  double records_per_second() const { return seconds > 0 ? records / seconds : 0; }
  double mb_per_second() const { return seconds > 0 ? bytes / seconds / (1024.0 * 1024.0) : 0; }
};

/// Produce-to-consume latency at a fixed rate.
struct latency {
  int64_t sent = 0;     ///< records the producer handed to librdkafka
  int64_t received = 0; ///< of those, records the consumer saw
  int64_t errors = 0;   ///< failed deliveries
  double seconds = 0;   ///< time spent producing
  std::string first_error;
  int64_t p50_us = 0, p99_us = 0, p999_us = 0, max_us = 0;
};

/// The producer configuration every phase starts from: bootstrap, acks, compression,
/// batching tuned for throughput, then the --producer-property overrides.
properties producer_properties(const target& t, const settings& s);

/// The consumer configuration: no group, no commits, then the overrides.
properties consumer_properties(const target& t, const settings& s);

/// `size` random capital letters, as Kafka's ProducerPerformance sends, so that
/// --compression has something realistic to chew on.
std::vector<char> random_payload(int64_t size);

throughput run_produce(const target& t, const settings& s);
throughput run_consume(const target& t, const settings& s);
latency run_latency(const target& t, const settings& s);

} // namespace cafka::perf
