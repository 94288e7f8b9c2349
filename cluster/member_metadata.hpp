#pragma once
// One member of a consumer group as its coordinator keeps it (Kafka's MemberMetadata): who it
// is, its timeouts, the protocols (assignors) it supports, its assignment, and which of its
// requests the group is holding until a rebalance step completes. (Not called group_member:
// glibc declares a function of that name, which makes the name ambiguous under a using.)

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cafka::cluster {

/// Opaque bytes the broker passes on unchanged (protocol metadata, assignments).
using group_bytes = std::vector<char>;

/// One protocol a member supports; for protocol type "consumer" the name is the assignor
/// ("range", "roundrobin", ...) and the metadata a consumer subscription.
struct group_protocol {
  std::string name;
  group_bytes metadata;
};

bool operator==(const group_protocol& a, const group_protocol& b);
bool operator!=(const group_protocol& a, const group_protocol& b);

struct member_metadata {
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< set for a static member
  std::string client_id;
  std::string client_host;
  int32_t session_timeout_ms = 0;
  int32_t rebalance_timeout_ms = 0;
  std::vector<group_protocol> protocols; ///< most preferred first
  group_bytes assignment;                ///< from the leader's SyncGroup; empty until then
  /// Last heartbeat, join or sync: the session deadline counts from here.
  int64_t last_heartbeat_ms = 0;
  std::optional<uint64_t> awaiting_join; ///< request id of a held JoinGroup
  std::optional<uint64_t> awaiting_sync; ///< request id of a held SyncGroup
  /// Joined during the current rebalance and never got a generation (Kafka's isNew): such a
  /// member, unlike an old one, can time out while its join is held.
  bool is_new = false;

  bool is_static() const noexcept { return group_instance_id.has_value(); }

  /// The member's metadata for `protocol`; nullptr if it does not support it.
  const group_bytes* metadata_for(const std::string& protocol) const;
};

} // namespace cafka::cluster
