// Log cleaner benchmark: prints one name=value line per figure.
//
//   cleaner_bench [--dir PATH] [--mib N] [--keys K] [--dedupe-mib M] [--segment-mib S]
//                 [--producer-rate R]
//
// Builds a compacted partition log of N MiB (default 1024) of 100-byte values over K random
// keys (default 1,000,000), in batches of 100 records and segments of S MiB (default 64),
// then cleans it once the way the broker's log cleaner does (partition_log::prepare_clean,
// clean_job::run, complete_clean) with a key map of M MiB (default 128,
// log.cleaner.dedupe.buffer.size). Prints the clean's rate (bytes of the log read per
// second), the bytes left, the key map's size and how far the process's resident memory grew
// beyond it while the clean ran. Then identical logs are cleaned while a producer thread
// appends 100-record batches to another log, once as fast as it can and once paced at R
// records/s (default 1,000,000, about what a broker's produce path reaches here); its rate
// alone (over as long as the first clean took) and during the clean are printed, and their
// ratio.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_clock.hpp"
#include "protocol/record_batch.hpp"
#include "storage/partition_log.hpp"

using namespace cafka;
using bench::clock_type;
using bench::rss_kib;
using bench::seconds_since;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "cleaner_bench: %s\n", what.c_str());
  std::exit(1);
}

std::unique_ptr<storage::partition_log> open_log(const std::string& dir, const storage::log_config& cfg) {
  auto log = storage::partition_log::open(dir, cfg, 0, true, 0);
  if (!log)
    fail("opening " + dir + ": " + log.error().message());
  return std::move(*log);
}

// 100 records of 100-byte values with random keys out of `keys`.
std::vector<char> keyed_batch(std::mt19937_64& rng, long keys, const std::string& value) {
  protocol::batch_builder b;
  for (int i = 0; i < 100; ++i) {
    auto key = "key-" + std::to_string(rng() % static_cast<uint64_t>(keys));
    b.add(1'700'000'000'000, protocol::bytes_view{key}, protocol::bytes_view{value});
  }
  return b.build();
}

// Appends batches until `stop`, at most `pace` records/s (0: as fast as it can); counts
// records.
void produce(storage::partition_log& log, const std::atomic<bool>& stop, std::atomic<long>& records, long pace) {
  std::mt19937_64 rng(7);
  std::string value(100, 'p');
  auto batch = keyed_batch(rng, 1000, value);
  auto t0 = clock_type::now();
  long sent = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    auto copy = batch;
    if (!log.append(copy, 1'700'000'000'000))
      fail("producer append");
    sent += 100;
    records.fetch_add(100, std::memory_order_relaxed);
    if (pace > 0) {
      auto due = t0 + std::chrono::duration<double>(static_cast<double>(sent) / static_cast<double>(pace));
      std::this_thread::sleep_until(due);
    }
  }
}

// A producer's records/s: alone over `seconds`, and while `work` runs.
struct producer_rates {
  double alone = 0;
  double during = 0;
};

template <class Work>
producer_rates measure_producer(storage::partition_log& log, long pace, double seconds, Work&& work) {
  producer_rates r;
  for (int phase = 0; phase < 2; ++phase) {
    std::atomic<bool> stop{false};
    std::atomic<long> records{0};
    auto t0 = clock_type::now();
    std::thread t{[&] { produce(log, stop, records, pace); }};
    if (phase == 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    else
      work();
    stop = true;
    t.join();
    (phase == 0 ? r.alone : r.during) = static_cast<double>(records.load()) / seconds_since(t0);
  }
  return r;
}

} // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp/cafka-cleaner-bench";
  long mib = 1024, keys = 1'000'000, dedupe_mib = 128, segment_mib = 64, producer_pace = 1'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--dir")
      dir = v;
    else if (k == "--mib")
      mib = std::stol(v);
    else if (k == "--keys")
      keys = std::stol(v);
    else if (k == "--dedupe-mib")
      dedupe_mib = std::stol(v);
    else if (k == "--segment-mib")
      segment_mib = std::stol(v);
    else if (k == "--producer-rate")
      producer_pace = std::stol(v);
    else
      fail("unknown option " + k);
  }
  std::filesystem::remove_all(dir);
  storage::log_config cfg;
  cfg.segment_bytes = segment_mib << 20;
  cfg.cleanup_compact = true;
  cfg.cleanup_delete = false;
  // Two identical logs: one cleaned alone, one while a producer writes to a third log.
  auto build = [&](const std::string& path) {
    auto log = open_log(path, cfg);
    std::mt19937_64 rng(42);
    std::string value(100, 'v');
    while (log->size_bytes() < static_cast<uint64_t>(mib) << 20) {
      auto batch = keyed_batch(rng, keys, value);
      if (!log->append(batch, 1'700'000'000'000))
        fail("append");
    }
    if (!log->flush()) // its writeback must not run during the measurements
      fail("flush");
    return log;
  };
  auto t0 = clock_type::now();
  auto alone_log = build(dir + "/compacted-0");
  std::printf("log_mib=%.0f\nlog_records=%lld\nlog_segments=%zu\nkeys=%ld\nbuild_seconds=%.2f\n",
              static_cast<double>(alone_log->size_bytes()) / (1 << 20),
              static_cast<long long>(alone_log->log_end_offset()), alone_log->segment_count(), keys, seconds_since(t0));
  std::fflush(stdout);
  storage::offset_map map(static_cast<size_t>(dedupe_mib) << 20);

  // One clean; returns its seconds. `peak_rss` gets the largest resident size seen.
  auto clean = [&](storage::partition_log& log, long& peak_rss, storage::clean_stats& stats) {
    auto job = log.prepare_clean(log.log_end_offset(), 1'700'000'000'000);
    if (!job || !*job)
      fail("nothing to clean");
    std::atomic<bool> cleaning{true};
    peak_rss = rss_kib();
    std::thread sampler{[&] {
      while (cleaning) {
        peak_rss = std::max(peak_rss, rss_kib());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }};
    auto c0 = clock_type::now();
    auto ran = (*job)->run(map);
    auto seconds = seconds_since(c0);
    cleaning = false;
    sampler.join();
    if (!ran)
      fail("clean: " + ran.error().message());
    auto done = log.complete_clean(**job);
    if (!done || !done->swapped)
      fail("swap");
    (void) storage::delete_files(done->deleted_files);
    stats = (*job)->stats();
    return seconds;
  };

  auto bytes_before = alone_log->size_bytes();
  auto rss_before = rss_kib(); // the key map allocated (and zeroed by its first clear)
  long rss_peak = 0;
  storage::clean_stats stats;
  auto clean_seconds = clean(*alone_log, rss_peak, stats);
  std::printf("clean_seconds=%.2f\nclean_mb_per_s=%.1f\nclean_records_read=%llu\nclean_records_kept=%llu\n"
              "clean_bytes_before=%llu\nclean_bytes_after=%llu\n",
              clean_seconds, static_cast<double>(stats.bytes_read) / 1e6 / clean_seconds,
              static_cast<unsigned long long>(stats.records_read), static_cast<unsigned long long>(stats.records_kept),
              static_cast<unsigned long long>(bytes_before), static_cast<unsigned long long>(alone_log->size_bytes()));
  std::printf("dedupe_buffer_bytes=%zu\nkey_map_bytes=%zu\nclean_rss_growth_beyond_key_map_kib=%ld\n",
              static_cast<size_t>(dedupe_mib) << 20, map.memory_bytes(), rss_peak - rss_before);
  std::fflush(stdout);

  // Producers to another log while identical logs are cleaned: one as fast as it can, one
  // paced at --producer-rate (a broker's produce path on this machine reaches about that).
  storage::log_config plain;
  plain.segment_bytes = 1 << 30;
  auto other = open_log(dir + "/other-0", plain);
  auto busy_log = build(dir + "/compacted-1");
  auto paced_log = build(dir + "/compacted-2");
  for (long pace : {0L, producer_pace}) {
    auto& log = pace == 0 ? *busy_log : *paced_log;
    double busy_seconds = 0;
    auto rates = measure_producer(*other, pace, clean_seconds, [&] { busy_seconds = clean(log, rss_peak, stats); });
    auto name = pace == 0 ? std::string("producer_unpaced") : "producer_paced_" + std::to_string(pace);
    std::printf("%s_clean_mb_per_s=%.1f\n%s_alone_records_per_s=%.0f\n%s_during_clean_records_per_s=%.0f\n"
                "%s_during_vs_alone=%.3f\n",
                name.c_str(), static_cast<double>(stats.bytes_read) / 1e6 / busy_seconds, name.c_str(), rates.alone,
                name.c_str(), rates.during, name.c_str(), rates.during / rates.alone);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
