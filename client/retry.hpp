#pragma once
// Retry decisions shared by the producer, the fetcher and the node link. Pure logic.

#include <chrono>

#include <caf/fwd.hpp>

#include "cluster/backoff.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka::client {

/// Exponential backoff (pure, shared with the cluster member's broker links).
using cluster::backoff_delay;
using cluster::backoff_policy;

/// The Kafka error an error code on the wire (metadata's int16 codes) stands for.
protocol::kafka_error from_wire(int16_t code) noexcept;

/// Whether a failed request is worth repeating (after fresh metadata): lost or slow
/// connections (CAF's request_timeout, request_receiver_down, ...), and the Kafka errors
/// Kafka itself retries: request_timed_out, network_exception, leader_not_available,
/// not_leader_or_follower, kafka_storage_error, not_coordinator,
/// coordinator_not_available. Everything else (message_too_large, invalid_topic_exception,
/// unknown_topic_or_partition, offset_out_of_range, corrupt_message, ...) is final.
bool is_retriable(const caf::error& err) noexcept;
bool is_retriable(protocol::kafka_error err) noexcept;

} // namespace cafka::client
