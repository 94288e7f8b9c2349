#pragma once
// The rules that make __consumer_offsets a replicated topic (docs/replication.md,
// "__consumer_offsets"): how many replicas it is created with, and what a group's commit
// answers when the append to its partition fails. Kafka's rules, so that clients retry the
// same way against cafka.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

/// Replicas of __consumer_offsets: offsets.topic.replication.factor, capped at the live
/// brokers when the cluster is still smaller (Kafka creates it so on a small cluster rather
/// than refusing), and at least 1.
struct offsets_topic_replicas {
  int16_t count = 1;
  bool capped = false; ///< fewer than configured: the creator logs a warning
};

offsets_topic_replicas replicas_for_offsets_topic(int32_t configured, size_t live_brokers) noexcept;

/// The warning a capped creation logs.
/// (`topic` and its replication factor's `key`: __transaction_state is capped the same way.)
std::string capped_replicas_warning(int32_t configured, offsets_topic_replicas replicas,
                                    std::string_view topic = "__consumer_offsets",
                                    std::string_view key = "offsets.topic.replication.factor");

/// What OffsetCommit answers when appending the commit to the group's partition failed
/// with `append_error` (Kafka's GroupMetadataManager.storeOffsets): the coordinator moved
/// (NOT_COORDINATOR) or cannot replicate now (COORDINATOR_NOT_AVAILABLE), both retriable;
/// a batch too large is INVALID_COMMIT_OFFSET_SIZE; others (REQUEST_TIMED_OUT among them)
/// pass through.
protocol::kafka_error offset_commit_error(protocol::kafka_error append_error) noexcept;

} // namespace cafka::cluster
