#pragma once
// Metadata (key 3), v0-v6 (v6 is v5 on the wire).
//
//   request:  topics:ARRAY[name:STRING] [v4+ allow_auto_topic_creation:BOOL]
//             v0: an empty array means all topics; v1+: null (-1) means all, empty means none.
//   response: [v3+ throttle_time_ms:i32]
//             brokers:ARRAY[node_id:i32 host:STRING port:i32 [v1+ rack:NULLABLE_STRING]]
//             [v2+ cluster_id:NULLABLE_STRING] [v1+ controller_id:i32]
//             topics:ARRAY[error_code:i16 name:STRING [v1+ is_internal:BOOL]
//               partitions:ARRAY[error_code:i16 partition_index:i32 leader_id:i32
//                 replica_nodes:ARRAY[i32] isr_nodes:ARRAY[i32] [v5+ offline_replicas:ARRAY[i32]]]]

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct metadata_request {
  /// nullopt = all topics (v0: empty array; v1+: null array).
  std::optional<std::vector<std::string>> topics;
  bool allow_auto_topic_creation = true; ///< v4+; earlier versions always allow it
};

struct metadata_broker {
  int32_t node_id = 0;
  std::string host;
  int32_t port = 0;
  std::optional<std::string> rack; ///< v1+
};

struct metadata_partition {
  int16_t error_code = 0;
  int32_t partition_index = 0;
  int32_t leader_id = -1;
  std::vector<int32_t> replica_nodes;
  std::vector<int32_t> isr_nodes;
  std::vector<int32_t> offline_replicas; ///< v5+
};

struct metadata_topic {
  int16_t error_code = 0;
  std::string name;
  bool is_internal = false; ///< v1+
  std::vector<metadata_partition> partitions;
};

struct metadata_response {
  int32_t throttle_time_ms = 0; ///< v3+
  std::vector<metadata_broker> brokers;
  std::optional<std::string> cluster_id; ///< v2+
  int32_t controller_id = -1;            ///< v1+
  std::vector<metadata_topic> topics;
};

result<metadata_request> decode_metadata_request(bytes_view body, int16_t version);
void encode_metadata_response(const metadata_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
