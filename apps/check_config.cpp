// cafka-check-config config/server.properties [--override key=value ...]
// Loads and validates a server configuration the way cafka-server will: prints the
// warnings and the effective storage settings, or the error naming the bad key.
#include <cstdio>
#include <string_view>
#include <vector>

#include "config/server_config.hpp"
#include "config/to_log_config.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s server.properties [--override key=value ...]\n", argv[0]);
    return 2;
  }
  std::vector<std::string_view> args(argv + 2, argv + argc);
  auto loaded = cafka::config::load_server_config(argv[1], args);
  if (!loaded) {
    std::fprintf(stderr, "cafka: bad configuration: %s\n", loaded.error().message.c_str());
    return 1;
  }
  for (auto& w : loaded->warnings)
    std::fprintf(stderr, "cafka: warning: %s\n", w.c_str());
  auto log = cafka::config::to_log_config(loaded->config);
  std::printf("configuration %s is valid\n", argv[1]);
  std::printf("log.segment.bytes=%lld log.retention.ms=%lld log.retention.bytes=%lld\n",
              static_cast<long long>(log.segment_bytes), static_cast<long long>(log.retention_ms),
              static_cast<long long>(log.retention_bytes));
  return 0;
}
