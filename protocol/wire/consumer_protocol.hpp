#pragma once
// The embedded "consumer" protocol: what consumers put into JoinGroup's protocol
// metadata (a subscription) and the leader into SyncGroup's assignments. Opaque to a
// broker's group coordinator, but tests and tools need to build and read it. Never
// flexible; each starts with its own i16 version.
//
//   subscription: version:i16 topics:ARRAY[STRING] user_data:NULLABLE_BYTES
//                 [v1+ owned_partitions:ARRAY[topic:STRING partitions:ARRAY[i32]]]
//                 [v2+ generation_id:i32] [v3+ rack_id:NULLABLE_STRING]
//   assignment:   version:i16 assigned_partitions:ARRAY[topic:STRING partitions:ARRAY[i32]]
//                 user_data:NULLABLE_BYTES                       (v1+ is v0 on the wire)
//
// Like Kafka's ConsumerProtocol, a reader takes a newer version for the newest one it
// knows (newer versions only append fields) and ignores the bytes after it.
// librdkafka 2.0.2 sends subscription v1, kafka-python and kafkajs v0.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct consumer_topic_partitions {
  std::string topic;
  std::vector<int32_t> partitions;
};

struct consumer_subscription {
  /// As read; written as is. Fields beyond v3 do not exist here, so a version above 3
  /// is written with v3's fields.
  int16_t version = 0;
  std::vector<std::string> topics;
  std::optional<std::vector<char>> user_data;
  std::vector<consumer_topic_partitions> owned_partitions; ///< v1+
  int32_t generation_id = -1;                              ///< v2+
  std::optional<std::string> rack_id;                      ///< v3+
};

struct consumer_assignment {
  int16_t version = 0; ///< as read; written as is
  std::vector<consumer_topic_partitions> assigned_partitions;
  std::optional<std::vector<char>> user_data;
};

/// Errors: truncated, bad_length (also for a negative version).
result<consumer_subscription> decode_consumer_subscription(bytes_view metadata);
void encode_consumer_subscription(const consumer_subscription& s, byte_writer& w);

/// An empty buffer is no assignment (SyncGroup answers errors with one) and fails
/// with truncated: callers that accept "nothing assigned" check for it first.
result<consumer_assignment> decode_consumer_assignment(bytes_view assignment);
void encode_consumer_assignment(const consumer_assignment& a, byte_writer& w);

} // namespace cafka::wire
