#pragma once
// The producer actor's state (internal to producer_actor.cpp and producer_transactions.cpp;
// the design is described in producer_actor.hpp).

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <caf/typed_event_based_actor.hpp>
#include <caf/typed_response_promise.hpp>

#include "client/accumulator.hpp"
#include "client/cluster_link.hpp"
#include "client/idempotence.hpp"
#include "client/partitioner.hpp"
#include "client/producer_actor.hpp"
#include "client/send_buffer.hpp"
#include "client/send_queue.hpp"

namespace cafka::client::detail {

using clock_type = std::chrono::steady_clock;

struct pending_record {
  record_completion done;
  clock_type::time_point deadline;
  uint32_t bytes = 0; ///< its share of buffer_memory
  bool open = false;
};

/// A flush waiting for the records handed in before it: those of the send buffer up to
/// buffer_seq (once all of them have tokens, `token` is the first token after them) and
/// those with tokens below `token`.
struct flush_wait {
  uint64_t buffer_seq = 0;
  std::optional<uint64_t> token;
  caf::typed_response_promise<bool> rp;
};

// A deque on one ring of power-of-two size: indexing is a mask, not a walk through
// deque blocks (completions look records up by token, one by one).
template <class T>
class ring {
public:
  bool empty() const noexcept { return size_ == 0; }
  size_t size() const noexcept { return size_; }
  T& operator[](size_t i) noexcept { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  T& front() noexcept { return buf_[head_]; }
  T& back() noexcept { return (*this)[size_ - 1]; }
  void push_back(T x) {
    if (size_ == buf_.size())
      grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = std::move(x);
    ++size_;
  }
  void pop_front() {
    buf_[head_] = T{};
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  /// Moves the elements out (in order) and leaves the ring empty.
  std::vector<T> take_all() {
    std::vector<T> out;
    out.reserve(size_);
    for (size_t i = 0; i < size_; ++i)
      out.push_back(std::move((*this)[i]));
    buf_.clear();
    head_ = size_ = 0;
    return out;
  }

private:
  void grow() {
    std::vector<T> bigger(std::max<size_t>(64, 2 * buf_.size()));
    for (size_t i = 0; i < size_; ++i)
      bigger[i] = std::move((*this)[i]);
    buf_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  size_t head_ = 0;
  size_t size_ = 0;
};

/// How many records of a taken send_buffer are processed per message: the rest waits
/// behind the produce answers that arrived meanwhile (a drain message to itself).
constexpr size_t drain_chunk = 2048;

struct queued_record {
  producer_record rec;
  uint64_t token = 0;
};

struct topic_state {
  std::vector<partition_actor> partitions; ///< by partition; invalid = unavailable
  std::vector<partition_actor> watched;    ///< the monitored actor of each partition
  bool known = false;                      ///< the partition count is known
  bool refreshing = false;                 ///< a metadata request is out
  bool wants_refresh = false;
  unsigned failures = 0;
  clock_type::time_point refresh_not_before{};
  caf::error last_error;
  std::deque<queued_record> waiting; ///< records waiting for the first metadata
};

/// Where a transactional producer is (Kafka's TransactionManager states, simplified).
enum class txn_phase : uint8_t {
  uninitialized, ///< init_transactions not done yet
  initializing,
  ready,     ///< between transactions
  in_txn,    ///< begun: records and offsets may be sent
  flushing,  ///< commit or abort: waiting for the records sent so far (more are taken)
  ending,    ///< commit or abort: EndTxn under way (records are refused)
  fatal,     ///< fenced (or the producer id is lost for good): close the producer
};

/// The idempotent and transactional producer's part (producer_transactions.cpp).
struct exactly_once_state {
  bool idempotent = false;
  bool transactional = false;
  producer_identity who; ///< invalid while there is none (asked for, or to be asked for)
  bool asking_id = false;
  unsigned id_failures = 0;
  clock_type::time_point id_not_before{};
  batch_numbering numbering;
  txn_phase phase = txn_phase::uninitialized;
  node_actor coordinator;           ///< the transaction coordinator's node; null: look it up
  std::set<topic_partition> added;  ///< in the open transaction (AddPartitionsToTxn answered)
  std::set<topic_partition> adding; ///< asked for (one request at a time)
  std::set<topic_partition> to_add; ///< to ask for next
  bool group_added = false;         ///< AddOffsetsToTxn answered in the open transaction
  caf::error abortable;             ///< why the open transaction can only abort (a record or
                                    ///< request failed); empty if it may commit
  caf::error fatal;
  bool bump_after_abort = false;    ///< the numbering broke: a new epoch after the abort
  /// Actions for later (coordinator retries after a backoff), run by pump().
  std::multimap<clock_type::time_point, std::function<void()>> deferred;
};

struct producer_state {
  static inline const char* name = "cafka.client.producer";
  producer_config cfg;
  cluster_link_actor link;
  record_accumulator acc;
  std::optional<sticky_partitioner> sticky;
  std::map<std::string, topic_state> topics;
  std::map<topic_partition, send_queue> queues;
  /// The records handed in, by token: pending[i] has token pending_base + i. Completed
  /// entries are closed and dropped once they reach the front, so the front is the
  /// oldest record not yet answered. Deadlines ascend (last_deadline).
  ring<pending_record> pending;
  uint64_t pending_base = 1;
  clock_type::time_point last_deadline{};
  /// Bytes of the pending records (bounded by cfg.buffer_memory for the send buffer).
  size_t pending_bytes = 0;
  /// Flushes in order; the last `unresolved_flushes` of them have no token yet.
  std::deque<flush_wait> flushes;
  size_t unresolved_flushes = 0;
  uint64_t next_token = 1;
  std::optional<clock_type::time_point> wakeup_at; ///< the earliest wakeup armed and not yet had
  /// The facade's hand-over buffer (null for a plain producer actor) and what was taken
  /// from it but not processed yet.
  std::shared_ptr<send_buffer> buffer;
  std::vector<send_chunk> inbox;
  size_t inbox_chunk = 0;     ///< the chunk being processed (its `taken` is the next record)
  uint64_t buffer_handled = 0; ///< records of the send buffer processed so far
  bool drain_paused = false;   ///< buffer_memory is used up: the inbox waits for room
  /// The topic of the previous record (topics are never erased: iterators stay valid).
  std::map<std::string, topic_state>::iterator last_topic;
  bool has_last_topic = false;
  exactly_once_state eo;
};

using self_ptr = producer_actor::stateful_pointer<producer_state>;

// -- shared by producer_actor.cpp and producer_transactions.cpp --------------------

void pump(self_ptr self);
void arm_wakeup(self_ptr self, clock_type::time_point at);
void complete(self_ptr self, uint64_t token, const caf::expected<record_metadata>& res);
void fail_batch(self_ptr self, const sealed_batch& b, const caf::error& err);

// producer_transactions.cpp

/// Whether new batches may be numbered and sent: not idempotent, or a producer id is there
/// (else one is asked for; pump() runs again when it arrives).
bool ready_to_number(self_ptr self);
/// Runs the deferred actions that are due; the time of the next one.
std::optional<clock_type::time_point> run_deferred(self_ptr self, clock_type::time_point now);
/// A transactional producer's gate before `tp`'s batches go out: true once `tp` is in the
/// transaction (else `tp` waits for AddPartitionsToTxn; pump() runs again when answered).
bool may_send_to(self_ptr self, const topic_partition& tp);
/// AddPartitionsToTxn for the partitions waiting for it, all in one request (one at a time).
void add_partitions(self_ptr self);
/// An idempotent producer's batch `b` failed for good with `outcome` (broken or fenced):
/// later batches get a new producer id, or the transaction becomes abortable / fatal.
void on_sequence_error(self_ptr self, const sealed_batch& b, sequence_outcome outcome);
/// A numbered batch expired unanswered: its numbering may be broken.
void on_numbered_batch_expired(self_ptr self, const sealed_batch& b);
/// Why a record may not be sent now (a transactional producer outside a transaction), or none.
caf::error send_refusal(const producer_state& st);
/// A record failed: a transactional producer's transaction becomes abortable.
void note_record_failure(producer_state& st, const caf::error& err);

caf::result<bool> init_transactions(self_ptr self);
caf::result<bool> begin_transaction(self_ptr self);
caf::result<bool> send_offsets(self_ptr self, std::string group, std::vector<group_offset> offsets);
caf::result<bool> end_transaction(self_ptr self, bool commit);

} // namespace cafka::client::detail
