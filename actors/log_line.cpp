#include "actors/log_line.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <sys/time.h>

namespace cafka {

namespace {

// One level per component, read by every thread that logs; INFO until set_log_levels.
struct level_table {
  std::atomic<uint8_t> at[config::log_component_count];
  level_table() {
    for (auto& l : at)
      l = static_cast<uint8_t>(log_level::info);
  }
};
level_table levels;

} // namespace

void set_log_levels(const config::log_levels& given) {
  for (size_t i = 0; i < config::log_component_count; ++i)
    levels.at[i] = static_cast<uint8_t>(given.of(static_cast<log_component>(i)));
}

bool log_enabled(log_level level, log_component component) noexcept {
  return static_cast<uint8_t>(level) <= levels.at[static_cast<size_t>(component)].load(std::memory_order_relaxed);
}

void log_line(log_level level, log_component component, const char* format, ...) {
  if (!log_enabled(level, component))
    return;
  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof message, format, args);
  va_end(args);
  timeval tv{};
  gettimeofday(&tv, nullptr);
  std::tm tm{};
  gmtime_r(&tv.tv_sec, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  std::fprintf(stderr, "%s.%03dZ %s [%s] %s\n", stamp, static_cast<int>(tv.tv_usec / 1000), config::to_string(level),
               config::to_string(component), message);
}

} // namespace cafka
