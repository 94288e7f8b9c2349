#include "actors/log_line.hpp"

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <sys/time.h>

namespace cafka {

void log_line(const char* format, ...) {
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
  std::fprintf(stderr, "%s.%03dZ cafka: %s\n", stamp, static_cast<int>(tv.tv_usec / 1000), message);
}

} // namespace cafka
