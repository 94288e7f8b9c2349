#include "config/log_levels.hpp"

#include <cctype>
#include <string>

namespace cafka::config {

const char* to_string(log_level l) noexcept {
  switch (l) {
    case log_level::error: return "ERROR";
    case log_level::warn: return "WARN";
    case log_level::info: return "INFO";
    case log_level::debug: return "DEBUG";
  }
  return "INFO";
}

const char* to_string(log_component c) noexcept {
  switch (c) {
    case log_component::server: return "server";
    case log_component::listener: return "listener";
    case log_component::caf_port: return "caf.port";
    case log_component::cluster: return "cluster";
    case log_component::replication: return "replication";
    case log_component::groups: return "groups";
    case log_component::storage: return "storage";
    case log_component::quotas: return "quotas";
    case log_component::configs: return "configs";
    case log_component::transactions: return "transactions";
  }
  return "server";
}

std::optional<log_level> parse_log_level(std::string_view text) noexcept {
  std::string upper;
  for (auto ch : text)
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (upper == "ERROR" || upper == "FATAL")
    return log_level::error;
  if (upper == "WARN" || upper == "WARNING")
    return log_level::warn;
  if (upper == "INFO")
    return log_level::info;
  if (upper == "DEBUG" || upper == "TRACE")
    return log_level::debug;
  return std::nullopt;
}

} // namespace cafka::config
