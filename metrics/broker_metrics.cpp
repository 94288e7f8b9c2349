#include "metrics/broker_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace cafka::metrics {

namespace {

constexpr auto relaxed = std::memory_order_relaxed;

uint64_t load(const std::atomic<uint64_t>& x) noexcept { return x.load(relaxed); }

} // namespace

void latency_histogram::observe(double ms) noexcept {
  auto it = std::lower_bound(latency_bounds_ms.begin(), latency_bounds_ms.end(), ms);
  buckets_[static_cast<size_t>(it - latency_bounds_ms.begin())].fetch_add(1, relaxed);
  count_.fetch_add(1, relaxed);
  sum_us_.fetch_add(static_cast<uint64_t>(std::llround(std::max(0.0, ms) * 1000.0)), relaxed);
}

histogram_values latency_histogram::read() const noexcept {
  histogram_values out;
  for (size_t i = 0; i < buckets_.size(); ++i)
    out.buckets[i] = load(buckets_[i]);
  out.count = 0; // the sum of the buckets: consistent with them even while others observe
  for (auto b : out.buckets)
    out.count += b;
  out.sum_ms = static_cast<double>(load(sum_us_)) / 1000.0;
  return out;
}

topic_values read(const topic_counters& c) noexcept {
  topic_values v;
  v.messages_in = load(c.messages_in);
  v.bytes_in = load(c.bytes_in);
  v.bytes_out = load(c.bytes_out);
  v.messages_out = load(c.messages_out);
  v.total_produce_requests = load(c.total_produce_requests);
  v.total_fetch_requests = load(c.total_fetch_requests);
  v.failed_produce_requests = load(c.failed_produce_requests);
  v.failed_fetch_requests = load(c.failed_fetch_requests);
  return v;
}

void broker_metrics::record_request(int16_t api_key, int16_t version, double ms) noexcept {
  if (api_key < 0 || api_key > max_api_key || version < 0 || version > max_version)
    return;
  auto& api = apis_[static_cast<size_t>(api_key)];
  api.per_version[static_cast<size_t>(version)].fetch_add(1, relaxed);
  api.total_time.observe(ms);
}

void broker_metrics::record_error(int16_t api_key, int16_t code) {
  std::lock_guard<std::mutex> guard{mutex_};
  ++errors_[{api_key, code}];
}

topic_counters& broker_metrics::topic(const std::string& name) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& slot = topics_[name];
  if (!slot)
    slot = std::make_unique<topic_counters>();
  return *slot;
}

namespace {

constexpr int16_t produce_key = 0;
constexpr int16_t fetch_key = 1;

} // namespace

void broker_metrics::produced(const std::string& name, uint64_t records, uint64_t bytes) {
  for (auto* c : {&all_topics_, &topic(name)}) {
    c->total_produce_requests.fetch_add(1, relaxed);
    c->messages_in.fetch_add(records, relaxed);
    c->bytes_in.fetch_add(bytes, relaxed);
  }
}

void broker_metrics::produce_failed(const std::string& name, int16_t code) {
  for (auto* c : {&all_topics_, &topic(name)}) {
    c->total_produce_requests.fetch_add(1, relaxed);
    c->failed_produce_requests.fetch_add(1, relaxed);
  }
  record_error(produce_key, code);
}

void broker_metrics::fetched(const std::string& name, uint64_t records, uint64_t bytes) {
  for (auto* c : {&all_topics_, &topic(name)}) {
    c->total_fetch_requests.fetch_add(1, relaxed);
    c->messages_out.fetch_add(records, relaxed);
    c->bytes_out.fetch_add(bytes, relaxed);
  }
}

void broker_metrics::fetch_failed(const std::string& name, int16_t code) {
  for (auto* c : {&all_topics_, &topic(name)}) {
    c->total_fetch_requests.fetch_add(1, relaxed);
    c->failed_fetch_requests.fetch_add(1, relaxed);
  }
  record_error(fetch_key, code);
}

listener_counters& broker_metrics::listener(const std::string& name) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& slot = listeners_[name];
  if (!slot)
    slot = std::make_unique<listener_counters>();
  return *slot;
}

broker_values broker_metrics::read() const {
  broker_values out;
  for (int16_t key = 0; key <= max_api_key; ++key) {
    auto& api = apis_[static_cast<size_t>(key)];
    broker_values::request_values r;
    r.api_key = key;
    for (int16_t v = 0; v <= max_version; ++v)
      if (auto n = load(api.per_version[static_cast<size_t>(v)]); n > 0)
        r.per_version.emplace_back(v, n);
    if (r.per_version.empty())
      continue;
    r.total_time = api.total_time.read();
    out.requests.push_back(std::move(r));
  }
  out.all_topics = metrics::read(all_topics_);
  out.isr_shrinks = load(isr_shrinks);
  out.isr_expands = load(isr_expands);
  out.retention_runs = load(retention_runs);
  out.retention_deleted_segments = load(retention_deleted_segments);
  out.retention_deleted_bytes = load(retention_deleted_bytes);
  std::lock_guard<std::mutex> guard{mutex_};
  out.errors = errors_;
  for (auto& [name, c] : topics_)
    out.topics.emplace(name, metrics::read(*c));
  for (auto& [name, c] : listeners_)
    out.connections.emplace(name, std::make_pair(load(c->created), load(c->closed)));
  return out;
}

} // namespace cafka::metrics
