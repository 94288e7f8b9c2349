// The consume phase: a consumer without a group reads every partition of the topic from
// its beginning up to the end offsets seen when it starts. Timed from starting the
// partitions to the last record.

#include <algorithm>
#include <vector>

#include "apps/perf_phases.hpp"

namespace cafka::perf {

using namespace std::chrono;

properties consumer_properties(const target& t, const settings& s) {
  properties p{
    {"bootstrap.servers", t.bootstrap},
    {"client.id", "cafka-perf"},
    {"enable.auto.commit", "false"},
    {"enable.auto.offset.store", "false"},
    {"enable.partition.eof", "false"},
    // Keep more records prefetched than the default 100,000 per partition.
    {"queued.min.messages", "1000000"},
    // librdkafka keeps one fetch in flight per broker and parses its answer before it
    // asks again: 4 MiB per partition (default 1 MiB) pays that round trip less often.
    {"fetch.message.max.bytes", "4194304"},
  };
  for (auto& [k, v] : s.consumer_overrides)
    p[k] = v;
  return p;
}

namespace {

// Reads `marks` once, from each partition's low to its high watermark, or until `out`
// holds `wanted` records. False if the broker stopped delivering for s.timeout.
bool read_once(rd_kafka_t* rk, const settings& s, const std::vector<watermarks>& marks, int64_t wanted,
               throughput& out, steady_clock::time_point& last_record) {
  // end[p]: the offset after partition p's last record; -1 once p is read to its end.
  std::vector<int64_t> end;
  size_t open_partitions = 0;
  for (auto& w : marks) {
    end.resize(std::max(end.size(), static_cast<size_t>(w.partition) + 1), -1);
    if (w.high > w.low) {
      end[static_cast<size_t>(w.partition)] = w.high;
      ++open_partitions;
    }
  }
  partition_reader reader{rk, s.topic, marks, false};
  auto last_progress = steady_clock::now();
  std::vector<message> batch;
  while (open_partitions > 0 && out.records < wanted) {
    batch.clear();
    reader.poll_batch(100, 10'000, batch);
    auto now = steady_clock::now(); // once per batch: a clock read per record shows in the figures
    if (now - last_progress > s.timeout) {
      out.first_error = "no records for " + std::to_string(s.timeout.count()) + " ms"
                        + (out.first_error.empty() ? "" : ", after " + out.first_error);
      return false;
    }
    for (auto& m : batch) {
      if (out.records >= wanted)
        break;
      if (m->err) {
        if (out.first_error.empty())
          out.first_error = rd_kafka_message_errstr(m.get());
        continue;
      }
      last_progress = last_record = now;
      ++out.records;
      out.bytes += static_cast<int64_t>(m->len + m->key_len);
      auto p = static_cast<size_t>(m->partition);
      if (p < end.size() && end[p] >= 0 && m->offset + 1 >= end[p]) {
        end[p] = -1;
        --open_partitions;
      }
    }
  }
  return true;
}

} // namespace

throughput run_consume(const target& t, const settings& s) {
  auto props = consumer_properties(t, s);
  // Between passes over the mock, a prefetch parked at the end would hold the restart
  // for the whole fetch.wait.max.ms (500 ms by default).
  if (t.mock && s.consumer_overrides.count("fetch.wait.max.ms") == 0)
    props["fetch.wait.max.ms"] = "1";
  auto rk = make_client(RD_KAFKA_CONSUMER, make_conf(props));
  auto marks = query_watermarks(rk.get(), s.topic, partitions_of(rk.get(), s.topic, s.timeout), s.timeout);
  int64_t stored = 0;
  for (auto& w : marks)
    stored += w.high - w.low;
  throughput out;
  if (stored == 0) {
    out.first_error = "topic " + s.topic + " is empty";
    return out;
  }
  // The mock broker keeps only the last 5 MiB (or 100,000 batches) of a partition, so
  // read what it kept again until it has delivered as many records as were produced.
  auto wanted = t.mock ? std::max(stored, s.records) : stored;
  auto start = steady_clock::now();
  auto last_record = start;
  out.passes = 0;
  while (out.records < wanted) {
    ++out.passes;
    if (!read_once(rk.get(), s, marks, wanted, out, last_record))
      break;
  }
  out.seconds = duration<double>(last_record - start).count();
  out.errors = wanted - out.records;
  return out;
}

} // namespace cafka::perf
