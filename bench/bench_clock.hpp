#pragma once
// What the storage-level benchmarks share: elapsed seconds and the resident set.

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace cafka::bench {

using clock_type = std::chrono::steady_clock;

inline double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// The process's resident memory now, in KiB (/proc/self/statm).
inline long rss_kib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    std::fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

} // namespace cafka::bench
