#pragma once
// TxnOffsetCommit (key 28), v0-v3, sent by a transactional producer to the group coordinator:
// offsets that become visible when the transaction commits. v1 is v0 on the wire; v2 adds
// each partition's leader epoch; v3 is flexible and adds the group membership (KIP-447).
//
//   request:  transactional_id:STRING group_id:STRING producer_id:i64 producer_epoch:i16
//             [v3+ generation_id:i32 member_id:STRING group_instance_id:NULLABLE_STRING]
//             topics:[name:STRING partitions:[partition_index:i32 committed_offset:i64
//                     [v2+ committed_leader_epoch:i32] committed_metadata:NULLABLE_STRING]]
//   response: throttle_time_ms:i32 topics:[name:STRING partitions:[partition_index:i32 error_code:i16]]
//
// The partition structs are OffsetCommit's (protocol/wire/offset_commit.hpp), the response
// AddPartitionsToTxn's (txn_partitions_requests.hpp): the same fields.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/offset_commit.hpp"
#include "protocol/wire/primitives.hpp"
#include "protocol/wire/txn_partitions_requests.hpp"

namespace cafka::wire {

struct txn_offset_commit_request {
  std::string transactional_id;
  std::string group_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t generation_id = -1;                   ///< v3+
  std::string member_id;                        ///< v3+
  std::optional<std::string> group_instance_id; ///< v3+
  std::vector<offset_commit_topic> topics;
};

result<txn_offset_commit_request> decode_txn_offset_commit_request(bytes_view body, int16_t version);
/// The response has AddPartitionsToTxn's layout with TxnOffsetCommit's versions.
void encode_txn_offset_commit_response(const add_partitions_to_txn_response& resp, int16_t version,
                                       byte_writer& w);

} // namespace cafka::wire
