#pragma once
// The broker-wide defaults of a partition log, from the server configuration. Topic
// overrides (retention.ms, segment.bytes, ...) are applied on top by the caller.

#include "config/server_config.hpp"
#include "storage/log_config.hpp"

namespace cafka::config {

/// Copies log.segment.bytes, the effective roll and retention times, log.retention.bytes,
/// log.flush.interval.*, log.index.* and message.max.bytes.
storage::log_config to_log_config(const server_config& cfg);

} // namespace cafka::config
