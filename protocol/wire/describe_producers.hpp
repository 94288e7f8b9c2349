#pragma once
// DescribeProducers (key 61), v0 (flexible): the producers a partition's leader knows
// (Kafka's kafka-transactions.sh describe-producers, KIP-664), answered by each leader.
//
//   request:  topics:[name:STRING partition_indexes:[i32]]
//   response: throttle_time_ms:i32 topics:[name:STRING partitions:[partition_index:i32
//             error_code:i16 error_message:NULLABLE_STRING active_producers:[producer_id:i64
//             producer_epoch:i32 last_sequence:i32 last_timestamp:i64 coordinator_epoch:i32
//             current_txn_start_offset:i64]]]

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct describe_producers_topic {
  std::string name;
  std::vector<int32_t> partition_indexes;
};

struct describe_producers_request {
  std::vector<describe_producers_topic> topics;
};

struct active_producer {
  int64_t producer_id = -1;
  int32_t producer_epoch = -1;
  int32_t last_sequence = -1;
  int64_t last_timestamp = -1;
  int32_t coordinator_epoch = -1;
  int64_t current_txn_start_offset = -1;
};

struct describe_producers_partition {
  int32_t partition_index = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::vector<active_producer> active_producers;
};

struct describe_producers_topic_response {
  std::string name;
  std::vector<describe_producers_partition> partitions;
};

struct describe_producers_response {
  int32_t throttle_time_ms = 0;
  std::vector<describe_producers_topic_response> topics;
};

result<describe_producers_request> decode_describe_producers_request(bytes_view body, int16_t version);
void encode_describe_producers_response(const describe_producers_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
