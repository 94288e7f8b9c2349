#pragma once
// The settings of a native group member (group_consumer.hpp), with Kafka's consumer names
// and defaults where Kafka has them, and their validation (pure, no actors).
//
// Choices where Kafka is silent or differs:
//  * group_id empty -> default_group_id ("cafka-default-group"): the native client always
//    consumes in a group, so commits and rebalancing work without naming one.
//  * auto_offset_reset: latest (Kafka's default) or earliest for partitions without a
//    committed offset; offset_reset::none is taken as latest there, and is passed to the
//    fetchers for OFFSET_OUT_OF_RANGE (then the consumer gets consumer_error).
//  * delivery: at_least_once (default) counts a batch as consumed once the consumer's
//    handler returned for it (or its response promise was delivered), and commits (auto
//    or explicit) store those positions; at_most_once commits a batch's next offset and
//    waits for that commit before the consumer sees the batch.

#include <chrono>
#include <string>
#include <vector>

#include "client/subscription.hpp"

namespace cafka::client {

/// The group a member joins when group_options::group_id is empty.
inline constexpr const char* default_group_id = "cafka-default-group";

enum class delivery_mode { at_least_once, at_most_once };

struct group_options {
  std::string group_id;            ///< empty: default_group_id
  std::vector<std::string> topics; ///< the subscription (at least one)
  std::string assignor = "range";  ///< also "roundrobin", "sticky" (the JoinGroup protocol name)
  std::chrono::milliseconds session_timeout{10000};   ///< session.timeout.ms
  std::chrono::milliseconds heartbeat_interval{3000}; ///< heartbeat.interval.ms
  /// max.poll.interval.ms: sent as the JoinGroup rebalance timeout (how long the group waits
  /// for members to rejoin); also bounds how long a join or sync may be held.
  std::chrono::milliseconds max_poll_interval{300000};
  bool enable_auto_commit = true;                       ///< enable.auto.commit
  std::chrono::milliseconds auto_commit_interval{5000}; ///< auto.commit.interval.ms
  offset_reset auto_offset_reset = offset_reset::latest;
  delivery_mode delivery = delivery_mode::at_least_once;
  std::string client_id = "cafka-native"; ///< prefix of the member id the group generates
  /// For the fetchers; also request_timeout (every request to the node and the group actor)
  /// and retry_backoff (between attempts to reach the group again) and bootstrap (where to
  /// reconnect) for the member itself. Its auto_offset_reset is replaced by the one above.
  fetch_options fetch;
};

/// The group id used: `opts.group_id`, or default_group_id when it is empty.
std::string effective_group_id(const group_options& opts);

/// Why `opts` cannot be used ("" if it can): no topics, an empty topic name, an unknown
/// assignor, non-positive timeouts or intervals, heartbeat_interval >= session_timeout,
/// timeouts beyond what JoinGroup carries (int32 ms).
std::string validate(const group_options& opts);

} // namespace cafka::client
