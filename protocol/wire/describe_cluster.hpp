#pragma once
// DescribeCluster (key 60), v0-v1, flexible from v0 (compact strings and arrays, a tag buffer
// after every struct). KIP-700: the brokers and the controller without Metadata's topics.
//
//   request:  include_cluster_authorized_operations:BOOL [v1+]endpoint_type:i8
//   response: throttle_time_ms:i32 error_code:i16 error_message:NULLABLE_STRING
//             [v1+]endpoint_type:i8 cluster_id:STRING controller_id:i32
//             brokers:[broker_id:i32 host:STRING port:i32 rack:NULLABLE_STRING]
//             cluster_authorized_operations:i32
//
// endpoint_type 1 = brokers (2 = controllers, KRaft only: refused as UNSUPPORTED_ENDPOINT_TYPE).
// cluster_authorized_operations is INT32_MIN when not asked for (or not known: cafka has no ACLs).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

/// Kafka's UNSUPPORTED_ENDPOINT_TYPE: an endpoint type the broker does not have.
inline constexpr int16_t unsupported_endpoint_type = 119;

struct describe_cluster_request {
  bool include_cluster_authorized_operations = false;
  int8_t endpoint_type = 1;
};

struct described_broker {
  int32_t broker_id = 0;
  std::string host;
  int32_t port = 0;
  std::optional<std::string> rack;
};

struct describe_cluster_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  int8_t endpoint_type = 1;
  std::string cluster_id;
  int32_t controller_id = -1;
  std::vector<described_broker> brokers;
  int32_t cluster_authorized_operations = INT32_MIN;
};

result<describe_cluster_request> decode_describe_cluster_request(bytes_view body, int16_t version);
void encode_describe_cluster_response(const describe_cluster_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
