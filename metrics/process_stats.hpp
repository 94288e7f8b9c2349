#pragma once
// The process's own figures, as Prometheus' client libraries name them (process_*), read
// from /proc/self on Linux at scrape time.

#include <cstdint>
#include <optional>
#include <string_view>

namespace cafka::metrics {

struct process_stats {
  double cpu_seconds = 0;          ///< user + system
  double start_time_seconds = 0;   ///< since the epoch
  uint64_t resident_bytes = 0;
  uint64_t peak_resident_bytes = 0; ///< VmHWM
  uint64_t virtual_bytes = 0;
  uint64_t open_fds = 0;
  uint64_t max_fds = 0;
  uint64_t threads = 0;
};

/// Reads /proc/self; nullopt when it cannot (no /proc).
std::optional<process_stats> read_process_stats();

/// The fields of /proc/<pid>/stat after the command's closing parenthesis, for tests:
/// user and system ticks (fields 14, 15), threads (20), start ticks since boot (22),
/// virtual bytes (23) and resident pages (24).
struct stat_fields {
  uint64_t utime = 0, stime = 0, threads = 0, start_ticks = 0, vsize = 0, rss_pages = 0;
};
std::optional<stat_fields> parse_proc_stat(std::string_view text);

} // namespace cafka::metrics
