#pragma once
// One partition's batches between the accumulator and the broker: waiting batches in
// sequence order, at most max_in_flight of them out at a time, failed attempts back in
// line at their old place (so that with max_in_flight 1 the partition's order is kept
// across retries), and a backoff before the next attempt.
//
// The producer mutes the partition in the accumulator while !accepts(max_in_flight): a
// new batch would only wait here, so it stays open there and keeps collecting records.
//
// Every attempt gets a unique id; an answer for an attempt that is no longer current
// (its batch was already put back after a lost connection) is recognised and dropped.
// Pure logic: no actors, no clocks (time is passed in). Not thread-safe.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "client/accumulator.hpp"

namespace cafka::client {

class send_queue {
public:
  /// Appends a batch (sequences must increase, as the accumulator produces them).
  void push(sealed_batch b);

  /// The next batch to send if fewer than `max_in_flight` are out and the backoff has
  /// passed at `now`: moves it to in-flight, counts the attempt and returns its attempt
  /// id and a pointer that stays valid until the attempt ends.
  struct attempt {
    uint64_t id = 0;
    const sealed_batch* batch = nullptr;
  };
  std::optional<attempt> start_next(size_t max_in_flight, steady_time now);

  /// The attempt succeeded or failed for good: removes and returns its batch; nothing
  /// if `attempt_id` is not current (a stale answer).
  std::optional<sealed_batch> finish(uint64_t attempt_id);

  /// The attempt failed and will be repeated: back to its place in the waiting line, not
  /// before `not_before`. False if `attempt_id` is not current.
  bool retry(uint64_t attempt_id, steady_time not_before);

  /// The batch of a current attempt; nullptr if `attempt_id` is not current.
  const sealed_batch* find(uint64_t attempt_id) const;

  /// Puts every in-flight batch back in line (the connection was lost).
  void retry_all(steady_time not_before);

  /// Removes the waiting batches created before `cutoff` (delivery timeout).
  std::vector<sealed_batch> expire(steady_time cutoff);

  /// When the oldest waiting batch was created (what expire() looks at); nothing if no
  /// batch waits.
  std::optional<steady_time> oldest_waiting() const;

  /// Whether a batch created before the one with `sequence` is still here (waiting or in
  /// flight): an idempotent producer's OUT_OF_ORDER_SEQUENCE_NUMBER then only means that
  /// batch has not arrived yet, and is retried.
  bool has_earlier(uint64_t sequence) const;

  /// Removes everything, waiting and in flight.
  std::vector<sealed_batch> take_all();

  /// Whether a new batch could be sent at once: nothing waits (for a backoff, metadata,
  /// or a free slot) and fewer than `max_in_flight` are out. If not, the partition is
  /// muted in the accumulator.
  bool accepts(size_t max_in_flight) const noexcept {
    return waiting_.empty() && in_flight_.size() < max_in_flight;
  }

  size_t waiting() const noexcept { return waiting_.size(); }
  size_t in_flight() const noexcept { return in_flight_.size(); }
  bool idle() const noexcept { return waiting_.empty() && in_flight_.empty(); }
  /// When the backoff ends (meaningful if waiting() > 0).
  steady_time backoff_until() const noexcept { return backoff_until_; }

private:
  void insert_waiting(sealed_batch b);

  std::deque<sealed_batch> waiting_;             ///< sorted by sequence
  std::map<uint64_t, sealed_batch> in_flight_;   ///< attempt id -> batch
  steady_time backoff_until_{};
  uint64_t next_attempt_ = 1;
};

} // namespace cafka::client
