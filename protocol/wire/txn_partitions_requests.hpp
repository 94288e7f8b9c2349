#pragma once
// The transactional producer's requests to its transaction coordinator, v0-v3 (v3 is the first
// flexible version of each; v1 and v2 are v0 on the wire: v1 changed quota handling, v2 only
// lets the broker answer PRODUCER_FENCED). Not advertised until the coordinator serves them.
//
//   AddPartitionsToTxn (key 24)
//     request:  transactional_id:STRING producer_id:i64 producer_epoch:i16
//               topics:[name:STRING partitions:[i32]]
//     response: throttle_time_ms:i32 results:[name:STRING results:[partition_index:i32 error_code:i16]]
//   AddOffsetsToTxn (key 25)
//     request:  transactional_id:STRING producer_id:i64 producer_epoch:i16 group_id:STRING
//     response: throttle_time_ms:i32 error_code:i16
//   EndTxn (key 26)
//     request:  transactional_id:STRING producer_id:i64 producer_epoch:i16 committed:BOOL
//     response: throttle_time_ms:i32 error_code:i16

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct add_partitions_to_txn_topic {
  std::string name;
  std::vector<int32_t> partitions;
};

struct add_partitions_to_txn_request {
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::vector<add_partitions_to_txn_topic> topics;
};

struct txn_partition_error {
  int32_t partition_index = 0;
  int16_t error_code = 0;
};

struct txn_topic_errors {
  std::string name;
  std::vector<txn_partition_error> partitions;
};

struct add_partitions_to_txn_response {
  int32_t throttle_time_ms = 0;
  std::vector<txn_topic_errors> results;
};

struct add_offsets_to_txn_request {
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::string group_id;
};

struct end_txn_request {
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  bool committed = false;
};

/// The answer of AddOffsetsToTxn and EndTxn.
struct txn_error_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
};

result<add_partitions_to_txn_request> decode_add_partitions_to_txn_request(bytes_view body, int16_t version);
void encode_add_partitions_to_txn_response(const add_partitions_to_txn_response& resp, int16_t version,
                                           byte_writer& w);
result<add_offsets_to_txn_request> decode_add_offsets_to_txn_request(bytes_view body, int16_t version);
result<end_txn_request> decode_end_txn_request(bytes_view body, int16_t version);
void encode_txn_error_response(const txn_error_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
