#pragma once
// The actor that owns one partition's log on this node.
//
// It appends, serves fetches (parking long polls as response promises, answered on the
// next append or when max_wait_ms ends), answers offset lookups and applies retention.
// Appends and reads are plain write()/pread() calls into the page cache; fsync and file
// deletion go to the node's I/O worker, a detached actor, so they never block a
// scheduler thread.

#include <cstdint>
#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"

namespace cafka::storage {
class partition_log;
}

namespace cafka {

using partition_actor = caf::typed_actor<
  /// Appends the batches (validated; offsets assigned) and answers once they are in the
  /// operating system.
  caf::replies_to<produce_atom, produce_request>::with<produce_result>,
  /// Reads from an offset, waiting up to max_wait_ms for min_bytes.
  caf::replies_to<fetch_atom, fetch_request>::with<fetch_result>,
  /// Reads from an offset at once, watching for more when short of min_bytes (see
  /// fetch_watch): how a fetch over several partitions waits without parking at each.
  caf::replies_to<fetch_atom, fetch_watch>::with<fetch_result>,
  /// earliest_timestamp, latest_timestamp, or the first record at or after a timestamp.
  caf::replies_to<list_offsets_atom, int64_t>::with<offset_answer>,
  /// Offsets and size.
  caf::replies_to<caf::get_atom>::with<partition_status>,
  /// Applies time and size retention for `now` (ms since the epoch).
  caf::replies_to<retention_atom, int64_t>::with<retention_report>,
  /// Internal timers: a parked fetch's deadline (its id), and the flush.ms interval.
  caf::reacts_to<caf::timeout_atom, uint64_t>,
  caf::reacts_to<caf::tick_atom>,
  /// Answers parked fetches, stops and replies with the log end offset. The log is then
  /// the caller's to close.
  caf::replies_to<caf::close_atom>::with<int64_t>>;

/// What a partition actor needs besides its log.
struct partition_context {
  topic_partition tp;
  /// The node's I/O worker (actors/io_worker.hpp) for fsync and deletions.
  caf::actor io_worker;
  /// Milliseconds since the epoch; replaceable for simulated time.
  std::function<int64_t()> now_ms;
};

/// Spawns the actor; it shares the log with the node, which closes it after the actor
/// answered close.
partition_actor spawn_partition(caf::actor_system& sys, std::shared_ptr<storage::partition_log> log,
                                partition_context ctx);

} // namespace cafka
