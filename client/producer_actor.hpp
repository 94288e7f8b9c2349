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
// (send_queue.hpp).
//
// Failures: a retriable error (retry.hpp: timeouts, lost connections, the partition
// actor's proxy going down, leader_not_available, ...) puts the batch back in its place,
// drops the partition's actor, fetches fresh metadata (the link reconnects, skipping
// stale proxies) and sends it again after a backoff, up to `retries` times and within
// delivery_timeout. Other errors (message_too_large, invalid_topic_exception,
// unknown_topic_or_partition with auto-creation off, ...) fail the batch's records with
// that typed error. Delivery is at least once: a batch whose answer was lost may be
// appended twice.
//
// Stopping: send an exit message (the facade's close() does, after flushing); records
// not acknowledged by then fail with caf::sec::request_receiver_down.

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/node_actor.hpp"
#include "client/atoms.hpp"
#include "client/producer_config.hpp"
#include "client/record_metadata.hpp"

namespace cafka::client {

using producer_actor = caf::typed_actor<
  /// Produces a record; answers when it was acknowledged (acks=1) or handed over
  /// (acks=0), or with its typed error.
  caf::replies_to<send_atom, producer_record>::with<record_metadata>,
  /// The same, reporting through a callback instead (what the producer class uses).
  caf::reacts_to<send_atom, producer_record, send_callback>,
  /// Sends all buffered records at once; answers true when every record handed in
  /// before the flush is acknowledged or failed.
  caf::replies_to<caf::flush_atom>::with<bool>,
  /// Internal: linger, backoff and delivery-timeout timer.
  caf::reacts_to<wakeup_atom>>;

/// Spawns a producer that connects to cfg.bootstrap_servers. Throws std::invalid_argument
/// for an invalid config (validate()). `sys` must be configured with configure_client().
producer_actor spawn_producer(caf::actor_system& sys, producer_config cfg);

/// Spawns a producer that uses `node` (reconnecting to cfg.bootstrap_servers, or to
/// where `node`'s connection goes if that is empty).
producer_actor spawn_producer(caf::actor_system& sys, node_actor node, producer_config cfg);

} // namespace cafka::client
