#pragma once
// DescribeGroups (key 15), v0-v5. v1 added the throttle time; v2 is v1 on the wire; v3
// added authorized operations (request flag, per-group bitfield in the response); v4
// added each member's group_instance_id; v5 is v4 flexible (compact strings, arrays and
// bytes, a TAG_BUFFER ending every struct; Java clients 3.x).
//
//   request v0-v2:  groups:ARRAY[STRING]
//   request v3-v4:  groups:ARRAY[STRING] include_authorized_operations:BOOL
//   response:       [v1+ throttle_time_ms:i32]
//                   groups:ARRAY[error_code:i16 group_id:STRING group_state:STRING
//                     protocol_type:STRING protocol_data:STRING
//                     members:ARRAY[member_id:STRING [v4+ group_instance_id:NULLABLE_STRING]
//                       client_id:STRING client_host:STRING member_metadata:BYTES
//                       member_assignment:BYTES]
//                     [v3+ authorized_operations:i32]]
//   v5+:            the same fields flexible: tags after each member, each group and the
//                   body (request: after include_authorized_operations).
//
// protocol_data is the chosen protocol (assignor) name, as Kafka fills it only for a
// Stable group; member metadata and assignment are opaque bytes (for the "consumer"
// protocol type: consumer_protocol.hpp's subscription and assignment).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct describe_groups_request {
  std::vector<std::string> groups;
  bool include_authorized_operations = false; ///< v3+
};

struct described_group_member {
  std::string member_id;
  std::optional<std::string> group_instance_id; ///< v4+
  std::string client_id;
  std::string client_host;
  std::vector<char> member_metadata;
  std::vector<char> member_assignment;
};

/// Kafka's AuthorizedOperations default: "not requested / unknown".
constexpr int32_t authorized_operations_omitted = INT32_MIN;

struct described_group {
  int16_t error_code = 0;
  std::string group_id;
  std::string group_state; ///< Kafka's state name, e.g. "Stable", "Dead"
  std::string protocol_type;
  std::string protocol_data; ///< the chosen protocol; "" unless Stable
  std::vector<described_group_member> members;
  int32_t authorized_operations = authorized_operations_omitted; ///< v3+
};

struct describe_groups_response {
  int32_t throttle_time_ms = 0; ///< v1+
  std::vector<described_group> groups;
};

result<describe_groups_request> decode_describe_groups_request(bytes_view body,
                                                               int16_t version);
void encode_describe_groups_response(const describe_groups_response& resp, int16_t version,
                                     byte_writer& w);

} // namespace cafka::wire
