#include "metrics/process_stats.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <dirent.h>

#include <fstream>
#include <sstream>
#include <string>

namespace cafka::metrics {

namespace {

std::string slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "VmHWM:     1234 kB" -> bytes.
uint64_t status_kb(const std::string& status, const char* key) {
  auto at = status.find(key);
  if (at == std::string::npos)
    return 0;
  return std::stoull(status.substr(at + std::char_traits<char>::length(key))) * 1024;
}

uint64_t count_fds() {
  uint64_t n = 0;
  if (auto* dir = ::opendir("/proc/self/fd")) {
    while (auto* e = ::readdir(dir))
      if (e->d_name[0] != '.')
        ++n;
    ::closedir(dir);
    if (n > 0)
      --n; // the descriptor opendir itself holds
  }
  return n;
}

// Seconds since the epoch at which the system booted (/proc/stat's btime).
double boot_time() {
  auto text = slurp("/proc/stat");
  auto at = text.find("btime ");
  return at == std::string::npos ? 0 : std::stod(text.substr(at + 6));
}

} // namespace

std::optional<stat_fields> parse_proc_stat(std::string_view text) {
  auto close = text.rfind(')');
  if (close == std::string_view::npos)
    return std::nullopt;
  std::istringstream in(std::string(text.substr(close + 1)));
  // Fields from 3 (state) on; index i below is field i + 3.
  std::string field;
  stat_fields out;
  for (int i = 3; i <= 24 && in >> field; ++i) {
    auto value = [&] { return static_cast<uint64_t>(std::stoull(field)); };
    switch (i) {
      case 14: out.utime = value(); break;
      case 15: out.stime = value(); break;
      case 20: out.threads = value(); break;
      case 22: out.start_ticks = value(); break;
      case 23: out.vsize = value(); break;
      case 24:
        out.rss_pages = value();
        return out;
      default: break;
    }
  }
  return std::nullopt;
}

std::optional<process_stats> read_process_stats() {
  auto fields = parse_proc_stat(slurp("/proc/self/stat"));
  if (!fields)
    return std::nullopt;
  auto ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  process_stats out;
  out.cpu_seconds = static_cast<double>(fields->utime + fields->stime) / ticks;
  out.start_time_seconds = boot_time() + static_cast<double>(fields->start_ticks) / ticks;
  out.resident_bytes = fields->rss_pages * page;
  out.virtual_bytes = fields->vsize;
  out.threads = fields->threads;
  out.peak_resident_bytes = status_kb(slurp("/proc/self/status"), "VmHWM:");
  out.open_fds = count_fds();
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0)
    out.max_fds = lim.rlim_cur;
  return out;
}

} // namespace cafka::metrics
