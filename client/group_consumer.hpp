#pragma once
// Consumer groups for actors: join_group() starts a group MEMBER actor that consumes the
// subscribed topics on behalf of an ordinary consumer actor, sharing the partitions with
// the group's other members (native ones, or Kafka clients that name the same assignor).
//
//   caf::behavior consumer(caf::event_based_actor* self) {
//     return {
//       [=](cafka::client::partitions_assigned& a) { ... },  // a new generation's share
//       [=](cafka::client::partitions_revoked& r) { ... },   // a rebalance starts / stop
//       [=](cafka::client::consumer_records& recs) { ... },  // as with subscribe()
//       [=](cafka::client::consumer_error& e) { ... },       // final errors
//     };
//   }
//   group_options opts;
//   opts.group_id = "billing";  opts.topics = {"orders"};
//   auto member = join_group(sys, node, consumer, opts);
//
// What the member does (Kafka's consumer protocol against the group's actor,
// actors/group_actor.hpp, which it gets with group_coordinator_atom through its cluster link,
// client/cluster_link.hpp: from `node`, or — in a cluster, where `node` answers
// NOT_COORDINATOR for a group another broker coordinates — from that broker, reached at its
// host:caf.port from the metadata; so `node` may be any broker of the cluster):
//  1. JoinGroup (protocol type "consumer", one protocol: the assignor's name, metadata: a
//     consumer subscription; the MEMBER_ID_REQUIRED handshake first). The leader decodes
//     every member's subscription, asks the node's metadata for partition counts and runs
//     the assignor (client/group_protocol.hpp); everyone sends SyncGroup and decodes its
//     assignment.
//  2. Fetches the committed offsets of its partitions (OffsetFetch), sends the consumer
//     partitions_assigned{generation, partitions}, and subscribes a fetcher per partition
//     (subscription.hpp) from the committed offset, else from auto_offset_reset.
//  3. Each fetched batch goes to the consumer as a REQUEST; the fetcher is answered only
//     after the consumer's reply, so subscription.hpp's flow control holds (one batch per
//     partition at the consumer). Delivery modes: see group_options.hpp. A handler that
//     answers with an error (returns a caf::error) has NOT taken the batch: it does not
//     count as consumed, and that partition's fetcher stops until the next rebalance
//     (a consumer that is about to quit can refuse the batches it will not process).
//  4. Heartbeats every heartbeat_interval and auto-commits every auto_commit_interval.
//     REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID (a fresh member id then)
//     from a heartbeat or commit: stop the fetchers, commit what was consumed (auto-commit
//     only), send partitions_revoked, rejoin.
//  5. A lost group actor (its proxy went down: the node restarted or the connection
//     dropped), NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE or a timed-out request: revoke as
//     above (without a commit), back off (fetch.retry_backoff), and start over from the node
//     through the cluster link, which reconnects and follows the group to its coordinator
//     (one hop per attempt; a coordinator that moved or restarted is found again on the
//     next attempt). Never a crash.
//  6. Fatal errors (INCONSISTENT_GROUP_PROTOCOL, INVALID_SESSION_TIMEOUT, bad options, ...):
//     consumer_error{{}, error, -1} to the consumer, and the member stops with that error.
//
// Explicit commits: request (commit_atom) commits what was consumed; (commit_atom,
// std::vector<group_offset>) commits the given offsets (the next offset to read). Both
// answer once the group stored them, or with the error. A commit that arrives while
// batches are at the consumer waits until those batches are answered, so that a handler
// may send the commit and return: its own batch is included. (A handler that holds its
// batch through a response promise until the commit is answered must commit explicit
// offsets instead, or it waits for itself.) Outside a generation commits fail with
// REBALANCE_IN_PROGRESS.
//
// Batches still at the consumer when a rebalance starts do not count as consumed: they
// may be delivered again (to whichever member gets the partition) — at least once.
//
// Stopping: stop_atom (after batches at the consumer were answered, at most
// fetch.request_timeout) or the consumer terminating (the member monitors it): stop the
// fetchers, commit what was consumed (auto-commit only), partitions_revoked (if the
// consumer is alive), LeaveGroup, quit. The member does not hold the consumer alive:
// stop one of them. Every request to the node or group actor has a finite timeout
// (fetch.request_timeout; joins and syncs: max_poll_interval longer, as the group holds
// them during a rebalance). The consumer is not timed: max_poll_interval does not make
// the member leave when a handler is slow (its heartbeats run on the member's own actor).

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "client/atoms.hpp"
#include "client/group_messages.hpp"
#include "client/group_options.hpp"

namespace cafka::client {

/// Starts a member of `opts`' group for `consumer`. Does not block; bad options make it
/// send consumer_error (caf::sec::invalid_argument, the reason in the context) and stop.
/// `sys` must be configured with configure_client(); `node` comes from connect() (any broker
/// of a cluster: the member finds the group's coordinator from there).
caf::actor join_group(caf::actor_system& sys, node_actor node, caf::actor consumer, group_options opts);

} // namespace cafka::client
