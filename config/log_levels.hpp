#pragma once
// The server's log levels: `log.level` for every component and `log.level.<component>` for
// one (server.properties), as Kafka's log4j levels per logger. A line is written when its
// level is at most the component's (ERROR < WARN < INFO < DEBUG).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cafka::config {

enum class log_level : uint8_t { error, warn, info, debug };

/// Where a line comes from; its name is the `[component]` of the line and the key's suffix.
enum class log_component : uint8_t {
  server,      ///< start, stop, the node's own work
  listener,    ///< Kafka listeners: connections refused or closed
  caf_port,    ///< the caf.port gate
  cluster,     ///< ZooKeeper, the controller, topics, brokers
  replication, ///< leadership, ISR, replica fetchers
  groups,      ///< consumer groups and __consumer_offsets
  storage,     ///< logs, retention, flushes
  quotas,      ///< client quotas
  configs,     ///< dynamic configs
  transactions, ///< transaction coordinators, __transaction_state
};
inline constexpr size_t log_component_count = 10;

const char* to_string(log_level l) noexcept;   ///< "ERROR", "WARN", "INFO", "DEBUG"
const char* to_string(log_component c) noexcept; ///< "server", "listener", "caf.port", ...

/// ERROR, WARN (or WARNING), INFO, DEBUG in any case; TRACE counts as DEBUG.
std::optional<log_level> parse_log_level(std::string_view text) noexcept;

struct log_levels {
  log_level all = log_level::info;
  std::array<std::optional<log_level>, log_component_count> by_component{};

  log_level of(log_component c) const noexcept { return by_component[static_cast<size_t>(c)].value_or(all); }
  bool enabled(log_level l, log_component c) const noexcept { return l <= of(c); }
};

} // namespace cafka::config
