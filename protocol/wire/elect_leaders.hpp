#pragma once
// ElectLeaders (key 43), v0-v2 (v2 flexible: compact strings and arrays, a tag buffer after
// every struct). KIP-183 / KIP-460.
//
//   request:  [v1+ election_type:i8] topic_partitions:NULLABLE [topic:STRING partitions:[i32]]
//             timeout_ms:i32
//   response: throttle_time_ms:i32 [v1+ error_code:i16]
//             replica_election_results:[topic:STRING partition_result:[partition_id:i32
//                                       error_code:i16 error_message:NULLABLE_STRING]]
//
// election_type 0 = preferred (the only one of v0), 1 = unclean. topic_partitions null = every
// partition of the cluster.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct election_topic {
  std::string topic;
  std::vector<int32_t> partitions;
};

struct elect_leaders_request {
  int8_t election_type = 0;
  std::optional<std::vector<election_topic>> topic_partitions; ///< nullopt: all
  int32_t timeout_ms = 60000;
};

struct election_partition_result {
  int32_t partition_id = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
};

struct election_topic_result {
  std::string topic;
  std::vector<election_partition_result> partitions;
};

struct elect_leaders_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0; ///< v1+
  std::vector<election_topic_result> results;
};

result<elect_leaders_request> decode_elect_leaders_request(bytes_view body, int16_t version);
void encode_elect_leaders_response(const elect_leaders_response& resp, int16_t version, byte_writer& w);
/// The client side (cafka-leader-election).
void encode_elect_leaders_request(const elect_leaders_request& req, int16_t version, byte_writer& w);
result<elect_leaders_response> decode_elect_leaders_response(bytes_view body, int16_t version);

} // namespace cafka::wire
