#pragma once
// What a transaction coordinator knows of one transactional id (Kafka's TransactionMetadata),
// and its status values, which are also the transaction_status byte of __transaction_state
// (cluster/txn_log.hpp) and the state names DescribeTransactions / ListTransactions show.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace cafka::cluster {

inline constexpr std::string_view transaction_state_topic = "__transaction_state";

enum class txn_status : int8_t {
  empty = 0,
  ongoing = 1,
  prepare_commit = 2,
  prepare_abort = 3,
  complete_commit = 4,
  complete_abort = 5,
  dead = 6,
  prepare_epoch_fence = 7, ///< in memory only: PrepareAbort at the bumped epoch is what is written
};

/// Kafka's names: "Empty", "Ongoing", "PrepareCommit", ... ("Unknown" for other values).
const char* to_string(txn_status s) noexcept;
/// The status of a stored byte; nothing for a value Kafka does not define.
bool valid_txn_status(int8_t value) noexcept;

/// The partitions of a transaction, by topic.
using txn_partitions = std::map<std::string, std::set<int32_t>>;

struct txn_metadata {
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  /// The id and epoch before the last bump (KIP-360: a retried InitProducerId is recognised);
  /// in memory only, as in Kafka before KIP-890.
  int64_t last_producer_id = -1;
  int16_t last_producer_epoch = -1;
  int32_t timeout_ms = 0;
  txn_status status = txn_status::empty;
  txn_partitions partitions;
  int64_t start_ms = -1;       ///< when the transaction began (first partition added); -1 when none
  int64_t last_update_ms = -1;

  bool in_prepare() const noexcept {
    return status == txn_status::prepare_commit || status == txn_status::prepare_abort;
  }
  bool completed() const noexcept {
    return status == txn_status::empty || status == txn_status::complete_commit
           || status == txn_status::complete_abort;
  }

  friend bool operator==(const txn_metadata& a, const txn_metadata& b) {
    return a.producer_id == b.producer_id && a.producer_epoch == b.producer_epoch && a.timeout_ms == b.timeout_ms
           && a.status == b.status && a.partitions == b.partitions && a.start_ms == b.start_ms
           && a.last_update_ms == b.last_update_ms;
  }
};

} // namespace cafka::cluster
