#pragma once
// Operational log lines on stderr:
//   "2026-11-29T08:00:00.123Z INFO [replication] broker 1: leading orders-0 (leader epoch 3)"
// with the levels of log.level / log.level.<component> (config/log_levels.hpp; set once at
// start-up). One fprintf per line, so lines from different threads do not interleave. The
// server logs changes (topics, partitions, leadership, ISR, group membership), never
// per request.

#include "config/log_levels.hpp"

namespace cafka {

using config::log_component;
using config::log_level;

/// The levels every later line is checked against (the default: INFO everywhere).
void set_log_levels(const config::log_levels& levels);

bool log_enabled(log_level level, log_component component) noexcept;

void log_line(log_level level, log_component component, const char* format, ...)
  __attribute__((format(printf, 3, 4)));

} // namespace cafka
