// Storage benchmark: prints one name=value line per figure.
//
//   storage_bench [--quick] [--dir PATH] [--mib N]
//
// Appends 100-byte records in ~16 KiB batches through partition_log (offset assignment
// and CRC check included), and writes the same bytes with a plain write() loop as the
// reference; the same from an idempotent producer (sequence checks); reads the log back sequentially; looks up random offsets; opens a log of
// 1,000+ sealed segments after a clean and after an unclean shutdown; reports memory.

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_clock.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/record_batch.hpp"
#include "storage/partition_log.hpp"

using namespace cafka;
using bench::clock_type;
using bench::rss_kib;
using bench::seconds_since;

namespace {

long peak_rss_kib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

void print(const char* name, double value) { std::printf("%s=%.0f\n", name, value); }
void print2(const char* name, double value) { std::printf("%s=%.2f\n", name, value); }

[[noreturn]] void fail(const char* what, std::error_code ec) {
  std::fprintf(stderr, "storage_bench: %s: %s\n", what, ec.message().c_str());
  std::exit(1);
}

// One ~16 KiB batch of 100-byte records, built like a producer would (an idempotent one when
// `producer_id` >= 0: epoch 0, sequences from `base_sequence`).
std::vector<char> make_16k_batch(int64_t timestamp, int& records, int64_t producer_id = -1, int32_t base_sequence = -1) {
  protocol::batch_options options;
  options.producer_id = producer_id;
  options.producer_epoch = producer_id >= 0 ? 0 : -1;
  options.base_sequence = base_sequence;
  protocol::batch_builder builder{options};
  std::string value(100, 'v');
  records = 150; // 150 x (100 bytes + 8 bytes of record framing) + 61 = ~16 KiB
  for (int i = 0; i < records; ++i)
    builder.add(timestamp, std::nullopt, protocol::bytes_view(value));
  return builder.build();
}

std::unique_ptr<storage::partition_log> open_log(const std::string& dir, const storage::log_config& cfg,
                                                 int64_t recovery_point, bool clean) {
  auto log = storage::partition_log::open(dir, cfg, recovery_point, clean, 0);
  if (!log)
    fail("open", log.error());
  return std::move(*log);
}

void raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

} // namespace

int main(int argc, char** argv) {
  std::string dir = std::filesystem::temp_directory_path() / ("cafka-bench-" + std::to_string(getpid()));
  int64_t mib = 1024;
  int64_t open_segments = 1000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      mib = 128;
      open_segments = 1000;
    } else if (a == "--dir" && i + 1 < argc) {
      dir = std::string(argv[++i]) + "/cafka-bench-" + std::to_string(getpid());
    } else if (a == "--mib" && i + 1 < argc) {
      mib = std::atoll(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: storage_bench [--quick] [--dir PATH] [--mib N]\n");
      return 2;
    }
  }
  raise_fd_limit();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const int64_t total_bytes = mib << 20;

  int records_per_batch = 0;
  auto batch = make_16k_batch(1'700'000'000'000, records_per_batch);
  const int64_t batches = total_bytes / static_cast<int64_t>(batch.size());
  const double mb = static_cast<double>(batches) * static_cast<double>(batch.size()) / 1e6;
  const double records = static_cast<double>(batches) * records_per_batch;
  std::printf("batch_bytes=%zu\nrecords_per_batch=%d\nbatches=%lld\n", batch.size(), records_per_batch,
              static_cast<long long>(batches));

  // Reference: a plain write() loop of the same sizes into one file.
  {
    auto path = dir + "/plain.bin";
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    auto t0 = clock_type::now();
    for (int64_t i = 0; i < batches; ++i)
      if (::write(fd, batch.data(), batch.size()) != static_cast<ssize_t>(batch.size()))
        fail("write", {errno, std::system_category()});
    double s = seconds_since(t0);
    ::close(fd);
    std::filesystem::remove(path);
    print("plain_write_mb_per_s", mb / s);
    print("plain_write_records_per_s", records / s);
  }

  storage::log_config cfg;
  cfg.segment_bytes = 256 << 20;
  auto log_dir = dir + "/bench-0";
  double append_mb_s = 0;
  {
    auto log = open_log(log_dir, cfg, 0, false);
    auto t0 = clock_type::now();
    for (int64_t i = 0; i < batches; ++i) {
      auto r = log->append(batch, 0);
      if (!r)
        fail("append", r.error());
    }
    double s = seconds_since(t0);
    append_mb_s = mb / s;
    print("append_mb_per_s", append_mb_s);
    print("append_records_per_s", records / s);
    print("rss_after_append_kib", static_cast<double>(rss_kib()));

    // Sequential read back in 1 MiB fetches.
    t0 = clock_type::now();
    int64_t offset = 0, bytes = 0;
    while (offset < log->log_end_offset()) {
      auto r = log->read(offset, 1 << 20);
      if (!r)
        fail("read", r.error());
      size_t at = 0;
      while (at < r->size()) { // walk headers to find the next offset, as a consumer does
        auto h = protocol::read_batch_header(protocol::bytes_view(r->data() + at, r->size() - at));
        offset = h->next_offset();
        at += h->total_size();
      }
      bytes += static_cast<int64_t>(r->size());
    }
    s = seconds_since(t0);
    print("read_mb_per_s", static_cast<double>(bytes) / 1e6 / s);
    print("read_records_per_s", records / s);

    // Random offset lookups: offset -> (segment, file position).
    std::mt19937_64 rng(42);
    std::vector<double> ns;
    const int lookups = 200000;
    ns.reserve(lookups);
    auto end = log->log_end_offset();
    for (int i = 0; i < lookups; ++i) {
      int64_t target = static_cast<int64_t>(rng() % static_cast<uint64_t>(end));
      auto t = clock_type::now();
      auto where = log->locate(target);
      ns.push_back(std::chrono::duration<double, std::nano>(clock_type::now() - t).count());
      if (!where || !*where)
        fail("locate", where ? std::error_code{} : where.error());
    }
    std::sort(ns.begin(), ns.end());
    print("lookup_median_ns", ns[ns.size() / 2]);
    print("lookup_p99_ns", ns[ns.size() * 99 / 100]);
    print("rss_after_reads_kib", static_cast<double>(rss_kib()));
    if (auto st = log->close(); !st)
      fail("close", st.error());
  }
  std::filesystem::remove_all(log_dir);

  // Appends of distinct batches (as a broker gets them; the loop above reuses one), plain and
  // from an idempotent producer, whose every batch header is checked against the producer's
  // last batches and recorded. The batches are built beforehand: only the log's work is timed.
  {
    auto timed_append = [&](int64_t producer_id, const char* name) {
      std::vector<std::vector<char>> built;
      built.reserve(static_cast<size_t>(batches));
      for (int64_t i = 0; i < batches; ++i)
        built.push_back(make_16k_batch(1'700'000'000'000, records_per_batch, producer_id,
                                       producer_id < 0 ? -1 : static_cast<int32_t>(i * records_per_batch)));
      auto log = open_log(log_dir, cfg, 0, false);
      auto t0 = clock_type::now();
      for (auto& b : built) {
        auto r = log->append(b, 0);
        if (!r)
          fail(name, r.error());
      }
      double s = seconds_since(t0);
      if (auto st = log->close(); !st)
        fail("close", st.error());
      std::filesystem::remove_all(log_dir);
      return mb / s;
    };
    auto plain = timed_append(-1, "distinct append");
    auto idempotent = timed_append(1, "idempotent append");
    print("distinct_batches_append_mb_per_s", plain);
    print("idempotent_append_mb_per_s", idempotent);
    print2("idempotent_append_vs_plain", idempotent / plain);
  }

  // Open a log of many sealed segments: ~64 KiB each.
  {
    auto many_dir = dir + "/many-0";
    storage::log_config small = cfg;
    small.segment_bytes = 64 * 1024;
    int64_t segments = 0;
    {
      auto log = open_log(many_dir, small, 0, false);
      while (static_cast<int64_t>(log->segment_count()) <= open_segments) {
        auto r = log->append(batch, 0);
        if (!r)
          fail("append", r.error());
      }
      segments = static_cast<int64_t>(log->segment_count());
      if (auto st = log->close(); !st)
        fail("close", st.error());
    }
    auto end_offset = open_log(many_dir, small, 0, true)->log_end_offset();
    auto t0 = clock_type::now();
    auto clean = open_log(many_dir, small, end_offset, true);
    double clean_ms = seconds_since(t0) * 1000;
    clean.reset();
    t0 = clock_type::now();
    auto unclean = open_log(many_dir, small, end_offset, false);
    double unclean_ms = seconds_since(t0) * 1000;
    unclean.reset();
    t0 = clock_type::now();
    auto full = open_log(many_dir, small, 0, false);
    double full_ms = seconds_since(t0) * 1000;
    print("open_segments", static_cast<double>(segments));
    print2("open_clean_ms", clean_ms);
    print2("open_after_crash_ms", unclean_ms);
    print2("open_full_recovery_ms", full_ms);
    full.reset();
  }
  print("peak_rss_kib", static_cast<double>(peak_rss_kib()));
  std::filesystem::remove_all(dir);
  return 0;
}
