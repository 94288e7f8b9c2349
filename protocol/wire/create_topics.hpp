#pragma once
// CreateTopics (key 19), v0-v4 (v4 is v3 on the wire).
//
//   request:  topics:ARRAY[name:STRING num_partitions:i32 replication_factor:i16
//               assignments:ARRAY[partition_index:i32 broker_ids:ARRAY[i32]]
//               configs:ARRAY[name:STRING value:NULLABLE_STRING]]
//             timeout_ms:i32 [v1+ validate_only:BOOL]
//   response: [v2+ throttle_time_ms:i32]
//             topics:ARRAY[name:STRING error_code:i16 [v1+ error_message:NULLABLE_STRING]]
// num_partitions / replication_factor -1 mean the broker's defaults (kafkajs sends that).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct create_topic_assignment {
  int32_t partition_index = 0;
  std::vector<int32_t> broker_ids;
};

struct create_topic_config {
  std::string name;
  std::optional<std::string> value;
};

struct create_topic {
  std::string name;
  int32_t num_partitions = -1;
  int16_t replication_factor = -1;
  std::vector<create_topic_assignment> assignments;
  std::vector<create_topic_config> configs;
};

struct create_topics_request {
  std::vector<create_topic> topics;
  int32_t timeout_ms = 0;
  bool validate_only = false; ///< v1+
};

struct create_topic_result {
  std::string name;
  int16_t error_code = 0;
  std::optional<std::string> error_message; ///< v1+
};

struct create_topics_response {
  int32_t throttle_time_ms = 0; ///< v2+
  std::vector<create_topic_result> topics;
};

result<create_topics_request> decode_create_topics_request(bytes_view body, int16_t version);
void encode_create_topics_response(const create_topics_response& resp, int16_t version,
                                   byte_writer& w);

} // namespace cafka::wire
