#pragma once
// The log cleaner of a node (Kafka's LogCleaner, log.cleaner.enable): compacts the local
// replicas of topics whose cleanup.policy includes compact.
//
// Every log.cleaner.backoff.ms, and again as soon as a round ends, it asks the local
// partitions how dirty their logs are (clean_status_atom), takes the dirtiest one that is
// due (above min.cleanable.dirty.ratio, or past max.compaction.lag.ms) and not being cleaned,
// has that partition describe a round (clean_prepare_atom: storage::clean_job, with
// descriptors of the sealed segments to read), runs it on one of log.cleaner.threads
// workers (detached actors: the reading, rewriting and fsyncs never block a scheduler
// thread), and hands the result back to the partition, which swaps the cleaned segments in
// (clean_complete_atom). Each worker owns a key map of log.cleaner.dedupe.buffer.size /
// threads bytes, allocated at its first round and kept.

#include <chrono>
#include <functional>
#include <memory>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

namespace cafka {

class routing_table;
namespace metrics {
class broker_metrics;
}

using log_cleaner_actor = caf::typed_actor<
  /// Looks for a partition to clean (sent to itself when a round ends).
  caf::reacts_to<caf::tick_atom>,
  /// The log.cleaner.backoff.ms timer.
  caf::reacts_to<caf::timeout_atom>>;

struct log_cleaner_config {
  std::shared_ptr<const routing_table> routes;
  /// log.cleaner.threads, log.cleaner.dedupe.buffer.size (over all threads),
  /// log.cleaner.io.buffer.load.factor, log.cleaner.backoff.ms.
  int threads = 1;
  size_t dedupe_buffer_size = size_t{128} << 20;
  double load_factor = 0.9;
  std::chrono::milliseconds backoff{15000};
  /// Milliseconds since the epoch; replaceable for simulated time.
  std::function<int64_t()> now_ms;
  /// Workers on threads of their own (false in the deterministic simulation).
  bool detached = true;
  /// Counts rounds and what they removed; may be null.
  std::shared_ptr<metrics::broker_metrics> metrics;
};

log_cleaner_actor spawn_log_cleaner(caf::actor_system& sys, log_cleaner_config cfg);

} // namespace cafka
