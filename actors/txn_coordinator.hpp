#pragma once
// The transaction coordinator of a broker (docs/transactions.md): it coordinates the
// transactional ids of the __transaction_state partitions this broker leads, as Kafka's
// TransactionCoordinator does. One actor per broker.
//
// - The node actor tells it which partitions it leads (txn_lead_atom, with the partition's
//   actor and leader epoch, which is the coordinator epoch of its markers) and which it lost
//   (txn_leave_atom). On a lead the partition is loaded from its log start to its log end
//   (the last state of each id wins; a tombstone forgets the id); meanwhile its ids are
//   answered COORDINATOR_LOAD_IN_PROGRESS, those of partitions not led here NOT_COORDINATOR.
//   After the load, transactions found in PrepareCommit / PrepareAbort get their markers
//   written again and are completed; Ongoing ones are left to the timeout.
// - Each request is decided by cluster/txn_transitions.hpp; a new state is produced to the
//   partition with acks=all and applied (and answered) only once the in-sync replicas have
//   it. While a change of an id is being written (or its markers), other requests for it get
//   CONCURRENT_TRANSACTIONS.
// - After PrepareCommit / PrepareAbort the markers go to the leader of every partition of the
//   transaction through the node actor (which relays to another broker in a cluster); a
//   failed marker is sent again after a pause while this broker leads the partition. Once all
//   are written, CompleteCommit / CompleteAbort is written.
// - A timer (transaction.abort.timed.out.transaction.cleanup.interval.ms) aborts transactions
//   open longer than their timeout (fencing the producer's epoch) and forgets ids idle longer
//   than transactional.id.expiration.ms (a tombstone is written).
//
// The requests come from the Kafka listener (in-process only). Answers carry Kafka error codes.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "actors/partition_actor.hpp"
#include "cluster/txn_metadata.hpp"

namespace cafka {

/// (txn_lead_atom, int32_t partition, partition_actor, int32_t coordinator_epoch, node_actor)
using txn_lead_atom = caf::atom_constant<caf::atom("txnlead")>;
/// (txn_leave_atom, int32_t partition)
using txn_leave_atom = caf::atom_constant<caf::atom("txnleave")>;
/// (txn_init_atom, txn_init_request) -> txn_init_answer
using txn_init_atom = caf::atom_constant<caf::atom("txninit")>;
/// (txn_change_atom, txn_change_request) -> int16_t (a Kafka error code)
using txn_change_atom = caf::atom_constant<caf::atom("txnchange")>;
/// (txn_describe_atom, std::vector<std::string>) -> std::vector<txn_description>
using txn_describe_atom = caf::atom_constant<caf::atom("txndesc")>;
/// (txn_list_atom) -> std::vector<txn_description> (every id of the loaded partitions)
using txn_list_atom = caf::atom_constant<caf::atom("txnlist")>;

/// InitProducerId with a transactional id.
struct txn_init_request {
  std::string transactional_id;
  int32_t timeout_ms = 0;
  int64_t producer_id = -1; ///< v3+ (KIP-360): the client's current id and epoch, else -1
  int16_t producer_epoch = -1;
};

struct txn_init_answer {
  int16_t error_code = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
};

/// AddPartitionsToTxn, AddOffsetsToTxn (its group's __consumer_offsets partition, in
/// `partitions`) or EndTxn.
struct txn_change_request {
  enum class kind { add_partitions, end };
  kind what = kind::add_partitions;
  std::string transactional_id;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  cluster::txn_partitions partitions; ///< add_partitions
  bool commit = false;                ///< end
};

/// DescribeTransactions / ListTransactions: one id as its coordinator knows it; error_code
/// NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or TRANSACTIONAL_ID_NOT_FOUND for an id
/// described that is not here.
struct txn_description {
  std::string transactional_id;
  int16_t error_code = 0;
  cluster::txn_metadata metadata;
};

struct txn_coordinator_config {
  int32_t broker_id = 0;
  /// transaction.max.timeout.ms, transactional.id.expiration.ms and the abort timer's period.
  int32_t max_timeout_ms = 900000;
  int64_t id_expiration_ms = 604800000;
  int64_t abort_interval_ms = 10000;
  /// The producer id issuer (actors/producer_id_issuer.hpp).
  caf::actor producer_ids;
  std::function<int64_t()> now_ms;
};

caf::actor spawn_txn_coordinator(caf::actor_system& sys, txn_coordinator_config cfg);

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::txn_init_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::txn_init_answer)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::txn_change_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::txn_description)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<cafka::txn_description>)
