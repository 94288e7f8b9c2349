#pragma once
// What cafka's own producer (client/producer_actor.hpp) asks a node for the idempotent and
// the transactional producer: the CAF messages behind Kafka's InitProducerId,
// AddPartitionsToTxn, AddOffsetsToTxn and EndTxn (docs/transactions.md). Answers carry Kafka
// error codes, as the wire's do, so that the client decides retries as Kafka's clients do.

#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "actors/messages.hpp"

namespace cafka {

/// InitProducerId. An empty transactional_id: an idempotent producer's new id (epoch 0).
struct producer_id_request {
  std::string transactional_id;
  int32_t transaction_timeout_ms = 60000;
  int64_t producer_id = -1; ///< KIP-360: the current id and epoch when bumping, else -1
  int16_t producer_epoch = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, producer_id_request& x) {
  return f(caf::meta::type_name("producer_id_request"), x.transactional_id, x.transaction_timeout_ms,
           x.producer_id, x.producer_epoch);
}

struct producer_id_answer {
  int16_t error_code = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, producer_id_answer& x) {
  return f(caf::meta::type_name("producer_id_answer"), x.error_code, x.producer_id, x.producer_epoch);
}

/// A change of a transaction: partitions join it (AddPartitionsToTxn), a group's offsets
/// join it (AddOffsetsToTxn: the group's __consumer_offsets partition), or it ends (EndTxn).
struct txn_request {
  enum class kind : uint8_t { add_partitions, add_offsets, end };
  kind what = kind::add_partitions;
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::vector<topic_partition> partitions; ///< add_partitions
  std::string group_id;                    ///< add_offsets
  bool commit = false;                     ///< end
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, txn_request& x) {
  return f(caf::meta::type_name("txn_request"), x.what, x.transactional_id, x.producer_id, x.producer_epoch,
           x.partitions, x.group_id, x.commit);
}

} // namespace cafka
