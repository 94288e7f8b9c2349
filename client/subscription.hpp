#pragma once
// Consumers as actors: subscribe() connects an ordinary CAF actor (the consumer) to one
// topic partition. A fetcher actor (the subscription) long-polls the partition actor
// and hands each non-empty result to the consumer as a REQUEST:
//
//   caf::behavior consumer(caf::event_based_actor* self) {
//     return {
//       [=](cafka::client::consumer_records& recs) {
//         for (auto& r : cafka::client::records(recs)) ...;  // offset, key, value, ...
//       },                                                    // returning = "taken"
//       [=](cafka::client::consumer_error& e) { ... },
//     };
//   }
//   auto sub = subscribe(sys, node, consumer, {"topic", 0}, start_position::earliest());
//
// Flow control: the fetcher issues its next fetch only after the consumer's handler has
// returned (its reply arrived; a handler may also answer later through a response
// promise, which holds the fetcher until delivered). So at most ONE batch per
// subscription is ever unanswered at the consumer and a slow consumer is never flooded.
// The handler's return value is ignored.
//
// Reconnects: when the partition actor is lost (its proxy goes down: the connection
// dropped, or the node restarted) or a request fails with a retriable error (timeouts,
// network errors, leader_not_available; see retry.hpp), the fetcher backs off, gets
// fresh metadata through its node link (which reconnects, skipping stale proxies) and
// resumes from the next offset; a fetch that was out is repeated, nothing is skipped or
// delivered twice. Failing continuously for retry_timeout is final.
//
// Errors that are final: the consumer receives consumer_error{tp, error, offset} (an
// ordinary message) and the subscription stops with `error` as its exit reason (monitor
// it to see that too). Errors are the typed "cafka" ones: unknown_topic_or_partition,
// invalid_request (negative offset or timestamp), corrupt_message, the last retriable
// error after retry_timeout, ... Policy for offset_out_of_range (a position before the
// log start, e.g. after retention, or past the log end):
//   auto_offset_reset earliest / latest: the position silently moves there;
//   none (the default): consumer_error{offset_out_of_range}, then the subscription
//   PAUSES (stays alive, fetches nothing) until seek() or stop.
//
// Lifetime: the subscription monitors the consumer and stops when it terminates; it
// holds a strong reference to the consumer, so stop one of them explicitly. It never
// blocks. Records below the requested offset that share its batch are skipped by
// records() (consumer_records.hpp).

#include <chrono>
#include <cstdint>
#include <string>

#include <caf/actor.hpp>
#include <caf/expected.hpp>
#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/node_actor.hpp"
#include "client/atoms.hpp"
#include "client/consumer_records.hpp"
#include "client/retry.hpp"

namespace cafka::client {

enum class offset_reset { none, earliest, latest };

struct fetch_options {
  int32_t max_bytes = 1 << 20; ///< per fetch (the first batch is delivered whole anyway)
  int32_t min_bytes = 1;       ///< the broker waits for this much (up to max_wait)
  std::chrono::milliseconds max_wait{500};
  /// Per request to the node or partition (a fetch may take max_wait longer).
  std::chrono::milliseconds request_timeout{30000};
  offset_reset auto_offset_reset = offset_reset::none;
  backoff_policy retry_backoff{std::chrono::milliseconds(100), std::chrono::milliseconds(2000)};
  /// Retriable errors for this long in a row are final.
  std::chrono::milliseconds retry_timeout{60000};
  /// A topic or partition the metadata does not list is asked for again (in a cluster it
  /// may just have been created through a broker whose view is ahead of this one's, as
  /// Kafka's consumer also retries it) for this long in a row (at most retry_timeout);
  /// then UNKNOWN_TOPIC_OR_PARTITION is final.
  std::chrono::milliseconds unknown_topic_timeout{5000};
  /// Where to reconnect ("host:port[,...]"); empty: where `node`'s connection goes.
  std::string bootstrap;
  /// isolation.level=read_committed: fetch only up to the last stable offset, and the
  /// records of aborted transactions are skipped (consumer_records::aborted). Default:
  /// read_uncommitted, as Kafka's.
  bool read_committed = false;
};

using subscription = caf::typed_actor<
  /// Moves the position; answers with the resolved offset once known. A batch already
  /// at the consumer is not recalled; the next one starts at the new position.
  caf::replies_to<seek_atom, start_position>::with<int64_t>,
  /// The offset the next fetch starts from (-1 while unresolved).
  caf::replies_to<caf::get_atom>::with<int64_t>,
  /// Stops the subscription.
  caf::reacts_to<stop_atom>,
  /// Internal: retry after a backoff (the epoch it was scheduled in).
  caf::reacts_to<retry_atom, uint64_t>>;

/// Starts a subscription of `consumer` to `tp` from `pos`. Does not block. `node` comes
/// from connect() (or is a local node actor); `sys` must be configured with
/// configure_client(). A malformed bootstrap in `opts` makes the subscription fail at
/// once (consumer_error with caf::sec::invalid_argument).
subscription subscribe(caf::actor_system& sys, node_actor node, caf::actor consumer,
                       topic_partition tp, start_position pos, fetch_options opts = {});

/// Seeks from a plain thread: BLOCKS up to `timeout` for the resolved offset. Never call
/// it from an actor (send seek_atom with request() there).
caf::expected<int64_t> seek(caf::actor_system& sys, const subscription& sub, start_position pos,
                            std::chrono::milliseconds timeout);

/// Stops a subscription (asynchronously; never blocks).
void stop(const subscription& sub);

} // namespace cafka::client
