#pragma once
// The broker's counters, bumped where the work is done: the Kafka listeners (requests,
// their latency and errors, bytes and messages per topic, connections), the node actor
// (ISR shrinks and expands) and the retention cleaner. Shared by those actors through one
// object per broker; every counter is a relaxed atomic, and nothing is counted per record
// (a produce or fetch adds its batches' record counts, read off the batch headers).
//
// Scrapes read a consistent-enough copy (each value on its own; Prometheus needs no more).

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace cafka::metrics {

/// Upper bounds (milliseconds) of the request latency histogram's buckets; +Inf follows.
inline constexpr std::array<double, 15> latency_bounds_ms = {0.5, 1,   2.5,  5,    10,   25,    50,   100,
                                                              250, 500, 1000, 2500, 5000, 10000, 30000};

/// A cumulative histogram read off a live one.
struct histogram_values {
  std::array<uint64_t, latency_bounds_ms.size() + 1> buckets{}; ///< per bucket (not cumulative), +Inf last
  uint64_t count = 0;
  double sum_ms = 0;
};

class latency_histogram {
public:
  void observe(double ms) noexcept;
  histogram_values read() const noexcept;

private:
  std::array<std::atomic<uint64_t>, latency_bounds_ms.size() + 1> buckets_{};
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_us_{0};
};

/// Kafka's BrokerTopicMetrics of one topic (or of all of them).
struct topic_counters {
  std::atomic<uint64_t> messages_in{0};
  std::atomic<uint64_t> bytes_in{0};
  std::atomic<uint64_t> bytes_out{0};
  std::atomic<uint64_t> messages_out{0};
  std::atomic<uint64_t> total_produce_requests{0};
  std::atomic<uint64_t> total_fetch_requests{0};
  std::atomic<uint64_t> failed_produce_requests{0};
  std::atomic<uint64_t> failed_fetch_requests{0};
};

struct topic_values {
  uint64_t messages_in = 0, bytes_in = 0, bytes_out = 0, messages_out = 0;
  uint64_t total_produce_requests = 0, total_fetch_requests = 0;
  uint64_t failed_produce_requests = 0, failed_fetch_requests = 0;
};

topic_values read(const topic_counters& c) noexcept;

/// Connections of one listener.
struct listener_counters {
  std::atomic<uint64_t> created{0};
  std::atomic<uint64_t> closed{0};
};

/// Everything the counters held at one moment, for the text format.
struct broker_values {
  struct request_values {
    int16_t api_key = 0;
    std::vector<std::pair<int16_t, uint64_t>> per_version; ///< versions asked at least once
    histogram_values total_time;
  };
  std::vector<request_values> requests; ///< APIs asked at least once, by key
  /// (api key, error code) -> responses or partitions answered with that error.
  std::map<std::pair<int16_t, int16_t>, uint64_t> errors;
  topic_values all_topics;
  std::map<std::string, topic_values> topics;
  std::map<std::string, std::pair<uint64_t, uint64_t>> connections; ///< listener -> (created, closed)
  uint64_t isr_shrinks = 0, isr_expands = 0;
  uint64_t retention_runs = 0, retention_deleted_segments = 0, retention_deleted_bytes = 0;
};

class broker_metrics {
public:
  static constexpr int16_t max_api_key = 80;
  static constexpr int16_t max_version = 16;

  /// A request answered `ms` after it was read (keys and versions outside the table are
  /// not counted: the listener refuses them before they are served).
  void record_request(int16_t api_key, int16_t version, double ms) noexcept;
  /// An error code in a response (per partition for Produce and Fetch).
  void record_error(int16_t api_key, int16_t code);

  /// A topic's counters; the reference stays valid for the broker's life (callers may
  /// keep it to save the lookup). A deleted topic's counters stay, as Kafka's do until
  /// restart.
  topic_counters& topic(const std::string& name);
  topic_counters& all_topics() noexcept { return all_topics_; }

  listener_counters& listener(const std::string& name);

  /// One partition of a Produce (Fetch) answered: its topic's and the all-topics counters.
  /// `records` is what the batch headers count, `bytes` the batches' size.
  void produced(const std::string& topic, uint64_t records, uint64_t bytes);
  void produce_failed(const std::string& topic, int16_t code);
  void fetched(const std::string& topic, uint64_t records, uint64_t bytes);
  void fetch_failed(const std::string& topic, int16_t code);

  std::atomic<uint64_t> isr_shrinks{0};
  std::atomic<uint64_t> isr_expands{0};
  std::atomic<uint64_t> retention_runs{0};
  std::atomic<uint64_t> retention_deleted_segments{0};
  std::atomic<uint64_t> retention_deleted_bytes{0};

  broker_values read() const;

private:
  struct api_counters {
    std::array<std::atomic<uint64_t>, max_version + 1> per_version{};
    latency_histogram total_time;
  };
  std::array<api_counters, max_api_key + 1> apis_;
  topic_counters all_topics_;
  mutable std::mutex mutex_; // guards the maps below, not the counters in them
  std::map<std::string, std::unique_ptr<topic_counters>> topics_;
  std::map<std::string, std::unique_ptr<listener_counters>> listeners_;
  std::map<std::pair<int16_t, int16_t>, uint64_t> errors_;
};

} // namespace cafka::metrics
