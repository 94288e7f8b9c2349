#pragma once
// The records of the internal topic __transaction_state, in Kafka's format
// (TransactionLogKey / TransactionLogValue, version 0), one per transactional id and change:
//
//   key    version:i16 (= 0) transactional_id:STRING
//   value  version:i16 (= 0) producer_id:i64 producer_epoch:i16 transaction_timeout_ms:i32
//          transaction_status:i8 transaction_partitions:NULLABLE ARRAY[topic:STRING
//          partition_ids:ARRAY[i32]] last_update_timestamp_ms:i64 start_timestamp_ms:i64
//   null value: the id expired (Dead)
//
// Partitions are null when the status is Empty, as Kafka writes them. A coordinator loading a
// partition keeps the last value of each key. Value version 1 (flexible, KIP-890's tagged
// fields) is read as well, its tagged fields skipped.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/txn_metadata.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

/// The partition of __transaction_state for `transactional_id`: Kafka's
/// Utils.abs(transactionalId.hashCode) % partitions, as for groups.
int32_t txn_partition_for(std::string_view transactional_id, int32_t partitions) noexcept;

std::string encode_txn_key(const std::string& transactional_id);
std::string encode_txn_value(const txn_metadata& m);

/// The id of a key; nothing for a key version other than 0. Errors: malformed bytes.
result<std::optional<std::string>> decode_txn_key(protocol::bytes_view key);
/// The metadata of a value (version 0 or 1); nothing for another version. Errors: malformed
/// bytes or a status Kafka does not define.
result<std::optional<txn_metadata>> decode_txn_value(protocol::bytes_view value);

/// One record of the topic: a state, or the id's tombstone.
struct txn_log_entry {
  std::string transactional_id;
  std::optional<txn_metadata> metadata;
};

/// One uncompressed batch holding `entry`, timestamped `now_ms`, for partition_log::append.
std::vector<char> encode_txn_batch(const txn_log_entry& entry, int64_t now_ms);

/// What a read of the topic held.
struct txn_log_read {
  std::vector<txn_log_entry> entries; ///< in log order
  int64_t next_offset = 0;            ///< the offset after the last batch read
};

/// Every record of the batches in `batches` (what a partition read returned), in log order;
/// records of unknown versions are skipped, control batches too. Errors: a corrupt batch or
/// a malformed record.
result<txn_log_read> decode_txn_batches(protocol::bytes_view batches);

} // namespace cafka::cluster
