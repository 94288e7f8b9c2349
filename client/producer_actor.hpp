#pragma once
// The producer as an actor: what the thread-safe `producer` class (producer.hpp) drives,
// and what actors can use directly:
//
//   self->request(prod, 30s, send_atom_v, producer_record{"t", "key", "value"})
//     .then([](record_metadata& md) { ... }, [](caf::error& err) { ... });
//
// Inside: records go to a partition (explicit, else murmur2 of the key, else sticky;
// partitioner.hpp) and into that partition's batch (accumulator.hpp); a batch that is
// full or lingered out is produced straight to the partition actor from the topic's
// metadata (requested through the node link, node_link.hpp, on first use; unknown topics
// are created if allowed). At most max_in_flight batches per partition are out at once
// (send_queue.hpp). A partition at that limit is muted in the accumulator: its open batch
// keeps collecting records while the request is out and goes out as one batch when the
// answer arrives, so with linger 0 batches grow with the load and a record waits about
// one round trip (Kafka's Sender does the same).
//
// Handing records over: one record per message (send_atom, producer_record, ...), a
// vector per message (send_atom, std::vector<producer_record>, bulk_callback), or, for
// the producer class, a send_buffer (send_buffer.hpp) that senders fill under a mutex
// and the actor takes as a whole on drain_atom (one message per burst, processed in
// chunks so that produce answers are not held up behind a long burst). The actor takes
// from the send_buffer only while the records it holds (accumulated or unacknowledged)
// stay below cfg.buffer_memory; the rest waits there (and times out there too).
//
// Failures: a retriable error (retry.hpp: timeouts, lost connections, the partition
// actor's proxy going down, leader_not_available, ...) puts the batch back in its place,
// drops the partition's actor, fetches fresh metadata (the link reconnects, skipping
// stale proxies) and sends it again after a backoff, up to `retries` times and within
// delivery_timeout. Other errors (message_too_large, invalid_topic_exception,
// unknown_topic_or_partition with auto-creation off, ...) fail the batch's records with
// that typed error.
//
// Idempotence (producer_config::enable_idempotence, on by default with acks=-1): before
// its first batch the producer gets a producer id from the node (init_producer_id_atom);
// each batch is numbered when it first goes out (its partition's next sequence; producer
// id, epoch and base sequence are written into the batch header and its CRC) and keeps
// that numbering for every retry, so a leader that already has it answers with the
// original offset instead of appending it twice, also after a leader failover. An answer
// that shows the numbering broke (OUT_OF_ORDER_SEQUENCE_NUMBER, UNKNOWN_PRODUCER_ID,
// INVALID_PRODUCER_EPOCH, or a numbered batch that expired unanswered) fails that batch,
// and the producer takes a new producer id for the batches numbered after it (Kafka's
// clients bump the epoch instead; the effect for the partition is the same: a new
// sequence from 0). Without idempotence delivery is at least once: a batch whose answer
// was lost may be appended twice.
//
// Transactions (producer_config::transactional_id): init_transactions asks the broker
// that coordinates the id (FindCoordinator key type 1, through the cluster link) for the
// producer id; then records are sent only inside a transaction. A partition's first batch
// of a transaction waits until AddPartitionsToTxn for it was answered; send_offsets adds
// the group (AddOffsetsToTxn) and writes the offsets to the group's coordinator
// (TxnOffsetCommit through the group actor); commit waits until every record sent in the
// transaction is acknowledged, then EndTxn. A record that failed makes the transaction
// abortable only (commit answers that error). Fencing errors are fatal.
//
// Stopping: send an exit message (the facade's close() does, after flushing); records
// not acknowledged by then fail with caf::sec::request_receiver_down.
//
// Time and randomness (for the deterministic simulation, issue 7): linger, back-off and
// timeouts read the actor's clock (self->clock().now(), the steady clock in production,
// simulated time under CAF's testing scheduler), as do its links (node_link,
// cluster_link) and subscriptions; records without a timestamp get cfg.now_ms() (the
// system clock unless set); the sticky partitioner draws from cfg.partitioner_seed
// (random_device when 0).

#include <memory>
#include <string>
#include <vector>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/node_actor.hpp"
#include "client/atoms.hpp"
#include "client/producer_config.hpp"
#include "client/record_metadata.hpp"

namespace cafka::client {

class send_buffer;

using producer_actor = caf::typed_actor<
  /// Produces a record; answers when it was acknowledged (acks=1) or handed over
  /// (acks=0), or with its typed error.
  caf::replies_to<send_atom, producer_record>::with<record_metadata>,
  /// The same, reporting through a callback instead.
  caf::reacts_to<send_atom, producer_record, send_callback>,
  /// Produces all records of the vector (in order); the callback is called once per
  /// record with its index (bulk_callback).
  caf::reacts_to<send_atom, std::vector<producer_record>, bulk_callback>,
  /// Takes what is queued in the producer's send_buffer (see spawn_producer below; a
  /// producer without one ignores it).
  caf::reacts_to<drain_atom>,
  /// Sends all buffered records at once; answers true when every record handed in
  /// before the flush is acknowledged or failed.
  caf::replies_to<caf::flush_atom>::with<bool>,
  /// Internal: linger, backoff and delivery-timeout timer.
  caf::reacts_to<wakeup_atom>,
  /// Transactions (cfg.transactional_id; see "Transactions" above). Each answers true once
  /// done, or the error: init_transactions gets the producer id of the transactional id
  /// (fencing its previous producer, finishing its open transaction); begin starts a
  /// transaction; send_offsets adds a group's offsets (the next offsets to consume) to it;
  /// commit flushes, then commits; abort waits for what is in flight, then aborts.
  caf::replies_to<init_transactions_atom>::with<bool>,
  caf::replies_to<begin_txn_atom>::with<bool>,
  caf::replies_to<send_offsets_atom, std::string, std::vector<group_offset>>::with<bool>,
  caf::replies_to<commit_txn_atom>::with<bool>,
  caf::replies_to<abort_txn_atom>::with<bool>>;

/// Spawns a producer that connects to cfg.bootstrap_servers. Throws std::invalid_argument
/// for an invalid config (validate()). `sys` must be configured with configure_client().
producer_actor spawn_producer(caf::actor_system& sys, producer_config cfg);

/// Spawns a producer that uses `node` (reconnecting to cfg.bootstrap_servers, or to
/// where `node`'s connection goes if that is empty).
producer_actor spawn_producer(caf::actor_system& sys, node_actor node, producer_config cfg);

/// Spawns a producer that also takes records from `buffer` on drain_atom (what the
/// producer class does). `node` may be null: then cfg.bootstrap_servers is needed. When
/// the actor terminates it closes `buffer`; records still in it are reported as
/// caf::sec::request_receiver_down.
producer_actor spawn_producer(caf::actor_system& sys, node_actor node, producer_config cfg,
                              std::shared_ptr<send_buffer> buffer);

} // namespace cafka::client
