#pragma once
// Retry decisions shared by the producer, the fetcher and the node link. Pure logic.

#include <chrono>

#include <caf/fwd.hpp>

#include "protocol/kafka_error.hpp"

namespace cafka::client {

/// Exponential backoff: `initial`, doubled per attempt, at most `max`.
struct backoff_policy {
  std::chrono::milliseconds initial{100};
  std::chrono::milliseconds max{1000};
};

/// The wait before retry number `attempt` (0 = the first retry).
std::chrono::milliseconds backoff_delay(const backoff_policy& policy, unsigned attempt) noexcept;

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
