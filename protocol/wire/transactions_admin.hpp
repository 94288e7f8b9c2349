#pragma once
// The transaction tooling APIs of KIP-664 (kafka-transactions.sh), both flexible from v0:
//
//   DescribeTransactions (key 65) v0
//     request:  transactional_ids:[STRING]
//     response: throttle_time_ms:i32 transaction_states:[error_code:i16 transactional_id:STRING
//               transaction_state:STRING transaction_timeout_ms:i32 transaction_start_time_ms:i64
//               producer_id:i64 producer_epoch:i16 topics:[topic:STRING partitions:[i32]]]
//   ListTransactions (key 66) v0-1
//     request:  state_filters:[STRING] producer_id_filters:[i64] [v1+ duration_filter:i64]
//     response: throttle_time_ms:i32 error_code:i16 unknown_state_filters:[STRING]
//               transaction_states:[transactional_id:STRING producer_id:i64 transaction_state:STRING]

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct describe_transactions_request {
  std::vector<std::string> transactional_ids;
};

struct described_txn_topic {
  std::string topic;
  std::vector<int32_t> partitions;
};

struct described_transaction {
  int16_t error_code = 0;
  std::string transactional_id;
  std::string transaction_state;
  int32_t transaction_timeout_ms = 0;
  int64_t transaction_start_time_ms = -1;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::vector<described_txn_topic> topics;
};

struct describe_transactions_response {
  int32_t throttle_time_ms = 0;
  std::vector<described_transaction> transaction_states;
};

struct list_transactions_request {
  std::vector<std::string> state_filters;
  std::vector<int64_t> producer_id_filters;
  int64_t duration_filter = -1; ///< v1+: only transactions open at least this long; -1: all
};

struct listed_transaction {
  std::string transactional_id;
  int64_t producer_id = -1;
  std::string transaction_state;
};

struct list_transactions_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::vector<std::string> unknown_state_filters;
  std::vector<listed_transaction> transaction_states;
};

result<describe_transactions_request> decode_describe_transactions_request(bytes_view body, int16_t version);
void encode_describe_transactions_response(const describe_transactions_response& resp, int16_t version,
                                           byte_writer& w);
result<list_transactions_request> decode_list_transactions_request(bytes_view body, int16_t version);
void encode_list_transactions_response(const list_transactions_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
