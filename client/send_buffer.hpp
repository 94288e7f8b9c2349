#pragma once
// How records get from the threads that call producer::send() to the producer actor
// without one CAF message per record:
//
//   record_completion  one record's "done": a send_callback, or one slot of a bulk
//                      callback shared by the records of one bulk send. Called at most
//                      once; if it is destroyed uncalled (the producer stopped, or a
//                      message holding it was dropped), it reports
//                      caf::sec::request_receiver_down, so every record is answered
//                      exactly once.
//   send_chunk         records in hand-over order: a bulk send's vector as it came (one
//                      shared callback), or single records with one completion each.
//   send_buffer        a mutex-protected hand-over buffer of chunks. Senders push records;
//                      only the push that finds the buffer idle asks the caller to notify
//                      the actor (one drain message), every later push just joins the
//                      buffer until the actor takes it (a swap under the lock). A bulk
//                      push moves the caller's vector in whole (no per-record work under
//                      the lock). So a burst of sends costs one message, and a lone
//                      record is taken as soon as the actor runs. close() ends it for
//                      good: later pushes are refused and what was left is handed back.
//
// Pure logic (a mutex, no actors); thread-safe.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <caf/expected.hpp>

#include "client/record_metadata.hpp"

namespace cafka::client {

class record_completion {
public:
  record_completion() noexcept = default;
  explicit record_completion(send_callback f) noexcept : single_(std::move(f)) {}
  record_completion(std::shared_ptr<const bulk_callback> f, size_t index) noexcept
    : bulk_(std::move(f)), index_(index) {}

  record_completion(record_completion&& other) noexcept;
  record_completion& operator=(record_completion&& other) noexcept;
  record_completion(const record_completion&) = delete;
  record_completion& operator=(const record_completion&) = delete;

  /// Reports request_receiver_down if never called.
  ~record_completion();

  /// Reports `res` (the first call only; afterwards this is empty).
  void operator()(const caf::expected<record_metadata>& res);

  /// Whether a report is still due.
  explicit operator bool() const noexcept { return single_ || bulk_; }

private:
  send_callback single_;
  std::shared_ptr<const bulk_callback> bulk_;
  size_t index_ = 0;
};

/// Records handed over together, in order. Their completions are taken in order
/// (take_completion); a chunk destroyed before all were taken reports the rest as
/// request_receiver_down, like record_completion.
struct send_chunk {
  std::vector<producer_record> records;
  /// Set: record i reports to slot i of this bulk callback (`dones` is empty).
  std::shared_ptr<const bulk_callback> bulk;
  /// Otherwise: one completion per record.
  std::vector<record_completion> dones;
  /// How many completions were taken (records [0, taken) are someone else's now).
  size_t taken = 0;
  /// When the chunk's first record was pushed: the delivery timeouts of all its records
  /// count from there (a chunk collects single records only until the next take()).
  std::chrono::steady_clock::time_point handed_in{};

  send_chunk() = default;
  send_chunk(send_chunk&& other) noexcept;
  send_chunk& operator=(send_chunk&& other) noexcept;
  ~send_chunk();

  /// The completion of the next record (record number `taken`, which then counts up).
  record_completion take_completion();

  /// Reports every record whose completion was not taken yet as `err`.
  void fail_rest(const caf::error& err);
};

class send_buffer {
public:
  enum class push_result {
    notify, ///< queued; the buffer was idle: the caller must notify the consumer (once)
    queued, ///< queued; a notification is already due
    closed, ///< refused: nothing was taken from the caller
  };

  /// Single records are collected into chunks of at most this many.
  static constexpr size_t single_chunk_size = 1024;

  /// Queues one record. On `closed` both arguments are left untouched. `now`: the time
  /// of the hand-over on the consumer actor's clock (caf::actor_clock, simulated under
  /// CAF's testing scheduler); a new chunk is stamped with it (send_chunk::handed_in).
  push_result push(producer_record& rec, record_completion& done, std::chrono::steady_clock::time_point now);

  /// Queues all of `recs` (in order, at once), record i reporting to slot i of `done`.
  /// `recs` is moved from unless the result is `closed` (then it is untouched). An empty
  /// `recs` queues nothing (and needs no notification). `now` as above.
  push_result push(std::vector<producer_record>& recs, const std::shared_ptr<const bulk_callback>& done,
                   std::chrono::steady_clock::time_point now);

  /// Consumer side: swaps everything queued into `chunks` (which must be empty; its
  /// capacity is reused for the next round) and makes the buffer idle again, so the next
  /// push returns `notify`. False if nothing was queued.
  bool take(std::vector<send_chunk>& chunks);

  /// Refuses every later push; moves what is still queued into `chunks`.
  void close(std::vector<send_chunk>& chunks);

  /// Records queued right now (for tests and statistics).
  size_t size() const;

  /// How many records were ever queued (a flush covers the records up to this count).
  uint64_t pushed() const;

private:
  push_result queued_result(); // under the lock

  mutable std::mutex mtx_;
  std::vector<send_chunk> chunks_;
  size_t records_ = 0;
  uint64_t pushed_ = 0;
  bool notified_ = false;
  bool closed_ = false;
};

} // namespace cafka::client
