#pragma once
// What a group's coordinator is asked (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, as the
// wire layer decodes them plus what the connection knows) and what it answers, as plain values
// for cluster/group_state.hpp. Errors are Kafka's codes (protocol::wire_code gives the i16).
//
// Join and sync answers may be held until a rebalance step completes, so the caller tags each
// of those requests with an opaque request id and gets the answers back as (request id, answer)
// pairs in a group_replies, from the call itself or from a later one. Every join and sync is
// answered exactly once.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cluster/member_metadata.hpp"
#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

struct join_request {
  std::string member_id; ///< empty on a member's first join
  std::optional<std::string> group_instance_id; ///< JoinGroup v5+: static membership
  std::string client_id;   ///< from the request header; prefix of a generated member id
  std::string client_host; ///< the peer's address, for DescribeGroups
  int32_t session_timeout_ms = 0;
  int32_t rebalance_timeout_ms = 0; ///< JoinGroup v0 has none: pass the session timeout
  std::string protocol_type; ///< "consumer" for consumers
  std::vector<group_protocol> protocols; ///< most preferred first
  /// JoinGroup v4+: a new dynamic member first gets MEMBER_ID_REQUIRED with its generated id
  /// and must join again with it (Kafka: KafkaApis asks this for v4+ without an instance id).
  bool require_known_member_id = false;
};

/// A member as the leader's JoinGroup answer lists it.
struct joined_member {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  group_bytes metadata; ///< for the chosen protocol
};

struct join_answer {
  protocol::kafka_error error = protocol::kafka_error::none;
  int32_t generation = -1;    ///< -1 on error
  std::string protocol_name;  ///< the chosen protocol; empty on error
  std::string leader;         ///< the leader's member id; empty on error
  std::string member_id;      ///< the member's (possibly new) id; also set with MEMBER_ID_REQUIRED
  std::vector<joined_member> members; ///< every member for the leader, none for followers
};

struct member_assignment {
  std::string member_id;
  group_bytes assignment;
};

struct sync_request {
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< SyncGroup v3+
  int32_t generation = -1;
  std::vector<member_assignment> assignments; ///< only the leader sends any
};

struct sync_answer {
  protocol::kafka_error error = protocol::kafka_error::none;
  group_bytes assignment; ///< empty on error
};

struct heartbeat_request {
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< Heartbeat v3+
  int32_t generation = -1;
};

/// One member leaving: by member id (LeaveGroup v0-v2), or by member and/or instance id (v3+).
struct member_identity {
  std::string member_id;
  std::optional<std::string> group_instance_id;
};

struct leave_answer {
  /// The request's error: COORDINATOR_NOT_AVAILABLE for a dead group, else none. For
  /// LeaveGroup v0-v2 (one member) answer with the member's error instead.
  protocol::kafka_error error = protocol::kafka_error::none;
  std::vector<std::pair<member_identity, protocol::kafka_error>> members; ///< per member, in order
};

/// Answers to send now, each for the held or just-made request with that id.
struct group_replies {
  std::vector<std::pair<uint64_t, join_answer>> joins;
  std::vector<std::pair<uint64_t, sync_answer>> syncs;

  bool empty() const noexcept { return joins.empty() && syncs.empty(); }
};

struct leave_outcome {
  leave_answer answer;
  group_replies replies; ///< held joins and syncs the departures answered
};

} // namespace cafka::cluster
